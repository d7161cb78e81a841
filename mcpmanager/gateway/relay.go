package gateway

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
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
// A server's question reaches the relay of the call it belongs to
// (origins.go): one asked with the call's context, or a stdio server's
// own request while only that client's calls run on the server and no
// other caller's call there ended moments ago (router.Tie); with several
// of its calls running, the oldest call's relay that still takes
// questions. A relay takes questions until its call's result goes to the
// client (or the client gives up on it): a question it had not put to
// the client by then is errRelayOver, and is put on another of the
// client's calls.

// RelayTimeout is how long a relayed call waits for the client to answer a
// question before it is cancelled. A variable so tests can shorten it.
var RelayTimeout = 10 * time.Minute

// relayPrefix starts every requestState the gateway hands out.
const relayPrefix = "switchboard-relay-"

// errRelayGone: the requestState names no waiting call.
var errRelayGone = errors.New("the question this answers has expired or was already answered: call the tool again")

// errRelayTool: the requestState is a call of another tool; the question
// keeps waiting for the retry of its own.
var errRelayTool = errors.New("the requestState belongs to a call of another tool: retry that tool with it")

// errNoAnswer: a retry answered none of the questions waiting; they keep
// waiting for a retry that does.
var errNoAnswer = errors.New("the retry answers none of the questions waiting: send the same requestState with inputResponses holding an answer under the key of each inputRequest")

// errRelayOver: the call's result went to the client (or the client gave
// up on the call) before the question was put to it; another call of the
// client's may carry it (requests.go).
var errRelayOver = errors.New("the call it was to be asked on ended first")

// errRelayEnded: the call's result went to the client (or the client gave
// up on the call) while the question put to it was still unanswered.
var errRelayEnded = errors.New("the client did not answer it before the call it was asked on ended")

// relay is one upstream call of a 2026-07-28 client, and the questions its
// server asked that wait for the client's answer.
type relay struct {
	token string // the requestState naming it; set with its first question
	tool  string
	caps  mcp.ClientCapabilities // what the client declared it can answer
	// party is the client whose call it is (clientOf: its stdio session,
	// its HTTP connection), so its calls count as one caller's; nil when
	// none outlives the request (the relay is its own then).
	party any
	asks  chan question        // questions from the server, one at a time
	done  chan json.RawMessage // the call's result
	stop  context.CancelFunc
	// expiry stops the call when the client does not come back to the
	// question it was last asked within RelayTimeout.
	expiry *time.Timer

	mu      sync.Mutex
	waiting map[string]question // asked of the client, by input request key
	n       int
	// first answers the client's request with the call's first question,
	// for a call run on the request's own goroutine (relayedCall's reply);
	// nil once used, and for calls run on a goroutine of their own.
	first func(question)

	// over is closed once the relay takes no more questions (end).
	over     chan struct{}
	overOnce sync.Once
}

// end makes r take no more questions: its call's result went to the
// client, or the client gave up on it. A question waiting to be put
// (ask) goes to another call of the client's.
func (r *relay) end() {
	r.overOnce.Do(func() { close(r.over) })
}

