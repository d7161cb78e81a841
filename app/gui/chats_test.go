package gui

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// chatApp is a Window started on a fresh data dir with a fake provider set up,
// recording every event it emits.
type chatApp struct {
	*Window
	llm *providertest.Server
	mu  sync.Mutex
	evs []recorded
}

type recorded struct {
	name string
	data any
}

func newChatApp(t *testing.T) *chatApp {
	t.Helper()
	keyring.MockInit()
	llm := providertest.NewServer(t)
	dir := datadir.Dir(t.TempDir())
	if err := dir.Ensure(); err != nil {
		t.Fatal(err)
	}
	s := chat.Settings{}
	if err := s.Put(chat.ProviderSettings{Name: "Fake", Kind: provider.KindOpenAI, BaseURL: llm.URL(provider.KindOpenAI), DefaultModel: "m1"}); err != nil {
		t.Fatal(err)
	}
	raw, err := s.Into(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := config.Edit(t.Context(), dir.Config(), func(c *config.Config) error { c.Settings = raw; return nil }); err != nil {
		t.Fatal(err)
	}
	c := &chatApp{llm: llm}
	c.Window = New(context.Background(), dir)
	c.emit = func(ServerView) {}
	c.emitHook = func(name string, data any) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.evs = append(c.evs, recorded{name, data})
	}
	_ = c.Ready() // no window: start the servers at once
	c.Startup(context.Background())
	t.Cleanup(func() { c.close(context.Background()) })
	return c
}

func (c *chatApp) chatEvents() []ChatEvent {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []ChatEvent
	for _, e := range c.evs {
		if ev, ok := e.data.(ChatEvent); ok && e.name == EventChat {
			out = append(out, ev)
		}
	}
	return out
}

func (c *chatApp) approvals() []ApprovalView {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []ApprovalView
	for _, e := range c.evs {
		if r, ok := e.data.(ApprovalView); ok && e.name == EventApproval {
			out = append(out, r)
		}
	}
	return out
}

func (c *chatApp) done(chatID string) bool {
	for _, ev := range c.chatEvents() {
		if ev.Type == string(chat.EventDone) && ev.ChatID == chatID {
			return true
		}
	}
	return false
}

func TestSendMessageStreamsAndStores(t *testing.T) {
	a := newChatApp(t)
	a.llm.Enqueue(providertest.Reply{Text: "| a | b |\n|---|---|\n| 1 | 2 |"})
	c, err := a.ChatPage.NewChat("", "")
	if err != nil {
		t.Fatal(err)
	}
	if c.Provider != "Fake" || c.Model != "m1" {
		t.Fatalf("new chat uses %q/%q", c.Provider, c.Model)
	}
	if err := a.ChatPage.SendMessage(c.ID, "Make a table please"); err != nil {
		t.Fatal(err)
	}
	mcptest.Until(t, "turn done", func() bool { return a.done(c.ID) })
	msgs, err := a.ChatPage.ChatMessages(c.ID)
	if err != nil || len(msgs) != 2 || msgs[1].Text != "| a | b |\n|---|---|\n| 1 | 2 |" || msgs[1].Status != "complete" {
		t.Fatalf("messages %+v, %v", msgs, err)
	}
	got, _ := a.ChatPage.Chat(c.ID)
	if got.Title != "Make a table please" {
		t.Fatalf("title %q", got.Title)
	}
	hits, err := a.ChatPage.SearchChats("table")
	if err != nil || len(hits) == 0 || hits[0].ChatID != c.ID {
		t.Fatalf("search %+v, %v", hits, err)
	}
	md, err := a.ChatPage.ExportChat(c.ID, "markdown")
	if err != nil || !strings.Contains(md, "Make a table please") {
		t.Fatalf("export %q, %v", md, err)
	}
	// Errors the user can act on come back at once.
	if err := a.ChatPage.SendMessage(c.ID, "  "); err != chat.ErrEmpty {
		t.Fatalf("empty message: %v", err)
	}
}

