package host

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/localmodel/gguf"
	"github.com/switchboard-app/switchboard/app/localmodel/testmodel"
)

// writeModelMeta writes a GGUF with Qwen3-0.6B's attention shape and no
// weights, chosen as a model file: enough for the plan, not to run.
func writeModelMeta(t *testing.T, h *Host, name string) string {
	t.Helper()
	f := &gguf.File{}
	f.Set("general.architecture", gguf.TypeString, "qwen3")
	for k, v := range map[string]uint32{"block_count": 28, "context_length": 40960, "embedding_length": 1024,
		"attention.head_count": 16, "attention.head_count_kv": 8, "attention.key_length": 128, "attention.value_length": 128} {
		f.Set("qwen3."+k, gguf.TypeUint32, v)
	}
	var b bytes.Buffer
	if err := testmodel.Encode(&b, f); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name+".gguf")
	if err := os.WriteFile(p, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Models.Choose(p); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLocalProviderPlansWithoutStarting(t *testing.T) {
	h := open(t)
	writeModelMeta(t, h, "small") // adds the provider "On this computer"
	// The user's context is what the chat engine is told, and what the
	// model list says; nothing starts.
	if err := h.Local.SetRun(t.Context(), 6000, 1); err != nil {
		t.Fatal(err)
	}
	s, err := h.Settings.Chat()
	if err != nil {
		t.Fatal(err)
	}
	if s.Local.Context != 6000 || s.Local.Threads != 1 {
		t.Fatalf("saved %+v", s.Local)
	}
	if w := h.Chats.ContextWindow(t.Context(), s, "", ""); w != 6000 {
		t.Fatalf("context window = %d, want the set 6000", w)
	}
	ms, err := h.Chats.Models(t.Context(), "On this computer")
	if err != nil || len(ms) != 1 || ms[0].ID != "small" || ms[0].ContextWindow != 6000 {
		t.Fatalf("models = %+v, %v", ms, err)
	}
	m, name, err := h.Chats.Model(s, "", "")
	if err != nil {
		t.Fatal(err)
	}
	turn := h.Chats.Turn(t.Context(), s, TurnRequest{Provider: name, Model: m})
	if turn.SearchAbove != LocalSearchAbove || turn.SearchLimit != LocalSearchLimit {
		t.Fatalf("tool search for a small model: above %d, limit %d", turn.SearchAbove, turn.SearchLimit)
	}
	if st := h.Local.Status(); st.State != "stopped" || st.Model != "" {
		t.Fatalf("status %+v: planning started something", st)
	}
	// The user's own tool search choice is kept.
	if err := h.Settings.EditChat(func(s *chat.Settings) error { s.ToolSearchAbove = -1; return nil }); err != nil {
		t.Fatal(err)
	}
	s, _ = h.Settings.Chat()
	if turn := h.Chats.Turn(t.Context(), s, TurnRequest{Provider: name, Model: m}); turn.SearchAbove != -1 {
		t.Fatalf("search above = %d, want the user's -1", turn.SearchAbove)
	}
}

func TestLocalRunIsChecked(t *testing.T) {
	h := open(t)
	for _, tt := range []struct{ ctx, threads int }{{100, 0}, {0, -1}, {2 << 20, 0}} {
		if err := h.Local.SetRun(t.Context(), tt.ctx, tt.threads); err == nil || !strings.Contains(err.Error(), "choose between") {
			t.Errorf("SetRun(%d, %d) = %v", tt.ctx, tt.threads, err)
		}
	}
}

func TestLocalModelMissingSaysWhatToDo(t *testing.T) {
	h := open(t)
	if err := h.Settings.SaveProvider(chat.ProviderSettings{Name: "On this computer", Kind: chat.KindLocal, DefaultModel: "gone"}, ""); err != nil {
		t.Fatal(err)
	}
	s, _ := h.Settings.Chat()
	m, _, err := h.Chats.Model(s, "", "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Provider.Stream(t.Context(), provider.Request{Model: m.Name, Messages: []provider.Message{{Role: provider.RoleUser, Text: "hi"}}}, func(provider.Event) {})
	if !errors.Is(err, ErrModelNotInstalled) || !strings.Contains(err.Error(), "Settings → Models") {
		t.Fatalf("err = %v", err)
	}
}
