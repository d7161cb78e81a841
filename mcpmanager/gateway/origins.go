package gateway

import (
	"context"
	"errors"
	"fmt"
	"net"
	"reflect"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// A server's question (elicitation, sampling) goes to the client whose
// request caused it, or to nobody. Every request the gateway runs upstream
// for a client (a tool call, prompts/get, resources/read, a skill read) is
// an origin, recorded as running on its server for as long as it runs.
//
// Whose a question is, the router decides (router.Tie), by the one rule
// every door of Switchboard follows: the gateway's clients, the window's
// chats, its Tools page and MCP Apps are each a party of the router. An
// origin's party is its client (clientOf): its session (a stdio client,
// an attached app, a 2025 HTTP client), else, for a 2026-07-28 client
// over HTTP, which keeps no session, the connection its request came on
// (ConnContext), else the origin alone. A question is tied to its call by
// its context when the transport carries it (an in-process server, or a
// Streamable HTTP server asking on the POST stream of the call); a stdio
// server's request names no call on the wire, so it is the one party's
// running on that server, when no other party's call there ended moments
// ago (router.TieGrace). When the router ties it to a party that is no
// client of the gateway's (a chat in the window), or to none, it is
// ErrNoClient: the caller answers it itself; when it cannot be tied, it
// is refused (ErrNotTied) rather than asked of a client whose call did
// not ask it.
//
// A question tied to a client whose several calls run on the server is
// that client's, whichever call asked: it is asked on the oldest of them
// that can carry it (of). A 2025 client is asked with a request of the
// gateway's own on its session, so any call would do; a 2026-07-28
// client's answer rides on one call's result (its relay, relay.go), and
// when that call's result goes out before the question could be put (the
// question was another call's), it is put on the next oldest (ask). Such
// a question waits as long as any of its client's calls there runs
// (life), not only the call it rides on.

// ErrNotTied means a server asked a question that cannot be tied to one
// caller's calls: calls of several callers ran on it (or another's ended
// moments ago), and nothing in the request says which call it belongs
// to. It is router.ErrNotTied: the rule is the router's.
var ErrNotTied = router.ErrNotTied

// ErrTooManyQuestions means the server, or the client's session, already has
// as many questions waiting for an answer as it may.
var ErrTooManyQuestions = errors.New("gateway: too many questions wait for an answer")

// MaxQuestionsPerServer and MaxQuestionsPerSession bound the questions
// waiting for a client's answer, of one server and to one client (its
// party: a session, a 2026-07-28 client's connection): a server that
// asks thousands at once would otherwise hold them all, with their
// messages, until each times out. Variables so tests can lower them.
var (
	MaxQuestionsPerServer  = 16
	MaxQuestionsPerSession = 16
)

// origin is one request of a client running upstream on server srv.
type origin struct {
	srv string
	// seq orders the origins by start: a question of its client goes to
	// the oldest running that can carry it.
	seq uint64
	// party is whom the router counts the request for (router.WithParty):
	// its client (clientOf), else the origin's own key.
	party any
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

// key is the origin's party when it has none of a client's: its relay
// (a 2026-07-28 call), its session, or itself.
func (c *origin) key() any {
	if c.relay != nil {
		return c.relay
	}
	if c.session != nil {
		return c.session
	}
	return c
}

// caps is what c's client declared it takes, and whether c can carry a
// question at all: a 2026-07-28 call whose relay still takes questions,
// or a request of an initialized 2025 session.
func (c *origin) caps() (mcp.ClientCapabilities, bool) {
	if c.relay != nil {
		return c.relay.caps, !c.relay.isOver()
	}
	return takesRequests(c.session)
}

type originKey struct{}

// origins are the requests running, by server, and the questions waiting.
type origins struct {
	mu        sync.Mutex
	seq       uint64
	running   map[string]map[*origin]bool
	lives     map[partyOn]*life
	byServer  map[string]int
	bySession map[any]int // by party
}

// partyOn is a party's requests on one server.
type partyOn struct {
	srv   string
	party any
}

// life ends when the last request of a party on a server does: a
// question tied to the party waits no longer (it was one of theirs).
type life struct {
	n      int
	ctx    context.Context
	cancel context.CancelFunc
}

// upstream starts a request of the client behind ctx on server srv: the
// returned context ends with ctx but carries none of its values (detach)
// except the origin, whose server's questions go back to that client, and
// its party, under which the router counts it (router.Begin). done ends
// it.
func (g *Gateway) upstream(ctx context.Context, srv string) (upCtx context.Context, done func()) {
	upCtx, stop := detach(ctx)
	c := &origin{srv: srv, ctx: upCtx, relay: relayFrom(ctx), request: ctx}
	if _, modern := modernCaller(ctx); c.relay == nil && !modern {
		c.session = server.ClientSessionFromContext(ctx)
	}
	c.party = partyOf(ctx, c)
	upCtx = context.WithValue(upCtx, originKey{}, c)
	// The origin is known before the router counts it, and after: a
	// question the router ties to this client always finds it.
	g.origins.start(c)
	upCtx, end := router.Begin(router.WithParty(upCtx, c.party), g.reg, srv)
	return upCtx, func() {
		end()
		g.origins.end(c)
		stop()
	}
}

// partyOf is the party of c, a request of the client behind ctx: its
// client (a 2026-07-28 call's, named by its relay, whose context holds
// none of the request's values), else c's own key.
func partyOf(ctx context.Context, c *origin) any {
	if c.relay != nil && c.relay.party != nil {
		return c.relay.party
	}
	if p := clientOf(ctx); p != nil {
		return p
	}
	return c.key()
}

// clientOf is the client whose request ctx is, as the router counts it
// (router.WithParty), or nil when none outlives the request:
//
//   - a stdio session (the one app on the stdio of 'serve', or an app
//     attached to the running Switchboard): every request on it;
//   - a 2025 session over HTTP (Mcp-Session-Id): every request in it;
//   - a 2026-07-28 request over HTTP has no session (mcp-go gives each
//     request one of its own): the connection it came on (ConnContext).
//
// A connection is the best a sessionless client leaves, and a sound one:
// it belongs to one process, as a stdio pipe does, so counting it as one
// caller ties a question only to a call of the process that made the
// earlier ones. Its limits: calls a client makes side by side come on a
// connection each (HTTP/1.1), so they count as callers of their own and a
// stdio server's question during them is refused; a client whose idle
// connection closed between two calls is a new caller, so its question
// within router.TieGrace of its own last call is refused too. Several
// clients in one process that share its connections (one HTTP pool)
// count as one while they reuse one, as a process multiplexing agents
// over one stdio session does. Nothing else names one: the request's
// _meta clientInfo names the app, not the running instance (two windows
// of one app send the same), and no header does (every client of one
// 'serve --http' sends the same token).
func clientOf(ctx context.Context) any {
	sess := server.ClientSessionFromContext(ctx)
	if s, ok := sess.(*stdioSession); ok {
		return s
	}
	if _, modern := modernCaller(ctx); modern {
		if c, ok := ctx.Value(connKey{}).(*httpConn); ok {
			return c
		}
		return nil
	}
	if sess != nil && reflect.TypeOf(sess).Comparable() {
		return sess
	}
	return nil
}

type connKey struct{}

// httpConn is one HTTP connection to the gateway, as a party.
type httpConn struct{ remote string }

// ConnContext is the ConnContext of the http.Server that serves
// HTTPHandler ('switchboard serve --http' sets it): each connection's
// requests name it, so the calls of a 2026-07-28 client, which keeps no
// session, count as one caller while they come on one connection
// (clientOf). Without it each of its calls counts as a caller of its own.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, &httpConn{remote: c.RemoteAddr().String()})
}

func (cs *origins) start(c *origin) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.running == nil {
		cs.running, cs.lives = map[string]map[*origin]bool{}, map[partyOn]*life{}
	}
	if cs.running[c.srv] == nil {
		cs.running[c.srv] = map[*origin]bool{}
	}
	cs.seq++
	c.seq = cs.seq
	cs.running[c.srv][c] = true
	k := partyOn{c.srv, c.party}
	l := cs.lives[k]
	if l == nil {
		l = &life{}
		l.ctx, l.cancel = context.WithCancel(context.Background())
		cs.lives[k] = l
	}
	l.n++
}

