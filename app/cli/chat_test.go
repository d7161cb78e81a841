package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/app/host"
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

// TestChatFailureSaysTheChatAndTheErrorOnce: a turn that fails still says
// which chat it saved (before the error, so a run cut short can be
// continued), and its error is printed once: the sentence the window
// shows, then the detail.
func TestChatFailureSaysTheChatAndTheErrorOnce(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply providertest.Reply
		want  string // the sentence, printed once
	}{
		{"provider error", providertest.Reply{Status: 500, Error: "kaboom"}, "had a problem on its side (HTTP 500)"},
		{"answer broken off", providertest.Reply{Text: "one two three four", DropAfter: 2}, "The answer broke off before it was finished"},
	} {
		for _, mode := range []string{"text", "json"} {
			t.Run(tc.name+"/"+mode, func(t *testing.T) {
				llm := providertest.NewServer(t)
				dir := t.TempDir()
				llm.Enqueue(tc.reply)
				args := []string{"--provider", "openai", "--base-url", llm.URL(provider.KindOpenAI), "--model", "m1"}
				if mode == "json" {
					args = append(args, "--json")
				}
				code, _, errOut := runChat(t, dir, "", append(args, "hello")...)
				if code != ExitRuntime {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				h, err := history.Open(t.Context(), filepath.Join(dir, "history.db"))
				if err != nil {
					t.Fatal(err)
				}
				defer h.Close()
				chats, _ := h.ListChats(t.Context(), history.ListOptions{})
				if len(chats) != 1 {
					t.Fatalf("%d chats", len(chats))
				}
				saved := fmt.Sprintf("switchboard: saved as chat %s (continue with --chat %s)", chats[0].ID, chats[0].ID)
				at, sentence := strings.Index(errOut, saved), strings.Index(errOut, tc.want)
				if at < 0 || sentence < at || strings.Count(errOut, tc.want) != 1 || strings.Contains(errOut, "answer error") || strings.Contains(errOut, "answer incomplete") {
					t.Fatalf("stderr:\n%s\nwant %q, then %q once", errOut, saved, tc.want)
				}
			})
		}
	}
}

// TestChatWindowSetLargerThanTheModels: 'switchboard chat --context-window
// 12000' with a model of 8,192 tokens, continued turn after turn with
// --chat, each turn reading a 6,000-character file. The model's refusals
// state its window: each is mended (summarised, asked again with the
// stated window) without an error printed, the window it stated is said,
// and every turn is answered.
func TestChatWindowSetLargerThanTheModels(t *testing.T) {
	llm := providertest.NewServer(t)
	llm.SetModelList([]providertest.Model{{ID: "small", ContextWindow: 8_192}})
	llm.Enqueue(providertest.Reply{When: "Write the summary now.", Text: "Notes: the user asks each turn to read notes.txt; every read worked."})
	dir := t.TempDir()
	root := host.WorkspaceRoot(datadir.Dir(dir))
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "notes.txt"), []byte(strings.Repeat("the quick brown fox jumps over the lazy dog\n", 140)), 0o644); err != nil {
		t.Fatal(err)
	}
	chatID, notes := "", 0
	for i := 1; i <= 10; i++ {
		answer := fmt.Sprintf("Turn %d: read it.", i)
		llm.Enqueue(
			providertest.Reply{ToolCalls: []providertest.ToolCall{{Name: "workspace__read_file", Arguments: `{"path":"notes.txt"}`}}},
			providertest.Reply{Text: answer},
		)
		args := []string{"--provider", "openai", "--base-url", llm.URL(provider.KindOpenAI), "--model", "small", "--yes", "--context-window", "12000"}
		if chatID != "" {
			args = append(args, "--chat", chatID)
		}
		code, out, errOut := runChat(t, dir, fmt.Sprintf("Question %d: please read notes.txt\n", i), args...)
		if code != 0 || strings.TrimSpace(out) != answer || strings.Contains(errOut, "answer error") || strings.Contains(errOut, "refused") {
			t.Fatalf("turn %d: exit %d, stdout %q, stderr:\n%s", i, code, out, errOut)
		}
		notes += strings.Count(errOut, "The model's context window is 8192 tokens")
		if _, id, ok := strings.Cut(errOut, "continue with --chat "); ok {
			chatID = strings.TrimSuffix(strings.TrimSpace(id), ")")
		}
	}
	refused := 0
	for _, b := range llm.Requests() {
		if len(b)/4 > 8_192 {
			refused++
		}
	}
	if refused == 0 || notes != refused {
		t.Fatalf("%d requests refused, the window said %d times; want it said once for each", refused, notes)
	}
}

// TestChatHelpSaysTheWindowFlagWins: --context-window is taken over what
// the provider and Settings say (the help said it applied only when the
// provider did not tell the window), short of a smaller one a refusal
// states.
func TestChatHelpSaysTheWindowFlagWins(t *testing.T) {
	code, out, _ := runChat(t, t.TempDir(), "", "--help")
	_, help, _ := strings.Cut(out, "-context-window")
	help, _, _ = strings.Cut(help, "\n  -")
	help = strings.Join(strings.Fields(help), " ")
	if code != 0 || strings.Contains(help, "does not tell") || !strings.Contains(help, "over what the provider and Settings → Chat → Long chats → Context windows say") {
		t.Fatalf("exit %d, --context-window's help: %q", code, help)
	}
}
