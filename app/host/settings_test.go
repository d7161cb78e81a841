package host

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// A malformed settings section is reported with its JSON path by the use
// case that reads it (it used to be ignored: the defaults ran silently),
// and saving the section rewrites it.
func TestMalformedSettingsSectionsAreReported(t *testing.T) {
	h := open(t)
	bad := `{"mcpServers": {}, "settings": {
		"tasks": {"limitMinutes": "ten"},
		"servers": {"downloadTimeoutSeconds": "slow"},
		"chat": {"maxSteps": "many"},
		"library": {"profile": 7},
		"secrets": "gh_TOKEN"
	}}`
	if err := os.WriteFile(h.Dir().Config(), []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		read func() error
		path string
	}{
		{"tasks", func() error { _, err := h.Tasks.Policy(); return err }, "settings.tasks.limitMinutes"},
		{"downloads", func() error { _, err := h.Fetch.Timeout(); return err }, "settings.servers.downloadTimeoutSeconds"},
		{"chat", func() error { _, err := h.Settings.Chat(); return err }, "settings.chat.maxSteps"},
		{"profiles", func() error { _, _, err := h.Library.Profiles(); return err }, "settings.library.profile"},
		{"secrets index", func() error { return h.Secrets.Set("x", "y") }, "settings.secrets"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.read()
			var ve *config.ValidationError
			if !errors.As(err, &ve) || !errors.Is(err, config.ErrSettings) || ve.Problems[0].Path != tt.path {
				t.Fatalf("err = %v, want a problem at %s", err, tt.path)
			}
			if !strings.Contains(err.Error(), "fix or remove it") {
				t.Errorf("err = %q: it should say what to do", err)
			}
		})
	}
	// Saving a section from Settings replaces the malformed one.
	if err := h.Tasks.SetPolicy(TaskPolicy{Optional: true, Limit: time.Hour}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Tasks.Policy(); err != nil {
		t.Errorf("after saving: %v", err)
	}
}

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
		err := h.Settings.SetLongChats(LongChats{CompactAt: bad.at, ResultShare: bad.share, KeepMB: bad.keep, Budgets: bad.budgets, Windows: bad.models})
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Fatalf("SetLongChats(%v) = %v, want %q", bad, err, bad.want)
		}
	}
	if err := h.Settings.SetLongChats(LongChats{CompactAt: 70, ResultShare: 10, KeepMB: 2, Budgets: []string{"files__read=6_000", " "}, Windows: []string{"ollama/qwen3:8b = 32768"}}); err != nil {
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

// The welcome page offers a chat model first, never an embedding model the
// alphabet puts ahead of it.
func TestDefaultChatModel(t *testing.T) {
	for _, c := range []struct {
		models []string
		want   string
	}{
		{[]string{"all-minilm-embed", "llama3.2:1b", "qwen2.5:7b"}, "llama3.2:1b"},
		{[]string{"nomic-embed-text:latest", "text-embedding-3-small", "mistral:7b"}, "mistral:7b"},
		{[]string{"Nomic-Embed-Text"}, "Nomic-Embed-Text"},
		{[]string{"qwen2.5-7b-instruct"}, "qwen2.5-7b-instruct"},
		{nil, ""},
	} {
		if got := DefaultChatModel(c.models); got != c.want {
			t.Errorf("%v: %q, want %q", c.models, got, c.want)
		}
	}
}
