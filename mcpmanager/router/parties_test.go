package router

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestTieRule is the rule for a question of server "up", step by step. A
// question whose context names no call (a stdio server's) is nobody's
// while nothing runs there, the one caller's while only its calls run,
// and refused (ErrNotTied) while two callers' calls run, or within
// TieGrace of another caller's call there ending; a read's end starts no
// grace, nor does a call on another server; a call naming no caller is a
// caller of its own. A question whose context names its call is that
// call's caller's, whatever else runs.
func TestTieRule(t *testing.T) {
	grace := TieGrace
	t.Cleanup(func() { TieGrace = grace })
	TieGrace = time.Hour
	r := New(Options{})
	ctx := t.Context()
	ends := map[string]func(){}
	start := func(name string, party any, server string, lasting bool) func() {
		return func() {
			var done func()
			if party == nil {
				_, done = begin(ctx, r, server, lasting)
			} else {
				_, done = begin(WithParty(ctx, party), r, server, lasting)
			}
			ends[name] = done
		}
	}
	end := func(names ...string) func() {
		return func() {
			for _, n := range names {
				ends[n]()
			}
		}
	}
	var named context.Context // the context of D's call, which its server's question carries
	for _, step := range []struct {
		name    string
		do      func()
		asked   func() context.Context // nil: a question naming no call
		want    any
		wantErr error
	}{
		{name: "nothing runs"},
		{name: "A's read runs", do: start("a-read", "A", "up", false), want: "A"},
		{name: "A's read and two of A's calls run", do: func() { start("a1", "A", "up", true)(); start("a2", "A", "up", true)() }, want: "A"},
		{name: "B calls another server", do: start("b-other", "B", "other", true), want: "A"},
		{name: "B's read runs on it too", do: start("b-read", "B", "up", false), wantErr: ErrNotTied},
		{name: "B's read ended", do: end("b-read", "b-other"), want: "A"},
		{name: "a call naming no caller runs too", do: start("anon", nil, "up", true), wantErr: ErrNotTied},
		{name: "it ended: it ended moments ago", do: end("anon"), wantErr: ErrNotTied},
		{name: "past the grace", do: func() { TieGrace = 0 }, want: "A"},
		{name: "everything of A ended", do: end("a-read", "a1", "a2")},
		{name: "C runs alone", do: func() { TieGrace = time.Hour; start("c", "C", "up", true)() }, want: "C"},
		{name: "C's call ended, D's runs", do: func() { end("c")(); start("d", "D", "up", true)() }, wantErr: ErrNotTied},
		{name: "a question naming D's call while E's runs too",
			do: func() {
				var done func()
				named, done = begin(WithParty(ctx, "D2"), r, "up", true)
				ends["d2"] = done
				start("e", "E", "up", true)()
			},
			asked: func() context.Context { return named }, want: "D2"},
		{name: "Tying's answer is read back", asked: func() context.Context { return WithTie(ctx, "up", "F") }, want: "F"},
		{name: "a tie of another server is not", asked: func() context.Context { return WithTie(ctx, "other", "F") }, wantErr: ErrNotTied},
	} {
		if step.do != nil {
			step.do()
		}
		asked := ctx
		if step.asked != nil {
			asked = step.asked()
		}
		got, err := Tie(asked, r, "up")
		if got != step.want || !errors.Is(err, step.wantErr) || step.wantErr == nil && err != nil {
			t.Errorf("%s: tie = %v, %v; want %v, %v", step.name, got, err, step.want, step.wantErr)
		}
	}
	for _, done := range ends {
		done()
	}
	if len(r.parties.running) != 0 {
		t.Errorf("still running after every end: %v", r.parties.running)
	}
}

// TestTyingRefusesUntied: Tying hands a tied question on with its caller
// in the context, and refuses one it cannot tie without asking anyone.
func TestTyingRefusesUntied(t *testing.T) {
	r := New(Options{})
	h := &heard{}
	asker := Tying(r, h)
	ctx := t.Context()
	_, endA := begin(WithParty(ctx, "A"), r, "up", true)
	if _, err := asker.Elicit(ctx, "up", mcpElicit()); err != nil || h.party != "A" || !h.tied {
		t.Fatalf("while A's call runs: %v; the handler heard %v (tied %v)", err, h.party, h.tied)
	}
	_, endB := begin(WithParty(ctx, "B"), r, "up", true)
	defer endB()
	endA()
	h.party, h.tied = nil, false
	_, err := asker.Elicit(ctx, "up", mcpElicit())
	if !errors.Is(err, ErrNotTied) || h.tied {
		t.Fatalf("after A's call ended while B's runs: %v, the handler heard it: %v", err, h.tied)
	}
	// The words reach the model and the user: whose it was could not be
	// told, and what to do.
	if want := "up asked a question (elicitation) "; !strings.HasPrefix(err.Error(), want) ||
		!strings.Contains(err.Error(), "could not tell whose it was and declined it") || !strings.Contains(err.Error(), "call the tool again in") {
		t.Errorf("refused with %q, want it to start %q and say what to do", err, want)
	}
	_, endC := begin(WithParty(ctx, "C"), r, "up", true)
	defer endC()
	if _, err := asker.Elicit(ctx, "up", mcpElicit()); !errors.Is(err, ErrNotTied) ||
		!strings.Contains(err.Error(), "while calls from more than one app or chat were running on it") || !strings.Contains(err.Error(), "call the tool again when nothing else is using up") {
		t.Errorf("while B's and C's calls run: %v, want it refused saying what to do", err)
	}
	if Tying(r, nil) != nil {
		t.Fatal("Tying of nil is not nil")
	}
}

// heard is an Asker that notes the tie of what it is asked.
type heard struct {
	party any
	tied  bool
}

func (h *heard) CreateMessage(ctx context.Context, server string, _ mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	h.party, h.tied = TiedTo(ctx, server)
	return &mcp.CreateMessageResult{}, nil
}

func (h *heard) Elicit(ctx context.Context, server string, _ mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	h.party, h.tied = TiedTo(ctx, server)
	return &mcp.ElicitationResult{}, nil
}

func mcpElicit() mcp.ElicitationRequest {
	req := mcp.ElicitationRequest{}
	req.Params.Message = "which call?"
	return req
}

// attendedParty is a party asked at Switchboard's own window (a chat).
type attendedParty string

func (attendedParty) Attended() {}

// Between two attended parties (two chats, a chat and the Tools page)
// TieGrace does not apply; between an attended party and an app it does,
// either way round.
func TestTieGraceSparesAttendedParties(t *testing.T) {
	grace := TieGrace
	t.Cleanup(func() { TieGrace = grace })
	TieGrace = time.Hour
	for _, c := range []struct {
		name          string
		before, after any
		wantErr       error
	}{
		{"a chat after another chat", attendedParty("A"), attendedParty("B"), nil},
		{"a chat after an app", "app", attendedParty("B"), ErrNotTied},
		{"an app after a chat", attendedParty("A"), "app", ErrNotTied},
		{"an app after another app", "app1", "app2", ErrNotTied},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := New(Options{})
			ctx := t.Context()
			_, done := begin(WithParty(ctx, c.before), r, "up", true)
			done()
			_, done = begin(WithParty(ctx, c.after), r, "up", true)
			defer done()
			party, err := Tie(ctx, r, "up")
			if !errors.Is(err, c.wantErr) {
				t.Fatalf("Tie: %v, want %v", err, c.wantErr)
			}
			if c.wantErr == nil && party != c.after {
				t.Fatalf("Tie: %v, want %v", party, c.after)
			}
		})
	}
}
