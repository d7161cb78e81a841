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

// A chat whose model is not here (removed since, or never downloaded)
// says what to do in words for both front doors, without a raw provider
// error, and its context window is not "assumed"; Settings no longer shows
// a removed model as the one that starts next, nor its numbers.
func TestLocalModelMissingSaysWhatToDo(t *testing.T) {
	h := open(t)
	e := testCatalog(t, ggufBytes(t, "tiny"))
	// A runtime that refuses the model as llama.cpp does a file cut short.
	bin := filepath.Join(t.TempDir(), "llama-server")
	script := "#!/bin/sh\necho \"0.00.651.650 E llama_model_load: error loading model: tensor 'w' data is not within the file bounds, model is corrupted or incomplete\" >&2\nexit 1\n"
	if err := os.WriteFile(bin, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SWITCHBOARD_LLAMA_SERVER", bin)
	if err := os.MkdirAll(h.dir.Models(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(h.dir.Models(), e.File), ggufBytes(t, "tiny"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := h.Settings.SaveProvider(chat.ProviderSettings{Name: "On this computer", Kind: chat.KindLocal, DefaultModel: "tiny"}, ""); err != nil {
		t.Fatal(err)
	}
	s, _ := h.Settings.Chat()
	m, _, err := h.Chats.Model(s, "", "")
	if err != nil {
		t.Fatal(err)
	}
	ask := func() error {
		_, err := m.Provider.Stream(t.Context(), provider.Request{Model: m.Name, Messages: []provider.Message{{Role: provider.RoleUser, Text: "hi"}}}, func(provider.Event) {})
		return err
	}

	// It does not start: why, in words, and the log's path once.
	err = ask()
	if se, ok := errors.AsType[*LocalStartError](err); !ok || !strings.Contains(err.Error(), "The model on this computer (tiny) could not start: llama-server did not load the model: the model file is cut short") ||
		strings.Count(err.Error(), h.Local.LogPath()) != 1 || strings.Contains(err.Error(), "exit status") || strings.Contains(err.Error(), `provider "`) {
		t.Fatalf("a model that does not start: %v (%T %v)", err, err, se)
	}
	if st := h.Local.Status(); st.State != "failed" || st.Model != "tiny" || strings.Contains(st.Err, st.LogPath) || !strings.Contains(st.Err, "cut short") {
		t.Fatalf("status after the failed start: %+v; want failed, saying why without the log's path (Settings shows it beside)", st)
	}

	// Removed: the status forgets it, and a chat asking for it says what to do.
	if err := h.Models.Remove("tiny"); err != nil {
		t.Fatal(err)
	}
	if st := h.Local.Status(); st.State != "stopped" || st.Model != "" || st.Context != 0 || st.Err != "" {
		t.Fatalf("status after the model was removed: %+v", st)
	}
	err = ask()
	if !errors.Is(err, ErrModelNotInstalled) || strings.Contains(err.Error(), `provider "`) ||
		!strings.Contains(err.Error(), "Tiny (tiny) is not on this computer: download it in Settings → Models or with 'switchboard models download tiny'") {
		t.Fatalf("err = %v", err)
	}
	if w := h.Chats.ContextWindow(t.Context(), s, "", "tiny"); w == 0 {
		t.Fatal("the missing model's window is 0: the chat would say it assumed one before saying the model is missing")
	}
}
