package chat_test

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
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// TestAStepOfManyResultsKeepsTheLatestWhole: a model reads many files at
// once with the real filesystem server; the results, each under its
// budget (so none is capped and kept), together do not fit the window.
// The next request has the oldest results as stubs and the rest whole —
// not every one of them as a stub, which left the model nothing of what
// it had just read but "call the tool again", to read them again until
// the step limit.
func TestAStepOfManyResultsKeepsTheLatestWhole(t *testing.T) {
	dir := t.TempDir()
	m := mcpmanager.New(mcpmanager.Options{})
	m.Apply([]mcpmanager.ServerConfig{{Name: "fs", Command: proctest.NPM(t, "mcp-server-filesystem"), Args: []string{dir}}})
	t.Cleanup(func() { m.Close(context.Background()) })
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	m.WaitSettled(ctx)

	for _, tc := range []struct {
		name  string
		files int
	}{
		{"ten files", 10},
		{"twenty files", 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hist, err := history.Open(t.Context(), filepath.Join(t.TempDir(), "history.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { hist.Close() })
			llm := providertest.NewServer(t)
			llm.SetModelList([]providertest.Model{{ID: "m1", ContextWindow: 3000}})
			p, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "fake", BaseURL: llm.URL(provider.KindOpenAI), APIKey: "sk-test"})
			if err != nil {
				t.Fatal(err)
			}
			eng := chat.New(chat.Options{Tools: m.Router(), History: hist, Approver: &approver{answer: chat.ApproveOnce}})
			c, err := hist.CreateChat(t.Context(), history.Chat{Title: "files"})
			if err != nil {
				t.Fatal(err)
			}
			var calls []providertest.ToolCall
			for i := range tc.files {
				path := filepath.Join(dir, fmt.Sprintf("%s-%02d.txt", strings.ReplaceAll(tc.name, " ", "-"), i))
				text := fmt.Sprintf("FILE-%02d ", i) + strings.Repeat("some file text ", 70) // ~1,000 characters: under the budget
				if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
					t.Fatal(err)
				}
				calls = append(calls, call(fmt.Sprintf("c%d", i), "fs__read_text_file", fmt.Sprintf(`{"path":%q}`, path)))
			}
			llm.Enqueue(providertest.Reply{ToolCalls: calls}, providertest.Reply{Text: "answered"})
			res, err := eng.Send(t.Context(), chat.Turn{ChatID: c.ID, Provider: p, Model: "m1", Text: "QUESTION: read them all", ContextWindow: 3000, Tools: chat.ToolsDirect})
			if err != nil || res.Message.Text != "answered" {
				t.Fatalf("%v %q %s", err, res.Message.Text, res.Message.Error)
			}
			reqs := llm.Requests()
			body := reqs[len(reqs)-1]
			var last struct {
				Messages []struct {
					Role    string `json:"role"`
					Content any    `json:"content"`
				} `json:"messages"`
			}
			if err := json.Unmarshal(body, &last); err != nil {
				t.Fatal(err)
			}
			whole, stubs := 0, 0
			for _, m := range last.Messages {
				s, _ := m.Content.(string)
				switch {
				case m.Role != "tool":
				case strings.Contains(s, "left out to save context"):
					stubs++
				case strings.Contains(s, "some file text some file text"):
					whole++
				}
			}
			t.Logf("%d results whole, %d as stubs", whole, stubs)
			latest := fmt.Sprintf("FILE-%02d", tc.files-1)
			if whole == 0 || stubs == 0 || whole+stubs != tc.files || !strings.Contains(string(body), latest) {
				t.Fatalf("the model got %d results whole and %d as stubs of %d (the latest, %s, whole: %v)", whole, stubs, tc.files, latest, strings.Contains(string(body), latest))
			}
			for i, b := range reqs {
				if len(b)/4 > 3000 {
					t.Fatalf("request %d over the window: %d tokens", i, len(b)/4)
				}
			}
		})
	}
}
