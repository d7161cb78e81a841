package host

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
)

// TestLongChatWindowPathHoldsTheModelsCount: the window's path (a
// provider configured in Settings, the host's Turn and engine, as the
// chat page runs them), with the window restarted halfway (a new engine
// over the same history: the calibration must come from the chat), 25
// turns each reading a 6,000-character file: an OpenAI-compatible model
// that refuses over 8,192 tokens, and Ollama with a 32,768-token model
// (from /api/show), which would cut a longer prompt silently. Every turn
// is answered with its own answer, from a request holding its question and
// the file; no request is over the window or the num_ctx it names.
func TestLongChatWindowPathHoldsTheModelsCount(t *testing.T) {
	for _, tc := range []struct {
		kind   provider.Kind
		window int
	}{{provider.KindOpenAI, 8_192}, {provider.KindOllama, 32_768}} {
		t.Run(string(tc.kind), func(t *testing.T) {
			ctx := t.Context()
			h := open(t)
			h.Servers.StartBuiltins()
			var notes strings.Builder
			for i := 1; notes.Len() < 6_000; i++ {
				fmt.Fprintf(&notes, "line %03d: the quick brown fox jumps over the lazy dog, note %d\n", i, i)
			}
			if err := os.WriteFile(filepath.Join(WorkspaceRoot(h.dir), "notes.txt"), []byte(notes.String()[:6_000]), 0o644); err != nil {
				t.Fatal(err)
			}
			hist, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { hist.Close() })
			row, err := hist.CreateChat(ctx, history.Chat{Title: "long"})
			if err != nil {
				t.Fatal(err)
			}
			llm := providertest.NewServer(t)
			llm.SetModelList([]providertest.Model{{ID: "small", ContextWindow: tc.window}})
			llm.Enqueue(providertest.Reply{When: "Write the summary now.", Text: "Notes: the user asks each turn to read notes.txt; every read worked."})
			s := chat.Settings{Providers: []chat.ProviderSettings{{Name: "fake-" + string(tc.kind), Kind: tc.kind, BaseURL: llm.URL(tc.kind), DefaultModel: "small"}}}
			m, name, err := h.Chats.Model(s, "", "")
			if err != nil {
				t.Fatal(err)
			}
			var eng *chat.Engine
			const turns = 25
			for i := 1; i <= turns; i++ {
				if i == 1 || i == 13 { // the window opens, and is restarted
					eng = h.Chats.newEngine(hist, chat.ApproveAll{})
				}
				answer := fmt.Sprintf("Turn %d: read it.", i)
				llm.Enqueue(
					providertest.Reply{ToolCalls: []providertest.ToolCall{{Name: "workspace__read_file", Arguments: `{"path":"notes.txt"}`}}},
					providertest.Reply{Text: answer},
				)
				question := fmt.Sprintf("Question %d: please read notes.txt", i)
				turn := h.Chats.Turn(ctx, s, TurnRequest{ChatID: row.ID, Provider: name, Model: m, Text: question})
				if turn.ContextWindow != tc.window {
					t.Fatalf("the engine's window is %d, want the model's %d", turn.ContextWindow, tc.window)
				}
				sctx, cancel := context.WithTimeout(ctx, time.Minute)
				res, err := eng.Send(sctx, turn)
				cancel()
				if err != nil || res.Message.Text != answer {
					t.Fatalf("turn %d answered %q, want %q: %v %s", i, res.Message.Text, answer, err, res.Message.Error)
				}
				reqs := llm.Requests()
				last := string(reqs[len(reqs)-1])
				if !strings.Contains(last, question) || !strings.Contains(last, "line 001: the quick brown fox") {
					t.Fatalf("turn %d: the request answered lacks its question or the file:\n%.1500s", i, last)
				}
			}
			summaries, stubbed := 0, false
			for i, b := range llm.Requests() {
				stubbed = stubbed || strings.Contains(string(b), "left out to save context")
				n := len(b) / 4
				if n > tc.window {
					t.Fatalf("request %d took %d tokens, over the %d-token window", i, n, tc.window)
				}
				if strings.Contains(string(b), "Write the summary now.") {
					summaries++
				}
				if tc.kind == provider.KindOllama {
					var req struct {
						Options struct {
							NumCtx int `json:"num_ctx"`
						} `json:"options"`
					}
					if err := json.Unmarshal(b, &req); err != nil || req.Options.NumCtx < n || req.Options.NumCtx > tc.window {
						t.Fatalf("request %d: %d tokens, num_ctx %d (%v)", i, n, req.Options.NumCtx, err)
					}
				}
			}
			// 25 files are more than either window holds: the engine must
			// have stubbed or summarised.
			if summaries == 0 && !stubbed {
				t.Fatal("the chat was neither summarised nor its old results stubbed")
			}
			t.Logf("%s: %d requests, %d summaries", tc.kind, len(llm.Requests()), summaries)
		})
	}
}
