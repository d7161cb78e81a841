package host

import (
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
)

func TestSetLongChats(t *testing.T) {
	h := open(t)
	if err := h.Settings.EditChat(func(s *chat.Settings) error {
		s.Providers = []chat.ProviderSettings{{Name: "Ollama", Kind: provider.KindOllama, DefaultModel: "qwen3:8b"}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		at, share, keep int
		budgets, models []string
		want            string
	}{
		{5, 15, 4, nil, nil, "choose 10 to 95"},
		{80, 60, 4, nil, nil, "choose 1 to 50"},
		{80, 15, 0, nil, nil, "choose 1 to 64 MB"},
		{80, 15, 65, nil, nil, "choose 1 to 64 MB"},
		{80, 15, 4, []string{"readfile=4000"}, nil, `line 1 "readfile=4000": write server__tool=characters`},
		{80, 15, 4, nil, []string{"", "qwen3:8b=32768"}, `line 2 "qwen3:8b=32768": write provider/model=tokens`},
		{80, 15, 4, nil, []string{"LM Studio/qwen=8192"}, `there is no provider "LM Studio"`},
		{80, 15, 4, nil, []string{"Ollama/qwen3:8b=lots"}, "write provider/model=tokens"},
	} {
		err := h.Settings.SetLongChats(bad.at, bad.share, bad.keep, bad.budgets, bad.models)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Fatalf("SetLongChats(%v) = %v, want %q", bad, err, bad.want)
		}
	}
	if err := h.Settings.SetLongChats(70, 10, 2, []string{"files__read=6_000", " "}, []string{"ollama/qwen3:8b = 32768"}); err != nil {
		t.Fatal(err)
	}
	s, err := h.Settings.Chat()
	if err != nil {
		t.Fatal(err)
	}
	if s.CompactAt != 70 || s.ResultShare != 10 || s.KeepMB != 2 || s.ResultBudgets["files__read"] != 6000 || s.Providers[0].ContextWindows["qwen3:8b"] != 32768 {
		t.Fatalf("saved %+v", s)
	}
	// The override wins over the provider's list, which is not asked.
	if w := h.Chats.ContextWindow(t.Context(), s, "Ollama", ""); w != 32768 {
		t.Fatalf("window %d, want the override", w)
	}
	tu := TurnSetup(s, nil, "", nil)
	if tu.CompactAt != 70 || tu.ResultShare != 10 || tu.KeepLimit != 2<<20 || tu.ResultBudgetFor["files__read"] != 6000 {
		t.Fatalf("turn %+v", tu)
	}
	budgets, windows := LongChatLines(s)
	if !slices.Equal(budgets, []string{"files__read=6000"}) || !slices.Equal(windows, []string{"Ollama/qwen3:8b=32768"}) {
		t.Fatalf("lines %q %q", budgets, windows)
	}
}