// isOver reports whether r takes no more questions.
func (r *relay) isOver() bool {
	select {
	case <-r.over:
		return true
	default:
		return false
	}
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

// relays are the calls waiting for their client, by token.
type relays struct {
	mu sync.Mutex
	m  map[string]*relay
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

// claim takes the relay a retry of tool names with state, when the retry
// answers at least one of its waiting questions. A retry of another tool,
// or one that answers none, leaves the relay waiting (its expiry still
// armed) and says why at once: the call would otherwise wait for an
// answer that is not coming, and its client with it.
func (rs *relays) claim(state, tool string, responses mcp.InputResponses) (*relay, error) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	r := rs.m[state]
	switch {
	case r == nil:
		return nil, errRelayGone
	case r.tool != tool:
		return nil, errRelayTool
	case !r.answers(responses):
		return nil, fmt.Errorf("%w (waiting: %s)", errNoAnswer, r.keys())
	}
	delete(rs.m, state)
	return r, nil
}

// ask puts req to the client of r and waits for the answer. It is
// errRelayOver when r's call ended before req was put to the client.
func (r *relay) ask(ctx context.Context, req mcp.InputRequest) (mcp.InputResponse, error) {
	q := question{req: req, answer: make(chan mcp.InputResponse, 1)}
	r.mu.Lock()
	first := r.first
	r.first = nil
	r.mu.Unlock()
	if first != nil {
		first(q)
	} else {
		select {
		case r.asks <- q:
		case <-r.over:
			return mcp.InputResponse{}, errRelayOver
		case <-ctx.Done():
			return mcp.InputResponse{}, ctx.Err()
		}
	}
	select {
	case a := <-q.answer:
		return a, nil
	case <-r.over:
		select {
		case a := <-q.answer: // the retry that ended the relay answered it
			return a, nil
		default:
			return mcp.InputResponse{}, errRelayEnded
		}
	case <-ctx.Done():
		return mcp.InputResponse{}, ctx.Err()
	}
}

// relayedCall runs a tools/call of a 2026-07-28 client: a new call, or
// the retry of one that asked a question (state and responses set).
// call runs the upstream call with the context it is given.
//
// With reply, a new call runs on the caller's goroutine, and replied is
// true when its first question was the answer to the client's request,
// written with reply while the call went on; the call's result then waits
// for the client's retry. Without, the call runs on a goroutine of its own
// while the caller waits for its result or its first question (a handler
// must return its answer). Most calls ask nothing: on the stdio fast path
// they cost no goroutine.
func (g *Gateway) relayedCall(ctx context.Context, name, state string, responses mcp.InputResponses, caps mcp.ClientCapabilities,
	reply func(json.RawMessage), call func(context.Context) json.RawMessage) (res json.RawMessage, replied bool) {
	if strings.HasPrefix(state, relayPrefix) {
		r, err := g.relays.claim(state, name, responses)
		if err != nil {
			return errorResult(fmt.Errorf("%s: %w", name, err)), false
		}
		r.expiry.Stop() // the client came back
		r.answer(responses)
		return g.next(ctx, r), false
	}
	// The call itself is bounded by the router (the tool timeout, or a
	// task's limit); only a client that leaves a question unanswered ends
	// it here (expiry).
	upCtx, cancel := context.WithCancel(context.Background())
	r := &relay{tool: name, caps: caps, party: clientOf(ctx), asks: make(chan question), done: make(chan json.RawMessage, 1), stop: cancel,
		waiting: map[string]question{}, over: make(chan struct{})}
	if reply == nil {
		go func() {
			defer cancel()
			r.done <- call(context.WithValue(upCtx, relayKey{}, r))
		}()
		return g.next(ctx, r), false
	}
	defer cancel()
	// Until its first question the call is the client's request's: it
	// ends with it. From then on it waits for the client's retry.
	unwatch := context.AfterFunc(ctx, cancel)
	r.first = func(q question) {
		unwatch()
		reply(g.put(r, q))
	}
	res = call(context.WithValue(upCtx, relayKey{}, r))
	r.mu.Lock()
	replied = r.first == nil
	r.first = nil
	r.mu.Unlock()
	if !replied {
		unwatch()
		r.end()
		return res, false
	}
	r.done <- res
	return nil, true
}

// next waits for the call's result, or its next question, which goes to
// the client as an input_required result while the relay waits for its
// answer.
func (g *Gateway) next(ctx context.Context, r *relay) json.RawMessage {
	select {
	case res := <-r.done:
		r.end()
		return res
	case q := <-r.asks:
		return g.put(r, q)
	case <-ctx.Done():
		// The client went away: the call is cancelled with it.
		r.stop()
		r.end()
		return errorResult(ctx.Err())
	}
}

// put makes q the client's input_required result: it waits under a key of
// its own in r, which waits for the client's retry (within RelayTimeout).
func (g *Gateway) put(r *relay, q question) json.RawMessage {
	r.mu.Lock()
	if r.token == "" {
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		r.token = relayPrefix + hex.EncodeToString(b)
	}
	r.n++
	key := fmt.Sprintf("q%d", r.n)
	r.waiting[key] = q
	r.mu.Unlock()
	// Armed before the client can see the question, so its retry always
	// finds the timer to stop.
	r.expiry = time.AfterFunc(RelayTimeout, func() {
		if g.relays.take(r.token) == r {
			r.stop()
			r.end()
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
}

// answers reports whether responses answer at least one waiting question.
func (r *relay) answers(responses mcp.InputResponses) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for key, q := range r.waiting {
		if resp, ok := responses[key]; ok && resp.DecodeFor(q.req.Method) == nil {
			return true
		}
	}
	return false
}

// keys lists the keys of the waiting questions, for an error.
func (r *relay) keys() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	keys := slices.Sorted(maps.Keys(r.waiting))
	return strings.Join(keys, ", ")
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
