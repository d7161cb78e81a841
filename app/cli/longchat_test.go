package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/app/host"
)

// longChatCLI runs a 25-turn chat, one 'switchboard chat --chat ID' run a
// turn, each turn reading a 6,000-character file with the workspace's
// read_file, against a fake model of kind named on the command line
// (--provider KIND --base-url URL --model small: no Settings), whose model
// list or /api/show tells its window and which refuses a request whose
// JSON is over the window at 4 bytes a token. Every turn must be answered
// with its own answer by a request holding the turn's question and the
// file it read; the requests are returned.
func longChatCLI(t *testing.T, kind provider.Kind, window int) []json.RawMessage {
	t.Helper()
	llm := providertest.NewServer(t)
	llm.SetModelList([]providertest.Model{{ID: "small", ContextWindow: window}})
	llm.Enqueue(providertest.Reply{When: "Write the summary now.", Text: "Notes: the user asks each turn to read notes.txt; every read worked."})
	dir := t.TempDir()
	var notes strings.Builder
	for i := 1; notes.Len() < 6_000; i++ {
		fmt.Fprintf(&notes, "line %03d: the quick brown fox jumps over the lazy dog, note %d\n", i, i)
	}
	root := host.WorkspaceRoot(datadir.Dir(dir))
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "notes.txt"), []byte(notes.String()[:6_000]), 0o644); err != nil {
		t.Fatal(err)
	}
	chatID := ""
	const turns = 25
	for i := 1; i <= turns; i++ {
		answer := fmt.Sprintf("Turn %d: read it.", i)
		llm.Enqueue(
			providertest.Reply{ToolCalls: []providertest.ToolCall{{Name: "workspace__read_file", Arguments: `{"path":"notes.txt"}`}}},
			providertest.Reply{Text: answer},
		)
		question := fmt.Sprintf("Question %d: please read notes.txt", i)
		args := []string{"--provider", string(kind), "--base-url", llm.URL(kind), "--model", "small", "--yes", "--json"}
		if chatID != "" {
			args = append(args, "--chat", chatID)
		}
		code, out, errOut := runChat(t, dir, question+"\n", args...)
		if code != 0 {
			t.Fatalf("turn %d: exit %d: %s", i, code, errOut)
		}
		var res struct{ ChatID, Text, Status string }
		if err := json.Unmarshal([]byte(out), &res); err != nil || res.Status != "complete" || res.Text != answer {
			t.Fatalf("turn %d answered %q, want %q (%v); stderr:\n%s", i, out, answer, err, errOut)
		}
		chatID = res.ChatID
		reqs := llm.Requests()
		last := string(reqs[len(reqs)-1])
		if !strings.Contains(last, question) || !strings.Contains(last, "line 001: the quick brown fox") {
			t.Fatalf("turn %d: the request answered lacks the turn's question or the file it read:\n%.1500s", i, last)
		}
	}
	reqs := llm.Requests()
	summaries := 0
	for i, b := range reqs {
		if n := len(b) / 4; n > window {
			t.Fatalf("request %d took %d tokens, over the %d-token window", i, n, window)
		}
		if strings.Contains(string(b), "Write the summary now.") {
			summaries++
		}
	}
	if summaries == 0 {
		t.Fatalf("%d requests and no summary: the chat was never compacted", len(reqs))
	}
	t.Logf("%s: %d turns, %d requests, %d summaries", kind, turns, len(reqs), summaries)
	return reqs
}

// TestLongChatCLIHoldsAStrictWindow: an OpenAI-compatible model of 8,192
// tokens, named on the command line, whose model list says its window:
// 25 of 25 turns answered, no request over the window, though every run
// starts afresh (the calibration is the chat's, in its history).
func TestLongChatCLIHoldsAStrictWindow(t *testing.T) {
	longChatCLI(t, provider.KindOpenAI, 8_192)
}

// TestLongChatCLIOllamaNeverCut: Ollama cuts a prompt longer than its
// context silently; with a 32,768-token model (its /api/show says so)
// named on the command line, no request is longer than the model's
// context or than the num_ctx it names.
func TestLongChatCLIOllamaNeverCut(t *testing.T) {
	const window = 32_768
	for i, b := range longChatCLI(t, provider.KindOllama, window) {
		var req struct {
			Options struct {
				NumCtx int `json:"num_ctx"`
			} `json:"options"`
		}
		if err := json.Unmarshal(b, &req); err != nil {
			t.Fatal(err)
		}
		if n := len(b) / 4; req.Options.NumCtx <= 0 || n > req.Options.NumCtx || req.Options.NumCtx > window {
			t.Fatalf("request %d: %d tokens, num_ctx %d, model context %d", i, n, req.Options.NumCtx, window)
		}
	}
}

// TestChatSaysTheWindowWasAssumed: a model nobody tells the window of
// (the list has none, the family is not known) is kept under an assumed
// window, and 'switchboard chat' says so and how to set it;
// --context-window sets it.
func TestChatSaysTheWindowWasAssumed(t *testing.T) {
	llm := providertest.NewServer(t)
	llm.SetModels([]string{"mystery"})
	dir := t.TempDir()
	llm.Enqueue(providertest.Reply{Text: "hi"})
	base := []string{"--provider", "openai", "--base-url", llm.URL(provider.KindOpenAI), "--model", "mystery"}
	code, _, errOut := runChat(t, dir, "hello\n", base...)
	if code != 0 || !strings.Contains(errOut, "the model's context window is not known; assuming 32000 tokens (set it with --context-window N)") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	llm.Enqueue(providertest.Reply{Text: "hi"})
	code, _, errOut = runChat(t, dir, "hello\n", append(base, "--context-window", "8192")...)
	if code != 0 || strings.Contains(errOut, "not known") {
		t.Fatalf("with --context-window: exit %d, stderr:\n%s", code, errOut)
	}
}
