package host

import (
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
// next sampling request of either door is decided by (Chats.Requests reads
// it each time), a bad setting is refused, and a call of the Tools page or
// an MCP App counts as the server's call while it runs.
func TestRequestsFollowTheSavedSettings(t *testing.T) {
	h := open(t)
	q := h.Chats.Requests(&chat.Requests{})
	if got := q.Sampling(); got != (chat.SamplingSettings{}) {
		t.Fatalf("defaults: %+v", got)
	}
	if err := h.Settings.SetSampling(chat.SamplingSettings{Mode: "sometimes"}); err == nil {
		t.Fatal("a bad mode was saved")
	}
	want := chat.SamplingSettings{Mode: chat.SamplingAllow, PerChat: 2, PerMinute: 4, OutsideCalls: true}
	if err := h.Settings.SetSampling(want); err != nil {
		t.Fatal(err)
	}
	if got := q.Sampling(); got != want {
		t.Fatalf("after saving: %+v; want %+v", got, want)
	}

	if q.InCall("maps") {
		t.Fatal("a call before any ran")
	}
	end := h.calls.begin("maps")
	end2 := h.calls.begin("maps")
	end()
	if !q.InCall("maps") || q.InCall("weather") {
		t.Fatal("the running call is not seen, or seen for another server")
	}
	end2()
	if q.InCall("maps") {
		t.Fatal("a finished call still counts")
	}
}
