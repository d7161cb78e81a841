package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// ErrNoClient means no client of the gateway takes the request: it came
// outside any client's call, or the client whose call it belongs to did
// not declare the capability (sampling, elicitation, or its URL mode:
// ErrNotTaken, which wraps it). The caller answers the server itself
// then.
var ErrNoClient = errors.New("gateway: no connected client takes this request")

// ErrNotTaken means the request came during a call of a client that did
// not declare the capability it needs (sampling, sampling.tools,
// elicitation, or its URL mode): the client is there, it takes no such
// request. It wraps ErrNoClient, so a caller that answers the server
// itself for either still does; one that words its refusal tells the
// two apart.
var ErrNotTaken = fmt.Errorf("the client whose call it came during does not take it: %w", ErrNoClient)

// CreateMessage passes a server's sampling request on to the client whose
// call it belongs to (origins.go): a 2026-07-28 client as an input_required
// result of that call (relay.go), an older one as a request of its own on
// that client's session, when it declared sampling (and, for a request
// offering tools, sampling.tools). A request tied to no call is
// ErrNoClient, to a client that takes no such request ErrNotTaken; one
// that cannot be tied to one caller is ErrNotTied. Its signature is
// mcpmanager's RequestHandler's, so 'switchboard serve' can put the
// gateway in front of its own answer.
func (g *Gateway) CreateMessage(ctx context.Context, srv string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	takes := func(caps mcp.ClientCapabilities) bool {
		return caps.Sampling != nil && (len(req.CreateMessageParams.Tools) == 0 || caps.Sampling.Tools != nil)
	}
	return ask(ctx, g, srv, "asked to use a model (sampling)", takes, func(ctx context.Context, c *origin) (*mcp.CreateMessageResult, bool, error) {
		if c.relay != nil {
			return relaySample(ctx, c.relay, req)
		}
		if s, can := c.session.(server.SessionWithSampling); can {
			res, err := s.RequestSampling(c.onStream(ctx), req)
			return res, true, err
		}
		return nil, false, nil
	})
}

// Elicit passes a server's elicitation on to the client whose call it
// belongs to, as CreateMessage does, when that client declared
// elicitation (the URL mode needs elicitation.url).
func (g *Gateway) Elicit(ctx context.Context, srv string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	takes := func(caps mcp.ClientCapabilities) bool {
		return takesElicitation(caps, req.Params.Mode == mcp.ElicitationModeURL)
	}
	return ask(ctx, g, srv, "asked a question (elicitation)", takes, func(ctx context.Context, c *origin) (*mcp.ElicitationResult, bool, error) {
		if c.relay != nil {
			return relayElicit(ctx, c.relay, req)
		}
		if s, can := c.session.(server.SessionWithElicitation); can {
			res, err := s.RequestElicitation(c.onStream(ctx), req)
			return res, true, err
		}
		return nil, false, nil
	})
}

// ask puts a question of server srv, asked under ctx, to the client it
// is tied to (g.tie), on the origin put (CreateMessage's, Elicit's) can
// ask it on: put reports whether it asked. takes says whether a client's
// capabilities take the question; what names it for the errors. A
// question the origin's relay ended before putting (errRelayOver: its
// call's result went out first) goes to the client's next oldest call.
func ask[T any](ctx context.Context, g *Gateway, srv, what string, takes func(mcp.ClientCapabilities) bool, put func(context.Context, *origin) (T, bool, error)) (T, error) {
	var none T
	canTake := func(c *origin) bool {
		caps, ok := c.caps()
		return ok && takes(caps)
	}
	tried := map[*origin]bool{}
	for {
		c, within, release, err := g.tie(ctx, srv, what, canTake)
		if err != nil {
			return none, err
		}
		if tried[c] { // put before, and its relay ended: none of the client's takes it now
			release()
			return none, fmt.Errorf("%s %s, but the calls of its client there ended before it could be put to it: call the tool again", srv, what)
		}
		tried[c] = true
		res, asked, err := putWithin(ctx, within, c, put, canTake)
		release()
		switch {
		case errors.Is(err, errRelayOver) && ctx.Err() == nil:
			continue
		case asked && err != nil:
			return none, fmt.Errorf("%s %s: %w", srv, what, err)
		case asked:
			return res, nil
		case err != nil:
			return none, fmt.Errorf("%s %s: %w", srv, what, err)
		}
		if _, can := c.caps(); can {
			return none, fmt.Errorf("%s %s: %w", srv, what, ErrNotTaken)
		}
		return none, fmt.Errorf("%s %s during a request of its client's that carries no question: %w", srv, what, ErrNoClient)
	}
}

