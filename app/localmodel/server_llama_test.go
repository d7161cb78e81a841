//go:build llama

// Tests with the real runtime: llama-server built by build/llama/build.sh
// and a small model with random weights written at test time. Run through
// make (it builds the runtime once and sets the two variables):
//
//	make test-llama
package localmodel_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/app/localmodel"
	"github.com/switchboard-app/switchboard/app/localmodel/testmodel"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// runtimeFor starts llama-server on a tiny test model.
func runtimeFor(t *testing.T) (*localmodel.Server, string) {
	t.Helper()
	return runtimeAt(t, os.Getenv("SWITCHBOARD_LLAMA_SERVER"))
}

// runtimeAt starts the llama-server bin on a tiny test model.
func runtimeAt(t *testing.T, bin string) (*localmodel.Server, string) {
	t.Helper()
	src := os.Getenv("SWITCHBOARD_LLAMA_SRC")
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
	t.Cleanup(func() {
		_ = s.Close(context.Background())
		if t.Failed() { // what llama-server said, for the failure
			out, _ := os.ReadFile(log)
			t.Logf("llama-server's log (end):\n%s", out[max(0, len(out)-6000):])
		}
	})
	return s, log
}

// ask streams one answer from the server through the app's own
// OpenAI-compatible provider.
func ask(t *testing.T, s *localmodel.Server) provider.Response {
	t.Helper()
	p, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "On this computer", BaseURL: s.BaseURL(), APIKey: s.APIKey(), HTTPClient: s.HTTPClient()})
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
	if len(s.APIKey()) != 32 {
		t.Fatalf("a key of %d characters", len(s.APIKey()))
	}
	ask(t, s)
	// Without the key the server refuses.
	p, _ := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "x", BaseURL: s.BaseURL(), APIKey: "wrong", HTTPClient: s.HTTPClient()})
	if _, err := p.Stream(t.Context(), provider.Request{Model: s.Model(), MaxTokens: 4, Messages: []provider.Message{{Role: provider.RoleUser, Text: "hi"}}}, func(provider.Event) {}); err == nil {
		t.Fatal("a request with the wrong key was answered")
	}
}

// Thinking is off: Qwen3's template then writes an empty think block
// into the prompt, so the model answers at once.
func TestRuntimeDoesNotThink(t *testing.T) {
	s, _ := runtimeFor(t)
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, strings.TrimSuffix(s.BaseURL(), "/v1")+"/apply-template",
		strings.NewReader(`{"messages":[{"role":"user","content":"hi"}]}`))
	req.Header.Set("Authorization", "Bearer "+s.APIKey())
	res, err := s.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct{ Prompt string }
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || !strings.Contains(out.Prompt, "<think>\n\n</think>") {
		t.Fatalf("prompt %q (%v): no empty think block, so the model would think first", out.Prompt, err)
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
	ask(t, s)
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

// prefilled makes a model's next answer a call of tool: it ends the
// request with the start of the assistant's answer, the whole call in
// Qwen3's <tool_call> format, so llama-server's grammar and parser take
// it as the model's (random weights never choose a tool themselves, and
// tool_choice "required" alone does not force one in this llama.cpp).
type prefilled struct {
	provider.Provider
	call string
	done bool
}

func (p *prefilled) Stream(ctx context.Context, req provider.Request, on func(provider.Event)) (provider.Response, error) {
	if !p.done {
		p.done = true
		// Required: the grammar then holds from the prefill on (with
		// "auto" it starts only at a <tool_call> the model writes).
		req.MaxTokens, req.ToolChoice = 1, provider.ToolChoiceRequired
		req.Messages = append(req.Messages, provider.Message{Role: provider.RoleAssistant, Text: "<tool_call>\n" + p.call + "\n</tool_call>"})
	} else {
		// The answer after the call: random text, which the tool-call
		// parser would refuse as a broken call; asked without tools.
		req.MaxTokens, req.Tools = 8, nil
	}
	return p.Provider.Stream(ctx, req, on)
}

// TestRuntimeToolCallRunsAgainstAnMCPServer: a tool call the local model
// makes comes back from llama-server as an OpenAI tool_calls object, and
// the chat engine runs it against a real MCP server.
func TestRuntimeToolCallRunsAgainstAnMCPServer(t *testing.T) {
	s, _ := runtimeFor(t)
	srv := server.NewMCPServer("notes", "1.0.0")
	var got atomic.Value
	srv.AddTool(mcp.NewTool("echo", mcp.WithDescription("Echo a message back."), mcp.WithString("message", mcp.Required()), mcp.WithReadOnlyHintAnnotation(true)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			got.Store(req.GetString("message", ""))
			return mcp.NewToolResultText("echo: " + req.GetString("message", "")), nil
		})
	reg := router.New(router.Options{})
	reg.Add(source{mcptest.Connect(t, srv)})

	hist, err := history.Open(t.Context(), filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hist.Close() })
	row, err := hist.CreateChat(t.Context(), history.Chat{Title: "local"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "On this computer", BaseURL: s.BaseURL(), APIKey: s.APIKey(), HTTPClient: s.HTTPClient()})
	if err != nil {
		t.Fatal(err)
	}
	eng := chat.New(chat.Options{Tools: reg, History: hist, Approver: chat.ApproveAll{}})
	res, err := eng.Send(t.Context(), chat.Turn{ChatID: row.ID, Provider: &prefilled{Provider: p, call: `{"name": "notes__echo", "arguments": {"message": "hi from the box"}}`},
		Model: s.Model(), Text: "Echo something.", ContextWindow: 2048, OnEvent: func(chat.Event) {}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ToolCalls) != 1 || res.ToolCalls[0].Tool != "notes__echo" || res.ToolCalls[0].IsError || got.Load() != "hi from the box" {
		t.Fatalf("tool calls %+v, the server got %v", res.ToolCalls, got.Load())
	}
	if !strings.Contains(string(res.ToolCalls[0].Result), "echo: hi from the box") || res.Steps != 2 {
		t.Fatalf("result %s after %d steps", res.ToolCalls[0].Result, res.Steps)
	}
}

type source struct{ cl *client.Client }

func (s source) Name() string                   { return "notes" }
func (s source) Client() (router.Client, error) { return s.cl, nil }
func (s source) CallTimeout() time.Duration     { return 0 }

// A file llama.cpp cannot load (a broken download, a GGUF of an
// architecture it does not know) fails the start at once, saying where
// the log is; it is not restarted for ever.
func TestRuntimeRefusesABrokenModel(t *testing.T) {
	bin := os.Getenv("SWITCHBOARD_LLAMA_SERVER")
	dir := t.TempDir()
	model := filepath.Join(dir, "broken.gguf")
	if err := os.WriteFile(model, []byte("GGUF this is not a model"), 0o600); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "llama-server.log")
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	s, err := localmodel.Start(ctx, localmodel.Options{Binary: bin, Model: model, LogPath: log})
	if err == nil {
		s.Close(context.Background())
		t.Fatal("a broken model started")
	}
	if ctx.Err() != nil || !strings.Contains(err.Error(), "did not load the model") || !strings.Contains(err.Error(), log) {
		t.Fatalf("err = %v (context: %v)", err, ctx.Err())
	}
}
