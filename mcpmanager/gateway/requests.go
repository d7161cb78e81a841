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

// ErrNoClient means no client connected to the gateway takes the request:
// none declared the capability (sampling, elicitation, or its URL mode),
// or it speaks a protocol version without server-initiated requests
// (2026-07-28 and later). The caller answers the server itself then.
var ErrNoClient = errors.New("gateway: no connected client takes this request")

// sessions are the gateway's clients, in the order they connected.
type sessions struct {
	mu   sync.Mutex
	list []server.ClientSession
}

func (s *sessions) add(c server.ClientSession) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list = append(s.list, c)
}

func (s *sessions) remove(c server.ClientSession) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range s.list {
		if x.SessionID() == c.SessionID() {
			s.list = append(s.list[:i], s.list[i+1:]...)
			return
		}
	}
}

// pick returns the most recently connected client for which ok holds.
func (s *sessions) pick(ok func(server.ClientSession, mcp.ClientCapabilities) bool) server.ClientSession {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.list) - 1; i >= 0; i-- {
		c := s.list[i]
		if !c.Initialized() {
			continue
		}
		ci, hasCaps := c.(server.SessionWithClientInfo)
		if !hasCaps {
			continue
		}
		if v, versioned := c.(interface{ ProtocolVersion() string }); versioned && mcp.IsModernProtocol(v.ProtocolVersion()) {
			continue // no server-initiated requests in this version
		}
		if ok(c, ci.GetClientCapabilities()) {
			return c
		}
	}
	return nil
}

// CreateMessage passes a server's sampling request on to the 2026-07-28
// client whose call it belongs to (relay.go), or to the client
// connected to the gateway, when it declared sampling (and, for a request
// offering tools, sampling.tools); otherwise it returns ErrNoClient. Its
// signature is mcpmanager's RequestHandler's, so 'switchboard serve' can put
// the gateway in front of its own answer.
func (g *Gateway) CreateMessage(ctx context.Context, srv string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	if res, relayed, err := relaySample(ctx, req); relayed {
		return res, err
	}
	c := g.clients.pick(func(c server.ClientSession, caps mcp.ClientCapabilities) bool {
		_, can := c.(server.SessionWithSampling)
		if len(req.CreateMessageParams.Tools) > 0 && (caps.Sampling == nil || caps.Sampling.Tools == nil) {
			return false
		}
		return can && caps.Sampling != nil
	})
	if c == nil {
		return nil, fmt.Errorf("%s asked to use a model (sampling): %w", srv, ErrNoClient)
	}
	return c.(server.SessionWithSampling).RequestSampling(ctx, req)
}

// Elicit passes a server's elicitation on to the connected client that
// declared elicitation (the URL mode needs elicitation.url); otherwise it
// returns ErrNoClient.
func (g *Gateway) Elicit(ctx context.Context, srv string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	if res, relayed, err := relayElicit(ctx, req); relayed {
		return res, err
	}
	url := req.Params.Mode == mcp.ElicitationModeURL
	c := g.clients.pick(func(c server.ClientSession, caps mcp.ClientCapabilities) bool {
		_, can := c.(server.SessionWithElicitation)
		if !can || caps.Elicitation == nil {
			return false
		}
		if url {
			return caps.Elicitation.URL != nil
		}
		// An empty elicitation capability means form (2025-06-18 clients).
		return caps.Elicitation.Form != nil || caps.Elicitation.URL == nil
	})
	if c == nil {
		return nil, fmt.Errorf("%s asked a question (elicitation): %w", srv, ErrNoClient)
	}
	return c.(server.SessionWithElicitation).RequestElicitation(ctx, req)
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