// putWithin runs put on c when c's client takes the question, with ctx
// ended also when within does (during).
func putWithin[T any](ctx, within context.Context, c *origin, put func(context.Context, *origin) (T, bool, error), takes func(*origin) bool) (T, bool, error) {
	var none T
	if c.relay != nil && c.relay.isOver() {
		return none, false, errRelayOver
	}
	if !takes(c) {
		return none, false, nil
	}
	ctx, cancel := during(ctx, within)
	defer cancel()
	return put(ctx, c)
}

// takesRequests returns the capabilities of a client session that may be
// sent requests: initialized, and of a revision before 2026-07-28 (which
// has no server-initiated requests).
func takesRequests(c server.ClientSession) (mcp.ClientCapabilities, bool) {
	if c == nil || !c.Initialized() {
		return mcp.ClientCapabilities{}, false
	}
	ci, ok := c.(server.SessionWithClientInfo)
	if !ok {
		return mcp.ClientCapabilities{}, false
	}
	if v, versioned := c.(interface{ ProtocolVersion() string }); versioned && mcp.IsModernProtocol(v.ProtocolVersion()) {
		return mcp.ClientCapabilities{}, false
	}
	return ci.GetClientCapabilities(), true
}

// takesElicitation reports whether caps take an elicitation of the URL mode (url)
// or a form.
func takesElicitation(caps mcp.ClientCapabilities, url bool) bool {
	if caps.Elicitation == nil {
		return false
	}
	if url {
		return caps.Elicitation.URL != nil
	}
	// An empty elicitation capability means form (2025-06-18 clients).
	return caps.Elicitation.Form != nil || caps.Elicitation.URL == nil
}

// outgoing are the requests a stdio session sent its client, waiting for
// the answer by id.
type outgoing struct {
	mu      sync.Mutex
	next    int64
	pending map[string]chan rpcResponse
}

// rpcResponse is a client's answer to one of our requests.
type rpcResponse struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// request sends method with params to the client over w and decodes its
// answer into out.
func (o *outgoing) request(ctx context.Context, w *wire.Writer, method string, params, out any) error {
	if w == nil {
		return fmt.Errorf("gateway: %s: %w", method, ErrNoClient)
	}
	o.mu.Lock()
	o.next++
	id := "switchboard-" + strconv.FormatInt(o.next, 10)
	ch := make(chan rpcResponse, 1)
	if o.pending == nil {
		o.pending = map[string]chan rpcResponse{}
	}
	o.pending[strconv.Quote(id)] = ch
	o.mu.Unlock()
	defer func() {
		o.mu.Lock()
		delete(o.pending, strconv.Quote(id))
		o.mu.Unlock()
	}()
	if err := w.WriteJSON(map[string]any{"jsonrpc": mcp.JSONRPC_VERSION, "id": id, "method": method, "params": params}); err != nil {
		return err
	}
	select {
	case resp := <-ch:
		if resp.Error != nil {
			return fmt.Errorf("gateway: the client answered %s with error %d: %s", method, resp.Error.Code, resp.Error.Message)
		}
		if err := json.Unmarshal(resp.Result, out); err != nil {
			return fmt.Errorf("gateway: the client's answer to %s: %w", method, err)
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// answer takes a line that is a response to one of our requests and
// reports whether it was one.
func (o *outgoing) answer(line []byte) bool {
	if bytes.Contains(line, []byte(`"method"`)) {
		return false
	}
	var msg struct {
		ID json.RawMessage `json:"id"`
		rpcResponse
	}
	if json.Unmarshal(line, &msg) != nil || len(msg.ID) == 0 {
		return false
	}
	o.mu.Lock()
	ch, ok := o.pending[string(msg.ID)]
	o.mu.Unlock()
	if ok {
		ch <- msg.rpcResponse
	}
	return ok
}

var (
	_ server.SessionWithSampling    = (*stdioSession)(nil)
	_ server.SessionWithElicitation = (*stdioSession)(nil)
)

// RequestSampling sends sampling/createMessage to the stdio client.
func (s *stdioSession) RequestSampling(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	var res mcp.CreateMessageResult
	if err := s.out.request(ctx, s.writer(), string(mcp.MethodSamplingCreateMessage), req.CreateMessageParams, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// RequestElicitation sends elicitation/create to the stdio client.
func (s *stdioSession) RequestElicitation(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	var res mcp.ElicitationResult
	if err := s.out.request(ctx, s.writer(), string(mcp.MethodElicitationCreate), req.Params, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// SetProtocolVersion keeps the version initialize negotiated (mcp-go calls
// it); ProtocolVersion tells the gateway whether requests may be sent.
func (s *stdioSession) SetProtocolVersion(v string) { s.version.Store(v) }

// ProtocolVersion is the version initialize negotiated, "" before.
func (s *stdioSession) ProtocolVersion() string {
	v, _ := s.version.Load().(string)
	return v
}

func (s *stdioSession) writer() *wire.Writer {
	w, _ := s.w.Load().(*wire.Writer)
	return w
}
