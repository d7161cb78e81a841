package host

import (
	"errors"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
)

func TestAddAndRemoveRules(t *testing.T) {
	h := open(t)
	r, err := h.Settings.AddRule(chat.Rule{Tool: "workspace__execute_shell", Effect: chat.PolicyAllow, Match: []chat.Match{{Path: "command", Glob: "git status*"}}})
	if err != nil || r.ID == "" {
		t.Fatalf("AddRule = %+v, %v", r, err)
	}
	if _, err := h.Settings.AddRule(chat.Rule{Tool: "a__b", Effect: chat.PolicyDeny, Match: []chat.Match{{Path: "command", Regex: "("}}}); !errors.Is(err, chat.ErrBadRule) {
		t.Fatalf("a bad pattern was saved: %v", err)
	}
	s, err := h.Settings.Chat()
	if err != nil || len(s.Rules) != 1 || s.Rules[0].ID != r.ID {
		t.Fatalf("saved rules = %+v, %v", s.Rules, err)
	}
	if turn := TurnSetup(s, nil, "", nil); len(turn.Rules) != 1 {
		t.Fatalf("the turn does not get the rules: %+v", turn.Rules)
	}
	if err := h.Settings.RemoveRule(r.ID); err != nil {
		t.Fatal(err)
	}
	if err := h.Settings.RemoveRule(r.ID); err == nil {
		t.Fatal("removing a removed rule succeeded")
	}
	if s, _ := h.Settings.Chat(); len(s.Rules) != 0 {
		t.Fatalf("rules after remove = %+v", s.Rules)
	}
}
