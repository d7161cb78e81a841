package gateway

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/mark3labs/mcp-go/server"
)

// A server's question (elicitation, sampling) goes to the client whose
// request caused it, or to nobody. Every request the gateway runs upstream
// for a client (a tool call, prompts/get, resources/read, a skill read) is
// an origin, recorded as running on its server for as long as it runs.
//
// A question is tied to its origin by its context when the transport
// carries it (an in-process server, or a Streamable HTTP server asking on
// the POST stream of the call); a stdio server's request names no call on
// the wire, so it is the one origin running on that server. When several
// run there, it cannot be told whose it is: it is refused (ErrNotTied)
// rather than asked of a client whose call did not ask it. One rule for
// 2025 clients (asked with a request of the gateway's own, on their
// session) and 2026-07-28 ones (asked through their call's relay).

// ErrNotTied means a server asked a question while several calls of clients ran
// on it, and nothing in the request says which call it belongs to.
var ErrNotTied = errors.New("gateway: several calls are running on this server, of different clients or each answered apart (2026-07-28), and its request names none of them, so it is asked of none; ask during one call at a time, or over a transport that ties a request to its call (Streamable HTTP)")

// ErrTooManyQuestions means the server, or the client's session, already has
// as many questions waiting for an answer as it may.
var ErrTooManyQuestions = errors.New("gateway: too many questions wait for an answer")

// MaxQuestionsPerServer and MaxQuestionsPerSession bound the questions
// waiting for a client's answer, of one server and to one client session
// (a 2026-07-28 client's call counts as its own session): a server that
// asks thousands at once would otherwise hold them all, with their
// messages, until each times out. Variables so tests can lower them.
var (
	MaxQuestionsPerServer  = 16
	MaxQuestionsPerSession = 16
)

// origin is one request of a client running upstream on server srv.
type origin struct {
	srv string
	// ctx ends when the request does: a question of it waits no longer.
	ctx context.Context
	// session is the 2025 client to ask with a request of the gateway's
	// own; nil for a 2026-07-28 client's request (or one over HTTP the
	// gateway answers itself, a skill read), which takes none.
	session server.ClientSession
	// relay, for a 2026-07-28 client's tool call, takes its questions back
	// to the client as input_required results (relay.go).
	relay *relay
	// request is the client's request as it came in; its values say where
	// a question goes back (onStream).
	request context.Context
}

// onStream is ctx (its deadline and cancellation) carrying the values of
// c's incoming request, with which the question is sent to the client: a
// Streamable HTTP client's goes out on the POST stream of the call that
// caused it, as the transport's guidance asks, instead of only on a GET
// stream the client may never open (it would wait for the answer until
// the call timed out). Only the client's own session reads them.
func (c *origin) onStream(ctx context.Context) context.Context {
	if c.request == nil {
		return ctx
	}
	return valuesOf{ctx, c.request}
}

// valuesOf is a context that ends with its Context and has the values of
// values first.
type valuesOf struct {
	context.Context
	values context.Context
}

func (v valuesOf) Value(key any) any {
	if x := v.values.Value(key); x != nil {
		return x
	}
	return v.Context.Value(key)
}

// key is what the origin's questions count against per session.
func (c *origin) key() any {
	if c.relay != nil {
		return c.relay
	}
	if c.session != nil {
		return c.session
	}
	return c
}

type originKey struct{}

// origins are the requests running, by server, and the questions waiting.
type origins struct {
	mu        sync.Mutex
	running   map[string]map[*origin]bool
	byServer  map[string]int
	bySession map[any]int
}

// upstream starts a request of the client behind ctx on server srv: the
// returned context ends with ctx but carries none of its values (detach)
// except the origin, whose server's questions go back to that client.
// done ends it.
func (g *Gateway) upstream(ctx context.Context, srv string) (upCtx context.Context, done func()) {
	upCtx, stop := detach(ctx)
	c := &origin{srv: srv, ctx: upCtx, relay: relayFrom(ctx), request: ctx}
	if _, modern := modernCaller(ctx); c.relay == nil && !modern {
		c.session = server.ClientSessionFromContext(ctx)
	}
	upCtx = context.WithValue(upCtx, originKey{}, c)
	g.origins.start(c)
	return upCtx, func() {
		g.origins.end(c)
		stop()
	}
}

func (cs *origins) start(c *origin) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.running == nil {
		cs.running = map[string]map[*origin]bool{}
	}
	if cs.running[c.srv] == nil {
		cs.running[c.srv] = map[*origin]bool{}
	}
	cs.running[c.srv][c] = true
}

func (cs *origins) end(c *origin) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	delete(cs.running[c.srv], c)
	if len(cs.running[c.srv]) == 0 {
		delete(cs.running, c.srv)
	}
}

// tie returns the origin a question of server srv, asked under ctx,
// belongs to, and counts the question as waiting until release. what
// says what the server asked, for the errors.
func (g *Gateway) tie(ctx context.Context, srv, what string) (c *origin, release func(), err error) {
	cs := &g.origins
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if own, _ := ctx.Value(originKey{}).(*origin); own != nil && own.srv == srv {
		c = own
	} else {
		switch n := len(cs.running[srv]); n {
		case 0:
			return nil, nil, fmt.Errorf("%s %s outside any client's call: %w", srv, what, ErrNoClient)
		case 1:
			for x := range cs.running[srv] {
				c = x
			}
		default:
			if c = sameSession(cs.running[srv]); c == nil {
				return nil, nil, fmt.Errorf("%s %s during %d calls: %w", srv, what, n, ErrNotTied)
			}
		}
	}
	if cs.byServer[srv] >= MaxQuestionsPerServer {
		return nil, nil, fmt.Errorf("%s %s with %d questions of its own still unanswered (at most %d per server; declined): %w", srv, what, cs.byServer[srv], MaxQuestionsPerServer, ErrTooManyQuestions)
	}
	k := c.key()
	if cs.bySession[k] >= MaxQuestionsPerSession {
		return nil, nil, fmt.Errorf("%s %s while the client has %d questions unanswered (at most %d per session; declined): %w", srv, what, cs.bySession[k], MaxQuestionsPerSession, ErrTooManyQuestions)
	}
	if cs.byServer == nil {
		cs.byServer, cs.bySession = map[string]int{}, map[any]int{}
	}
	cs.byServer[srv]++
	cs.bySession[k]++
	return c, func() {
		cs.mu.Lock()
		defer cs.mu.Unlock()
		if cs.byServer[srv]--; cs.byServer[srv] == 0 {
			delete(cs.byServer, srv)
		}
		if cs.bySession[k]--; cs.bySession[k] == 0 {
			delete(cs.bySession, k)
		}
	}, nil
}

// sameSession is one of running when all of them are requests of one 2025
// client's session (a client running calls side by side, as Claude Code
// does): whichever call asked, the question goes to that client. nil when
// they are not.
func sameSession(running map[*origin]bool) *origin {
	var one *origin
	for c := range running {
		if c.session == nil || one != nil && c.session != one.session {
			return nil
		}
		one = c
	}
	return one
}

// during returns ctx ended also when c's request has: a question outlives
// neither the server's request nor the call it belongs to (a stdio
// server's request carries the transport's context, which lives on).
func during(ctx context.Context, c *origin) (context.Context, context.CancelFunc) {
	qctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(c.ctx, cancel)
	return qctx, func() {
		stop()
		cancel()
	}
}
