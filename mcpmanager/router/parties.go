package router

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// A server's question (sampling/createMessage, elicitation/create) goes to
// the party whose call caused it, or to nobody. A party is whoever a
// request is made for: a client session of the gateway, a chat, the Tools
// page. The router is the one place that knows every request running on
// each server, by party: every tool call, prompts/get, resources/read and
// completion it runs counts while it runs, and so does what a caller
// begins itself (Begin: the gateway's skill reads); a tool call, and
// anything begun with Begin, is also remembered for TieGrace after it
// ended. The caller names its party on the context (WithParty); a call
// that names none is a party of its own.
//
// Tie is the one rule every door follows. A question whose context names
// its call (an in-process server, a Streamable HTTP server asking on the
// POST stream of the call, a 2026-07-28 server's input_required result)
// belongs to that call's party. A stdio server's request names no call:
// it belongs to the one party with requests running on that server, when
// no other party's call there ended within TieGrace (a server that asks
// after its call returned, as a job runner does, would otherwise ask the
// next caller about the last one's business). However many calls that
// one party runs there, the question can only be its own: which of them
// it rides on is the door's business (the gateway's, for a 2026-07-28
// client, whose answer comes back with one call's result). Otherwise it
// cannot be told whose it is, and it is refused (ErrNotTied) with words
// saying what to do: call the tool again when nothing else uses the
// server. With nothing running on the server it belongs to nobody: the
// door answers it as outside any call.
//
// Who counts as one party is the door's to say, and errs on the side of
// more parties: a refused question costs a retry, one tied to the wrong
// party shows someone else's business. The window's Tools page (and
// 'tools call') is a party of its own, apart from every chat, though the
// same person answers both in the same window: what a question is
// answered with differs by party (a chat's is sampled with that chat's
// model, under what the user allowed for that chat, and shown in it; the
// Tools page's with the fallback model, outside any chat), so a job the
// Tools page started that asks during a chat's call would otherwise hand
// its prompt to the chat's model under the chat's allowance. Two chats
// are two parties for the same reason, while their calls run at once;
// TieGrace, though, does not hold them apart (Attended says why). The gateway's clients are a
// party each: a session (stdio, an attached app, a 2025 HTTP session);
// a 2026-07-28 client over HTTP, which has none, is one party per
// connection it calls on (gateway.ConnContext).
//
// Tying, which the manager puts in front of every door's handler, ties
// each question once and hands it on with its party in the context
// (TiedTo), so every handler on its way reads the same answer.

// TieGrace is how long after a party's call on a server ended a stdio
// server's question is not tied to another party's call there. A variable
// so tests can shorten it.
var TieGrace = 10 * time.Second

// Attended is a party whose questions are put to the person at
// Switchboard's own window or terminal (a chat, the Tools page): between
// two such parties TieGrace does not apply. The same person sees both, and
// a question shown in the next chat's card names its server and is
// approved there; refusing it instead made any chat's question on a stdio
// server fail for 10 s after another chat or the Tools page had used that
// server, which is most of what a person does. Calls running at once are
// still held apart, and TieGrace still holds an app (a client of serve)
// apart from everyone else.
type Attended interface{ Attended() }

// ErrNotTied means a server asked a question that cannot be tied to one
// party's call: calls of several parties run on the server, or another
// party's call there ended moments ago, and its request names none. Its
// words sit inside the sentence Tie's error makes ("so Switchboard …"),
// which says what to do.
var ErrNotTied = errors.New("could not tell whose it was and declined it")

type (
	partyKey struct{}
	markKey  struct{}
	tieKey   struct{}
)

// WithParty returns ctx naming party as the caller of the requests made
// under it. party must be comparable (a pointer, a string, a struct of
// them); nil, or a party that is not comparable, names none.
func WithParty(ctx context.Context, party any) context.Context {
	if party == nil || !reflect.TypeOf(party).Comparable() {
		party = nil
	}
	return context.WithValue(ctx, partyKey{}, party)
}

// PartyOf is the party ctx names (WithParty), or nil.
func PartyOf(ctx context.Context) any {
	return ctx.Value(partyKey{})
}

// anonymous is the party of a call whose context names none: its own.
// Not of size zero: two of those may share an address.
type anonymous struct{ _ byte }

// mark names a request running on server for party; a question whose
// context carries it is that party's. parent is the mark of the request
// this one runs within (an in-process server calling another).
type mark struct {
	server string
	party  any
	parent *mark
}

// tie is a question's party, decided once (Tying).
type tie struct {
	server string
	party  any
}

// Begin counts a request of ctx's party (WithParty; one of its own when
// ctx names none) on server until done runs, and remembers it for
// TieGrace after: for a request the caller runs upstream without the
// router (a skill read). The returned context names the request: a
// question asked under it is tied to its party. A function, not a
// method: the Router has methods enough.
func Begin(ctx context.Context, r *Router, server string) (context.Context, func()) {
	return begin(ctx, r, server, true)
}

// begin is Begin; lasting says whether the request's end starts
// TieGrace (a tool call's does: a server may go on with its work and ask
// later; a read's does not).
func begin(ctx context.Context, r *Router, server string, lasting bool) (context.Context, func()) {
	party := PartyOf(ctx)
	if party == nil {
		party = &anonymous{}
		ctx = context.WithValue(ctx, partyKey{}, party)
	}
	parent, _ := ctx.Value(markKey{}).(*mark)
	ctx = context.WithValue(ctx, markKey{}, &mark{server: server, party: party, parent: parent})
	r.parties.start(server, party)
	var once sync.Once
	return ctx, func() { once.Do(func() { r.parties.end(server, party, lasting) }) }
}

