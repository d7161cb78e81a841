//go:build llama

// Tests with the real runtime: llama-server built by build/llama/build.sh
// and a small model with random weights written at test time. Run through
// make (it builds the runtime once and sets the two variables):
//
//	make test-llama
package localmodel_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/localmodel"
	"github.com/switchboard-app/switchboard/app/localmodel/testmodel"
)

// runtimeFor starts llama-server on a tiny test model.
func runtimeFor(t *testing.T) (*localmodel.Server, string) {
	t.Helper()
	bin, src := os.Getenv("SWITCHBOARD_LLAMA_SERVER"), os.Getenv("SWITCHBOARD_LLAMA_SRC")
	if bin == "" || src == "" {
		t.Fatal("SWITCHBOARD_LLAMA_SERVER and SWITCHBOARD_LLAMA_SRC must be set: run 'make test-llama'")
	}
	dir := t.TempDir()
	model := filepath.Join(dir, "tiny.gguf")
	if err := testmodel.Write(model, src, testmodel.Tiny, 1); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "llama-server.log")
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	s, err := localmodel.Start(ctx, localmodel.Options{Binary: bin, Model: model, Alias: "tiny", Context: 2048, Threads: 2, LogPath: log})
	if err != nil {
		out, _ := os.ReadFile(log)
		t.Fatalf("start: %v\n%s", err, out)
	}
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	return s, log
}

// chat streams one answer from the server through the app's own
// OpenAI-compatible provider.
func chat(t *testing.T, s *localmodel.Server) provider.Response {
	t.Helper()
	p, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "On this computer", BaseURL: s.BaseURL(), APIKey: s.APIKey()})
	if err != nil {
		t.Fatal(err)
	}
	max := 16
	var pieces int
	resp, err := p.Stream(t.Context(), provider.Request{Model: s.Model(), MaxTokens: max,
		Messages: []provider.Message{{Role: provider.RoleUser, Text: "Say hello."}}}, func(ev provider.Event) {
		if ev.Kind == provider.EventText {
			pieces++
		}
	})
	if err != nil {
		t.Fatalf("chat: %v", err)
	}
	if pieces == 0 || resp.Usage.OutputTokens == 0 || resp.Usage.InputTokens < 5 {
		t.Fatalf("no streamed answer: %d pieces, usage %+v, text %q", pieces, resp.Usage, resp.Text)
	}
	return resp
}

func TestRuntimeAnswersAStreamedChat(t *testing.T) {
	s, _ := runtimeFor(t)
	if !strings.HasPrefix(s.BaseURL(), "http://127.0.0.1:") || len(s.APIKey()) != 32 {
		t.Fatalf("base URL %s, key of %d characters", s.BaseURL(), len(s.APIKey()))
	}
	chat(t, s)
	// Without the key the server refuses.
	p, _ := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "x", BaseURL: s.BaseURL(), APIKey: "wrong"})
	if _, err := p.Stream(t.Context(), provider.Request{Model: s.Model(), MaxTokens: 4, Messages: []provider.Message{{Role: provider.RoleUser, Text: "hi"}}}, func(provider.Event) {}); err == nil {
		t.Fatal("a request with the wrong key was answered")
	}
}

func TestRuntimeCrashIsRestarted(t *testing.T) {
	localmodel.RestartBackoff = 50 * time.Millisecond
	s, _ := runtimeFor(t)
	pid := s.Status().PID
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		st := s.Status()
		if st.State == localmodel.Ready && st.PID != pid && st.Restarts == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not restarted: %+v", st)
		}
		time.Sleep(50 * time.Millisecond) // polling the status, not waiting for a guess
	}
	chat(t, s)
	second := s.Status().PID
	if err := s.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if st := s.Status(); st.State != localmodel.Stopped {
		t.Fatalf("after Close: %+v", st)
	}
	if syscall.Kill(second, 0) == nil {
		t.Fatal("the process outlived Close")
	}
}
