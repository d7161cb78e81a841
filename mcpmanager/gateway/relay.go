package gateway

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// A client of revision 2026-07-28 takes no requests from the gateway: a
// server's question (a form, a sampling request) reaches it as the
// input_required result of its own tools/call, and the client answers by
// calling again with inputResponses and the requestState it got.
//
// The gateway keeps the upstream call running meanwhile (a relay): the
// server's question, asked of the gateway while the call runs (Elicit,
// CreateMessage with the call's context), becomes the client's
// input_required result under a requestState naming the relay; the
// client's retry hands the answer to the waiting question and waits again,
// for the call's result or its next question. A relay the client does not
// come back to ends after RelayTimeout, cancelling the call.
//
// Questions a 2025 server sends as requests of its own are not tied to a
// call: when exactly one relayed call to that server is running, they go to
// its client the same way; otherwise to a 2025 client of the gateway, if
// any (sessions.pick).

// RelayTimeout is how long a relayed call waits for the client to answer a
// question before it is cancelled. A variable so tests can shorten it.
var RelayTimeout = 10 * time.Minute

// relayPrefix starts every requestState the gateway hands out.
const relayPrefix = "switchboard-relay-"

// errRelayGone: the requestState names no waiting call.
var errRelayGone = errors.New("the question this answers has expired or was already answered: call the tool again")

// relay is one upstream call of a 2026-07-28 client, and the questions its
// server asked that wait for the client's answer.
type relay struct {
	token string
	tool  string
	caps  mcp.ClientCapabilities // what the client declared it can answer
	asks  chan question          // questions from the server, one at a time
	done  chan json.RawMessage   // the call's result
	stop  context.CancelFunc
	// expiry stops the call when the client does not come back to the
	// question it was last asked within RelayTimeout.
	expiry *time.Timer

	mu      sync.Mutex
	waiting map[string]question // asked of the client, by input request key
	n       int
}

// question is one input request waiting for the client.
type question struct {
	req    mcp.InputRequest
	answer chan mcp.InputResponse
}

type relayKey struct{}

// relayFrom returns the relay whose upstream call ctx belongs to.
func relayFrom(ctx context.Context) *relay {
	r, _ := ctx.Value(relayKey{}).(*relay)
	return r
}

// relays are the calls waiting for their client, by token, and the
// relayed calls running, by server.
type relays struct {
	mu      sync.Mutex
	m       map[string]*relay
	running map[string]map[*relay]bool
}

// start records that r's call runs on server srv; end forgets it.
func (rs *relays) start(srv string, r *relay) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.running == nil {
		rs.running = map[string]map[*relay]bool{}
	}
	if rs.running[srv] == nil {
		rs.running[srv] = map[*relay]bool{}
	}
	rs.running[srv][r] = true
}

func (rs *relays) end(srv string, r *relay) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	delete(rs.running[srv], r)
}

// sole returns the one relayed call running on srv, or nil when there are
// none or several (a question of srv's own cannot be told apart then).
func (rs *relays) sole(srv string) *relay {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if len(rs.running[srv]) != 1 {
		return nil
	}
	for r := range rs.running[srv] {
		return r
	}
	return nil
}

func (rs *relays) add(r *relay) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.m == nil {
		rs.m = map[string]*relay{}
	}
	rs.m[r.token] = r
}

func (rs *relays) take(token string) *relay {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	r := rs.m[token]
	delete(rs.m, token)
	return r
}

// ask puts req to the client of r and waits for the answer.
func (r *relay) ask(ctx context.Context, req mcp.InputRequest) (mcp.InputResponse, error) {
	q := question{req: req, answer: make(chan mcp.InputResponse, 1)}
	select {
	case r.asks <- q:
	case <-ctx.Done():
		return mcp.InputResponse{}, ctx.Err()
	}
	select {
	case a := <-q.answer:
		return a, nil
	case <-ctx.Done():
		return mcp.InputResponse{}, ctx.Err()
	}
}