// TiedTo returns the party a question of server asked under ctx belongs
// to, when ctx says: the tie Tying made (nil when nothing ran on the
// server), or the mark of the call it was asked within. ok is false when
// ctx says nothing about server.
func TiedTo(ctx context.Context, server string) (party any, ok bool) {
	if t, is := ctx.Value(tieKey{}).(tie); is && t.server == server {
		return t.party, true
	}
	for m, _ := ctx.Value(markKey{}).(*mark); m != nil; m = m.parent {
		if m.server == server {
			return m.party, true
		}
	}
	return nil, false
}

// WithTie returns ctx carrying party as the tie of server's question, for
// a handler called without Tying (tests; nil: outside any call).
func WithTie(ctx context.Context, server string, party any) context.Context {
	return context.WithValue(ctx, tieKey{}, tie{server: server, party: party})
}

// Tie returns the party a question of server, asked under ctx, belongs
// to (see the rule above): nil when nothing runs on the server, and an
// error wrapping ErrNotTied when it cannot be told. A function, not a
// method: the Router has methods enough.
func Tie(ctx context.Context, r *Router, server string) (party any, err error) {
	if party, ok := TiedTo(ctx, server); ok {
		return party, nil
	}
	return r.parties.tie(server)
}

// parties are the requests running on each server, by party, and when
// each party's last lasting request there ended.
type parties struct {
	mu      sync.Mutex
	running map[string]map[any]int
	ended   map[string]map[any]time.Time
}

func (p *parties) start(server string, party any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running == nil {
		p.running, p.ended = map[string]map[any]int{}, map[string]map[any]time.Time{}
	}
	if p.running[server] == nil {
		p.running[server] = map[any]int{}
	}
	p.running[server][party]++
}

func (p *parties) end(server string, party any, lasting bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running[server][party]--; p.running[server][party] <= 0 {
		delete(p.running[server], party)
		if len(p.running[server]) == 0 {
			delete(p.running, server)
		}
	}
	now := time.Now()
	for q, at := range p.ended[server] { // forget what is past the grace
		if now.Sub(at) >= TieGrace {
			delete(p.ended[server], q)
		}
	}
	if lasting && TieGrace > 0 {
		if p.ended[server] == nil {
			p.ended[server] = map[any]time.Time{}
		}
		p.ended[server][party] = now
	}
	if len(p.ended[server]) == 0 {
		delete(p.ended, server)
	}
}

// tie is the rule for a question that names no call. Its errors go on
// the sentence "SERVER asked a question (elicitation) ", and say what to
// do.
func (p *parties) tie(server string) (any, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	running := p.running[server]
	if len(running) > 1 {
		return nil, fmt.Errorf("while calls from more than one app or chat were running on it, so Switchboard %w; call the tool again when nothing else is using %s", ErrNotTied, server)
	}
	var one any
	for q := range running {
		one = q
	}
	if one == nil {
		return nil, nil
	}
	now := time.Now()
	for q, at := range p.ended[server] {
		if q != one && now.Sub(at) < TieGrace && !(attended(q) && attended(one)) {
			since := now.Sub(at)
			return nil, fmt.Errorf("%s after a call of another app or chat there ended, so Switchboard %w (it may have been that call's); call the tool again in %d seconds, or when nothing else is using %s",
				since.Round(100*time.Millisecond), ErrNotTied, int(math.Ceil((TieGrace - since).Seconds())), server)
		}
	}
	return one, nil
}

// Asker answers a server's questions: mcpmanager.RequestHandler's
// methods (the manager's handler is one).
type Asker interface {
	CreateMessage(ctx context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error)
	Elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error)
}

// Tying is h behind Tie: each question reaches h with its party in the
// context (TiedTo), or, when it cannot be tied to one, is refused with an
// error wrapping ErrNotTied (the server gets a JSON-RPC error) and never
// reaches h. nil for a nil h.
//
// It is also where a question's secrets are masked (Options.Redact), as
// it enters, before any door sees it: a sampling request's system prompt
// and messages, which go to a model provider and onto a card, and an
// elicitation's message and form schema, shown in the window or relayed
// to a client of serve. A server that put another server's keyring value
// (or its own) in a question would otherwise hand it to all of them.
func Tying(r *Router, h Asker) Asker {
	if h == nil {
		return nil
	}
	return tying{r: r, h: h}
}

type tying struct {
	r *Router
	h Asker
}

func (t tying) CreateMessage(ctx context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	ctx, err := tied(ctx, t.r, server, "asked to use a model (sampling)")
	if err != nil {
		return nil, err
	}
	return t.h.CreateMessage(ctx, server, redactSampling(t.r.redact, req))
}

func (t tying) Elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	ctx, err := tied(ctx, t.r, server, "asked a question (elicitation)")
	if err != nil {
		return nil, err
	}
	return t.h.Elicit(ctx, server, redactElicitation(t.r.redact, req))
}

// tied is ctx carrying the tie of server's question, or why it has none.
func tied(ctx context.Context, r *Router, server, what string) (context.Context, error) {
	party, err := Tie(ctx, r, server)
	if err != nil {
		return nil, fmt.Errorf("%s %s %w", server, what, err)
	}
	return WithTie(ctx, server, party), nil
}

// attended reports whether party is an Attended one.
func attended(party any) bool {
	_, ok := party.(Attended)
	return ok
}
