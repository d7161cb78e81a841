package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// runChat runs 'switchboard chat' against the fake provider with stdin.
func runChat(t *testing.T, dataDir, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(t.Context(), append([]string{"--data-dir", dataDir, "chat"}, args...), Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader(stdin)})
	return code, out.String(), errb.String()
}

func TestChatRunsToolsAndSavesTheChat(t *testing.T) {
	llm := providertest.NewServer(t)
	dir := t.TempDir()
	llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "c1", Name: "content-store__listStores", Arguments: `{}`}}},
		providertest.Reply{Text: "You have no stores yet."},
	)
	code, out, errOut := runChat(t, dir, "", "--provider", "openai", "--base-url", llm.URL(provider.KindOpenAI), "--model", "m1", "--yes", "which", "stores", "exist?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.TrimSpace(out) != "You have no stores yet." {
		t.Fatalf("stdout %q", out)
	}
	if !strings.Contains(errOut, "→ content-store__listStores") || !strings.Contains(errOut, "← content-store__listStores done") || !strings.Contains(errOut, "saved as chat") {
		t.Fatalf("stderr %q", errOut)
	}
	var first map[string]any
	if err := json.Unmarshal(llm.Requests()[0], &first); err != nil || !strings.Contains(string(llm.Requests()[0]), "which stores exist?") {
		t.Fatalf("request %s", llm.Requests()[0])
	}
	h, err := history.Open(t.Context(), filepath.Join(dir, "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	chats, _ := h.ListChats(t.Context(), history.ListOptions{})
	if len(chats) != 1 || chats[0].Title != "which stores exist?" || chats[0].Provider != "openai" {
		t.Fatalf("chats %+v", chats)
	}
	msgs, _ := h.Messages(t.Context(), chats[0].ID)
	if len(msgs) != 3 || msgs[1].ToolCalls[0].Status != "done" {
		t.Fatalf("messages %+v", msgs)
	}

	// --chat continues it; the prompt comes from stdin; --json prints the result.
	llm.Enqueue(providertest.Reply{Text: "Still none."})
	code, out, errOut = runChat(t, dir, "and now?\n", "--provider", "openai", "--base-url", llm.URL(provider.KindOpenAI), "--model", "m1", "--chat", chats[0].ID, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		ChatID, Text, Status string
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.ChatID != chats[0].ID || res.Text != "Still none." || res.Status != "complete" {
		t.Fatalf("json %q: %v", out, err)
	}
	last := string(llm.Requests()[len(llm.Requests())-1])
	if !strings.Contains(last, "which stores exist?") || !strings.Contains(last, "and now?") {
		t.Fatalf("the continued chat lacks its history: %s", last)
	}
}

func TestChatWithoutATerminalDeniesRiskyTools(t *testing.T) {
	llm := providertest.NewServer(t)
	llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "c1", Name: "workspace__execute_shell", Arguments: `{"command":"touch /tmp/should-not-exist"}`}}},
		providertest.Reply{Text: "ok"},
	)
	code, _, errOut := runChat(t, t.TempDir(), "", "--provider", "openai", "--base-url", llm.URL(provider.KindOpenAI), "--model", "m1", "run it")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "workspace__execute_shell denied") || !strings.Contains(errOut, "--yes") {
		t.Fatalf("stderr %q", errOut)
	}
	if !strings.Contains(string(llm.Requests()[1]), "approval could not be asked") {
		t.Fatalf("the model was not told: %s", llm.Requests()[1])
	}
}

func TestChatUsageErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"hello"}, 1, "no model provider is set up"},
		{[]string{"--provider", "openai", "--base-url", "http://127.0.0.1:1", "hello"}, 2, "--model is required"},
		{[]string{"--provider", "nope", "--base-url", "http://127.0.0.1:1", "--model", "m", "hi"}, 2, "give a kind"},
	}
	for _, c := range cases {
		code, _, errOut := runChat(t, dir, "", c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q", c.args, code, errOut)
		}
	}
}

func TestChatAsADelegatingAgent(t *testing.T) {
	llm := providertest.NewServer(t)
	dir := t.TempDir()
	s := chat.Settings{}
	if _, err := s.PutAgent(chat.Agent{Name: "Librarian", System: "Keep the stores tidy.", Servers: []string{"content-store"}, Delegate: true}); err != nil {
		t.Fatal(err)
	}
	raw, err := s.Into(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := config.Edit(t.Context(), filepath.Join(dir, "config.json"), func(c *config.Config) error { c.Settings = raw; return nil }); err != nil {
		t.Fatal(err)
	}
	llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "a1", Name: "ask_content-store", Arguments: `{"query":"which stores exist?"}`}}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "s1", Name: "content-store__listStores", Arguments: `{}`}}},
		providertest.Reply{Text: "None."},
		providertest.Reply{Text: "You have no stores."},
	)
	code, out, errOut := runChat(t, dir, "", "--agent", "librarian", "--provider", "openai", "--base-url", llm.URL(provider.KindOpenAI), "--model", "m1", "list my stores")
	if code != 0 || strings.TrimSpace(out) != "You have no stores." {
		t.Fatalf("exit %d: %q %s", code, out, errOut)
	}
	first := string(llm.Requests()[0])
	if !strings.Contains(first, "Keep the stores tidy.") || !strings.Contains(first, `"ask_content-store"`) || strings.Contains(first, "workspace__") {
		t.Fatalf("main request %s", first)
	}
	if code, _, e := runChat(t, dir, "", "--agent", "nobody", "--provider", "openai", "--base-url", llm.URL(provider.KindOpenAI), "hi"); code != ExitUsage || !strings.Contains(e, "Librarian") {
		t.Fatalf("unknown agent: %d %s", code, e)
	}
}

// TestChatSaysWhenItSummarises: a chat continued with --chat, with a model
// of 8,000 tokens (gpt-4, known), is summarised when it nears the window,
// and 'switchboard chat' says so; every turn is answered.
func TestChatSaysWhenItSummarises(t *testing.T) {
	llm := providertest.NewServer(t)
	llm.SetModelList([]providertest.Model{{ID: "gpt-4", ContextWindow: 8000}})
	llm.Enqueue(providertest.Reply{When: "Write the summary now.", Text: "Notes: the user pasted long texts."})
	dir := t.TempDir()
	long := strings.Repeat("a long pasted paragraph of text ", 100) // ~800 tokens
	chatID := ""
	said := false
	for i := range 12 {
		llm.Enqueue(providertest.Reply{Text: "Noted."})
		args := []string{"--provider", "openai", "--base-url", llm.URL(provider.KindOpenAI), "--model", "gpt-4", "--json"}
		if chatID != "" {
			args = append(args, "--chat", chatID)
		}
		code, out, errOut := runChat(t, dir, fmt.Sprintf("text %d: %s\n", i, long), args...)
		if code != 0 {
			t.Fatalf("turn %d: exit %d: %s", i, code, errOut)
		}
		var res struct{ ChatID, Text, Status string }
		if err := json.Unmarshal([]byte(out), &res); err != nil || res.Status != "complete" || res.Text != "Noted." {
			t.Fatalf("turn %d: %q %v", i, out, err)
		}
		chatID = res.ChatID
		said = said || strings.Contains(errOut, "summarised") && strings.Contains(errOut, "earlier messages")
	}
	if !said {
		t.Fatal("switchboard chat never said it summarised the chat")
	}
	for i, b := range llm.Requests() {
		if len(b)/4 > 8000 {
			t.Fatalf("request %d over the window: %d tokens", i, len(b)/4)
		}
	}
}