// relayedCall runs a tools/call of a 2026-07-28 client: a new call, or
// the retry of one that asked a question (state and responses set).
// call runs the upstream call with the context it is given.
func (g *Gateway) relayedCall(ctx context.Context, name, state string, responses mcp.InputResponses, caps mcp.ClientCapabilities, call func(context.Context) json.RawMessage) json.RawMessage {
	var r *relay
	if strings.HasPrefix(state, relayPrefix) {
		r = g.relays.take(state)
		if r == nil || r.tool != name {
			return errorResult(fmt.Errorf("%s: %w", name, errRelayGone))
		}
		r.expiry.Stop() // the client came back
		r.answer(responses)
	} else {
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		// The call itself is bounded by the registry (the tool timeout, or
		// a task's limit); only a client that leaves a question unanswered
		// ends it here (expiry).
		upCtx, cancel := context.WithCancel(context.Background())
		r = &relay{token: relayPrefix + hex.EncodeToString(b), tool: name, caps: caps,
			asks: make(chan question), done: make(chan json.RawMessage, 1), stop: cancel, waiting: map[string]question{}}
		go func() {
			defer cancel()
			r.done <- call(context.WithValue(upCtx, relayKey{}, r))
		}()
	}
	return g.next(ctx, r)
}

// next waits for the call's result, or its next question, which goes to
// the client as an input_required result while the relay waits for its
// answer.
func (g *Gateway) next(ctx context.Context, r *relay) json.RawMessage {
	select {
	case res := <-r.done:
		return res
	case q := <-r.asks:
		r.mu.Lock()
		r.n++
		key := fmt.Sprintf("q%d", r.n)
		r.waiting[key] = q
		r.mu.Unlock()
		// Armed before the client can see the question, so its retry
		// always finds the timer to stop.
		r.expiry = time.AfterFunc(RelayTimeout, func() {
			if g.relays.take(r.token) == r {
				r.stop()
			}
		})
		g.relays.add(r)
		res := mcp.CallToolResult{
			Result:               mcp.Result{ResultType: mcp.ResultTypeInputRequired},
			MultiRoundTripResult: mcp.MultiRoundTripResult{InputRequests: mcp.InputRequests{key: q.req}, RequestState: r.token},
		}
		out, err := json.Marshal(res)
		if err != nil {
			return errorResult(err)
		}
		return out
	case <-ctx.Done():
		// The client went away: the call is cancelled with it.
		r.stop()
		return errorResult(ctx.Err())
	}
}

// answer hands the client's responses to the questions waiting for them.
func (r *relay) answer(responses mcp.InputResponses) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for key, q := range r.waiting {
		resp, ok := responses[key]
		if !ok {
			continue // asked again at the next step, as the spec has it
		}
		if err := resp.DecodeFor(q.req.Method); err != nil {
			continue
		}
		q.answer <- resp
		delete(r.waiting, key)
	}
}

// relayFor is the relay a question of server srv asked under ctx belongs
// to: the call's own, or the one relayed call running on srv.
func (g *Gateway) relayFor(ctx context.Context, srv string) *relay {
	if r := relayFrom(ctx); r != nil {
		return r
	}
	return g.relays.sole(srv)
}

// relayElicit asks r's client, when it declared the capability; ok is
// false otherwise.
func relayElicit(ctx context.Context, r *relay, req mcp.ElicitationRequest) (*mcp.ElicitationResult, bool, error) {
	if r == nil || r.caps.Elicitation == nil || req.Params.Mode == mcp.ElicitationModeURL && r.caps.Elicitation.URL == nil {
		return nil, false, nil
	}
	a, err := r.ask(ctx, mcp.NewElicitationInputRequest(req.Params))
	if err != nil {
		return nil, true, err
	}
	if a.Elicitation == nil {
		return nil, true, errors.New("the client answered the form with something else")
	}
	return a.Elicitation, true, nil
}

// relaySample asks r's client to sample, when it declared sampling.
func relaySample(ctx context.Context, r *relay, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, bool, error) {
	if r == nil || r.caps.Sampling == nil || len(req.CreateMessageParams.Tools) > 0 && r.caps.Sampling.Tools == nil {
		return nil, false, nil
	}
	a, err := r.ask(ctx, mcp.NewSamplingInputRequest(req.CreateMessageParams))
	if err != nil {
		return nil, true, err
	}
	if a.Sampling == nil {
		return nil, true, errors.New("the client answered the sampling request with something else")
	}
	return a.Sampling, true, nil
}

// modernCaller returns the capabilities a 2026-07-28 request declared, and
// whether it is one.
func modernCaller(ctx context.Context) (mcp.ClientCapabilities, bool) {
	info := server.RequestProtocolInfoFromContext(ctx)
	if info == nil || !info.Modern {
		return mcp.ClientCapabilities{}, false
	}
	if info.ClientCapabilities == nil {
		return mcp.ClientCapabilities{}, true
	}
	return *info.ClientCapabilities, true
}