func (cs *origins) end(c *origin) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	delete(cs.running[c.srv], c)
	if len(cs.running[c.srv]) == 0 {
		delete(cs.running, c.srv)
	}
	k := partyOn{c.srv, c.party}
	if l := cs.lives[k]; l != nil {
		if l.n--; l.n == 0 {
			l.cancel()
			delete(cs.lives, k)
		}
	}
}

// tie returns the origin a question of server srv, asked under ctx, is
// put to, and the context it may wait within (its own request's, or,
// for one the router tied to a client, as long as any of the client's
// requests on srv runs), and counts the question as waiting until
// release. takes says whether an origin's client can take the question;
// what says what the server asked, for the errors.
func (g *Gateway) tie(ctx context.Context, srv, what string, takes func(*origin) bool) (c *origin, within context.Context, release func(), err error) {
	own, _ := ctx.Value(originKey{}).(*origin)
	var party any
	if own == nil || own.srv != srv {
		own = nil
		if party, err = router.Tie(ctx, g.reg, srv); err != nil {
			return nil, nil, nil, fmt.Errorf("%s %s %w", srv, what, err)
		}
		if party == nil {
			return nil, nil, nil, fmt.Errorf("%s %s outside any client's call: %w", srv, what, ErrNoClient)
		}
	}
	cs := &g.origins
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if c = own; c != nil {
		within = c.ctx
	} else {
		if c, err = cs.of(srv, party, takes); err != nil {
			return nil, nil, nil, fmt.Errorf("%s %s %w", srv, what, err)
		}
		within = cs.lives[partyOn{srv, party}].ctx
	}
	if cs.byServer[srv] >= MaxQuestionsPerServer {
		return nil, nil, nil, fmt.Errorf("%s %s with %d questions of its own still unanswered (at most %d per server; declined): %w", srv, what, cs.byServer[srv], MaxQuestionsPerServer, ErrTooManyQuestions)
	}
	k := c.party
	if cs.bySession[k] >= MaxQuestionsPerSession {
		return nil, nil, nil, fmt.Errorf("%s %s while the client has %d questions unanswered (at most %d per session; declined): %w", srv, what, cs.bySession[k], MaxQuestionsPerSession, ErrTooManyQuestions)
	}
	if cs.byServer == nil {
		cs.byServer, cs.bySession = map[string]int{}, map[any]int{}
	}
	cs.byServer[srv]++
	cs.bySession[k]++
	return c, within, func() {
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

// of is the origin of party's running on srv a question the router tied
// to party is put to (under cs.mu): the oldest that takes it, else the
// oldest (whose client then does not take it: ErrNotTaken). None is
// ErrNoClient: party is not a client of the gateway's (a chat in the
// window, with the gateway in front of its handler).
func (cs *origins) of(srv string, party any, takes func(*origin) bool) (*origin, error) {
	var oldest, taker *origin
	for c := range cs.running[srv] {
		if c.party != party {
			continue
		}
		if oldest == nil || c.seq < oldest.seq {
			oldest = c
		}
		if (taker == nil || c.seq < taker.seq) && takes(c) {
			taker = c
		}
	}
	if oldest == nil {
		return nil, fmt.Errorf("during a call that is no client's of this gateway: %w", ErrNoClient)
	}
	if taker != nil {
		return taker, nil
	}
	return oldest, nil
}

// during returns ctx ended also when within has: a question outlives
// neither the server's request nor the calls it may belong to (a stdio
// server's request carries the transport's context, which lives on).
func during(ctx, within context.Context) (context.Context, context.CancelFunc) {
	qctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(within, cancel)
	return qctx, func() {
		stop()
		cancel()
	}
}
