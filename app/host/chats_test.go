package host

import (
	"errors"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
)

func TestTurnSetupMergesTheAgent(t *testing.T) {
	s := chatSettings(t, `{"chat":{"system":"base","maxSteps":5,"policies":{"a__*":"allow"},
		"agents":[{"id":"ag1","name":"Reviewer","system":"review","servers":["b"],"policies":{"b__*":"deny"},"delegate":true}]}}`)
	plain := TurnSetup(s, nil, "", nil)
	if plain.System != "base" || plain.MaxSteps != 5 || plain.Policies["a__*"] != "allow" || plain.Delegate {
		t.Fatalf("without agent: %+v", plain)
	}
	ag, err := s.Agent("ag1")
	if err != nil {
		t.Fatal(err)
	}
	withAgent := TurnSetup(s, &ag, "", nil)
	if withAgent.System != "review" || !withAgent.Delegate || withAgent.Policies["b__*"] != "deny" || withAgent.Policies["a__*"] != "allow" {
		t.Fatalf("with agent: %+v", withAgent)
	}
	if given := TurnSetup(s, &ag, "flag", nil); given.System != "flag" {
		t.Fatalf("a given system prompt wins: %q", given.System)
	}
}

func TestTitle(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  hello\nsecond line", "hello"},
		{strings.Repeat("é", 61), strings.Repeat("é", 60) + "…"},
		{strings.Repeat("a", 60), strings.Repeat("a", 60)},
	}
	for _, tt := range tests {
		if got := Title(tt.in); got != tt.want {
			t.Errorf("Title(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestRequestsFollowTheSavedSettings: what SetSampling saves is what the
// next sampling request of either door is decided by (Chats.requests reads
// it each time), and a bad setting is refused. (Whose call a request came
// from is the router's: TestQuestionsStayWithTheirCaller.)
func TestRequestsFollowTheSavedSettings(t *testing.T) {
	h := open(t)
	q := h.Chats.requests(&chat.Requests{})
	if got := q.Sampling(); got != (chat.SamplingSettings{}) {
		t.Fatalf("defaults: %+v", got)
	}
	if err := h.Settings.SetSampling(Sampling{Mode: "sometimes"}); err == nil {
		t.Fatal("a bad mode was saved")
	}
	want := chat.SamplingSettings{Mode: chat.SamplingAllow, PerChat: 2, PerMinute: 4, OutsideCalls: true}
	if err := h.Settings.SetSampling(Sampling(want)); err != nil {
		t.Fatal(err)
	}
	if got := q.Sampling(); got != want {
		t.Fatalf("after saving: %+v; want %+v", got, want)
	}
}

// TestChatsCreateTitlesAndDefaultsOneWay: a chat created through the host
// (as both doors create them) gets the default provider's default model
// and its first message's first line as title, an agent's chat too (the
// list shows its agent beside it: named after the agent, all its chats
// had one title); a chat created empty is titled by its first message
// when its turn begins, and keeps that title after. The history is the
// host's own, opened once and closed by Close.
func TestChatsCreateTitlesAndDefaultsOneWay(t *testing.T) {
	h := open(t)
	ctx := t.Context()
	s := chatSettings(t, `{"chat":{"defaultProvider":"Home","providers":[
		{"name":"Other","kind":"ollama","baseUrl":"http://127.0.0.1:1","defaultModel":"other-model"},
		{"name":"Home","kind":"ollama","baseUrl":"http://127.0.0.1:1","defaultModel":"home-model"}],
		"agents":[{"id":"ag1","name":"Reviewer","provider":"Other"}]}}`)

	c, err := h.Chats.Create(ctx, s, NewChat{Text: "  Plan the trip\nwith details"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Title != "Plan the trip" || c.Provider != "Home" || c.Model != "home-model" {
		t.Fatalf("created with a first message: %+v", c)
	}

	ag, err := s.Agent("ag1")
	if err != nil {
		t.Fatal(err)
	}
	a, err := h.Chats.Create(ctx, s, NewChat{Provider: ag.Provider, Agent: &ag, Text: "Review this"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Title != "Review this" || a.Agent != "ag1" || a.Provider != "Other" || a.Model != "other-model" {
		t.Fatalf("an agent's chat: %+v", a)
	}
	emptyAgent, err := h.Chats.Create(ctx, s, NewChat{Provider: ag.Provider, Agent: &ag})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := h.Chats.Begin(ctx, s, emptyAgent.ID, "Look at the diff"); err != nil || st.Chat.Title != "Look at the diff" {
		t.Fatalf("an agent's chat begun: %+v, %v", st.Chat, err)
	} else {
		st.End()
	}

	empty, err := h.Chats.Create(ctx, s, NewChat{})
	if err != nil {
		t.Fatal(err)
	}
	if empty.Title != "" || empty.Model != "home-model" {
		t.Fatalf("an empty chat: %+v", empty)
	}
	st, err := h.Chats.Begin(ctx, s, empty.ID, "Second try\nmore")
	if err != nil {
		t.Fatal(err)
	}
	if st.Chat.Title != "Second try" || st.Model.Name != "home-model" {
		t.Fatalf("begun: %+v, model %q", st.Chat, st.Model.Name)
	}
	if _, err := h.Chats.Begin(ctx, s, empty.ID, "again"); err != nil {
		t.Fatal(err) // no engine turn runs: Begin only tracks it
	}
	h.Chats.Stop(empty.ID)
	if st.Ctx.Err() != nil {
		t.Fatal("Stop cancelled the earlier turn, which a later one replaced")
	}
	st.End()
	if got, err := h.Chats.Get(ctx, empty.ID); err != nil || got.Title != "Second try" {
		t.Fatalf("stored: %+v, %v", got, err)
	}

	if err := h.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Chats.List(ctx, 10, 0); !errors.Is(err, ErrHistoryClosed) {
		t.Fatalf("history after Close: %v", err)
	}
}

// A chat whose agent names a provider that is gone fails to begin with an
// error naming the agent and where to fix it; a chat that chose another
// provider since is not blamed on the agent.
func TestBeginNamesTheAgentOfAMissingProvider(t *testing.T) {
	h := open(t)
	ctx := t.Context()
	s := chatSettings(t, `{"chat":{"providers":[{"name":"Home","kind":"ollama","baseUrl":"http://127.0.0.1:1","defaultModel":"m"}],
		"agents":[{"id":"g1","name":"Ghost","provider":"Removed","model":"gone"}]}}`)
	ag, err := s.Agent("g1")
	if err != nil {
		t.Fatal(err)
	}
	c, err := h.Chats.Create(ctx, s, NewChat{Provider: ag.Provider, Model: ag.Model, Agent: &ag})
	if err != nil {
		t.Fatal(err)
	}
	_, err = h.Chats.Begin(ctx, s, c.ID, "hi")
	var ape *AgentProviderError
	if !errors.As(err, &ape) || !errors.Is(err, chat.ErrUnknownProvider) || !strings.Contains(err.Error(), `agent "Ghost" uses the provider "Removed"`) ||
		!strings.Contains(err.Error(), "agents edit Ghost --provider") {
		t.Fatalf("err = %v", err)
	}
	if err := ForAgent(&ag, "Other", chat.ErrUnknownProvider); errors.As(err, &ape) {
		t.Fatalf("another provider's error was blamed on the agent: %v", err)
	}
}