func TestWorkspaceShellCallAsksFirstAndRunsInTheTerminalSession(t *testing.T) {
	a := newChatApp(t)
	if _, err := a.WorkspacePage.TerminalAttach("default"); err != nil {
		t.Fatal(err)
	}
	a.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "c1", Name: "workspace__execute_shell", Arguments: `{"command":"echo hi-from-model"}`}}},
		providertest.Reply{Text: "done"},
	)
	c, _ := a.ChatPage.NewChat("", "")
	if err := a.ChatPage.SendMessage(c.ID, "run it"); err != nil {
		t.Fatal(err)
	}
	mcptest.Until(t, "approval asked", func() bool { return len(a.approvals()) == 1 })
	req := a.approvals()[0]
	var args map[string]string
	if err := json.Unmarshal([]byte(req.Arguments), &args); err != nil || args["command"] != "echo hi-from-model" || req.Tool != "workspace__execute_shell" {
		t.Fatalf("approval %+v", req)
	}
	pending, _ := a.ChatPage.PendingRequests()
	if len(pending) != 1 || pending[0].Approval.ID != req.ID {
		t.Fatalf("pending %+v", pending)
	}
	if err := a.ChatPage.AnswerApproval(req.ID, "once"); err != nil {
		t.Fatal(err)
	}
	mcptest.Until(t, "turn done", func() bool { return a.done(c.ID) })
	msgs, _ := a.ChatPage.ChatMessages(c.ID)
	call := msgs[1].ToolCalls[0]
	if call.Status != chat.CallDone || call.Result == nil || !strings.Contains(call.Result.Text(), "hi-from-model") {
		t.Fatalf("call %+v", call)
	}
	// The terminal attached to the same session saw the command's output.
	mcptest.Until(t, "terminal output", func() bool {
		a.mu.Lock()
		defer a.mu.Unlock()
		for _, e := range a.evs {
			if d, ok := e.data.(TerminalData); ok && e.name == EventTerminalData && strings.Contains(decode64(d.Data), "hi-from-model") {
				return true
			}
		}
		return false
	})
	if err := a.ChatPage.AnswerApproval(req.ID, "once"); err != ErrNoSuchRequest {
		t.Fatalf("answering twice: %v", err)
	}
}

func TestProviderKeyGoesToTheKeyring(t *testing.T) {
	a := newChatApp(t)
	if err := a.SettingsPage.SaveProvider(ProviderInput{Name: "Work", Kind: "anthropic", DefaultModel: "claude-x", APIKey: "sk-ant-secret-value-1234"}); err != nil {
		t.Fatal(err)
	}
	v, err := a.SettingsPage.ChatSettings()
	if err != nil {
		t.Fatal(err)
	}
	var work ProviderView
	for _, p := range v.Providers {
		if p.Name == "Work" {
			work = p
		}
	}
	if !work.HasKey || work.KeyName == "" || work.BaseURL != chat.DefaultBaseURL(provider.KindAnthropic) {
		t.Fatalf("provider view %+v", work)
	}
	raw, _ := config.Load(a.dir.Config())
	if strings.Contains(string(raw.Settings), "sk-ant-secret") || !strings.Contains(string(raw.Settings), "${secret:"+work.KeyName+"}") {
		t.Fatalf("config settings %s", raw.Settings)
	}
	sec, err := a.SettingsPage.Secrets()
	if err != nil || len(sec) != 1 || sec[0].Name != work.KeyName || len(sec[0].UsedBy) != 1 || sec[0].UsedBy[0] != "provider Work" {
		t.Fatalf("secrets %+v, %v", sec, err)
	}
	if err := a.SettingsPage.SaveProvider(ProviderInput{Name: "Bad", Kind: "openai", BaseURL: "ftp://x"}); err == nil || !strings.Contains(err.Error(), "http://") {
		t.Fatalf("bad URL: %v", err)
	}
	if err := a.SettingsPage.DeleteProvider("Work"); err != nil {
		t.Fatal(err)
	}
	if v, _ := a.SettingsPage.ChatSettings(); len(v.Providers) != 1 {
		t.Fatalf("after delete: %+v", v.Providers)
	}
}

func decode64(s string) string {
	b, _ := base64.StdEncoding.DecodeString(s)
	return string(b)
}

func TestStopChatCancelsTheStream(t *testing.T) {
	a := newChatApp(t)
	a.llm.Enqueue(providertest.Reply{Text: strings.Repeat("word ", 400), ChunkSize: 2, Delay: 50 * time.Millisecond})
	c, _ := a.ChatPage.NewChat("", "")
	if err := a.ChatPage.SendMessage(c.ID, "talk"); err != nil {
		t.Fatal(err)
	}
	mcptest.Until(t, "first words", func() bool {
		for _, ev := range a.chatEvents() {
			if ev.Type == string(chat.EventText) {
				return true
			}
		}
		return false
	})
	if err := a.ChatPage.StopChat(c.ID); err != nil {
		t.Fatal(err)
	}
	mcptest.Until(t, "turn done", func() bool { return a.done(c.ID) })
	msgs, _ := a.ChatPage.ChatMessages(c.ID)
	if m := msgs[1]; m.Status != "cancelled" || m.Text == "" || len(m.Text) >= 2000 {
		t.Fatalf("stopped message %q (%d chars)", m.Status, len(m.Text))
	}
}
