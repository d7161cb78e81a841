package gui

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// everythingApp is a Window running the real server-everything from npm.
// appWith starts a Window (no window, events dropped) on a fresh data dir
// whose config holds servers.
func appWith(t *testing.T, servers []config.Server) *Window {
	t.Helper()
	dir := datadir.Dir(t.TempDir())
	if err := dir.Ensure(); err != nil {
		t.Fatal(err)
	}
	if _, err := config.Edit(t.Context(), dir.Config(), func(c *config.Config) error { c.Servers = servers; return nil }); err != nil {
		t.Fatal(err)
	}
	a := New(context.Background(), dir)
	a.emitHook = func(string, any) {}
	a.emit = func(ServerView) {}
	if err := a.h.Servers.Load(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.close(context.Background()) })
	return a
}

func everythingApp(t *testing.T) *Window {
	t.Helper()
	bin := proctest.NPM(t, "mcp-server-everything")
	a := appWith(t, []config.Server{{Name: "everything", Transport: config.Stdio, Command: bin}})
	mcptest.Until(t, "everything ready", func() bool {
		return state(a, "everything") == string(supervisor.Ready)
	})
	return a
}

func TestPromptsAndResourcesOfARealServer(t *testing.T) {
	a := everythingApp(t)
	ps, err := a.ChatPage.Prompts()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(ps, func(p PromptView) bool { return p.Name == "args-prompt" })
	if i < 0 || ps[i].Server != "everything" || len(ps[i].Arguments) != 2 || !ps[i].Arguments[0].Required {
		t.Fatalf("prompts %+v", ps)
	}
	text, err := a.ChatPage.UsePrompt("everything", "args-prompt", map[string]string{"city": "Lisbon"})
	if err != nil || text != "What's weather in Lisbon?" {
		t.Fatalf("UsePrompt = %q, %v", text, err)
	}
	if _, err := a.ChatPage.UsePrompt("everything", "no-such-prompt", nil); err == nil {
		t.Fatal("an unknown prompt gave no error")
	}

	rs, err := a.ChatPage.Resources()
	if err != nil || len(rs) == 0 {
		t.Fatalf("resources %v, %v", rs, err)
	}
	var doc ResourceView
	for _, r := range rs {
		if strings.HasPrefix(r.MIMEType, "text/") {
			doc = r
			break
		}
	}
	if doc.URI == "" {
		t.Fatalf("no text resource in %+v", rs)
	}
	block, err := a.ChatPage.AttachResource("everything", doc.URI)
	if err != nil || !strings.HasPrefix(block, "<resource uri=\""+doc.URI+"\" server=\"everything\">\n") || len(block) < 60 {
		t.Fatalf("AttachResource = %q, %v", block, err)
	}
}

// TestToolLoopThroughServerEverything runs a two-step tool loop through the
// real server-everything for both provider wire formats: parallel echo and
// get-sum, then the answer.
func TestToolLoopThroughServerEverything(t *testing.T) {
	for _, kind := range []provider.Kind{provider.KindOpenAI, provider.KindAnthropic} {
		t.Run(string(kind), func(t *testing.T) {
			a := everythingApp(t)
			llm := providertest.NewServer(t)
			var mu sync.Mutex
			done := false
			a.emitHook = func(name string, data any) {
				if ev, ok := data.(ChatEvent); ok && ev.Type == string(chat.EventDone) {
					mu.Lock()
					done = true
					mu.Unlock()
				}
			}
			a.openHistory()
			if err := a.SettingsPage.SaveProvider(ProviderInput{Name: "Fake", Kind: string(kind), BaseURL: llm.URL(kind), DefaultModel: "m1"}); err != nil {
				t.Fatal(err)
			}
			llm.Enqueue(
				providertest.Reply{ToolCalls: []providertest.ToolCall{
					{ID: "c1", Name: "everything__echo", Arguments: `{"message":"from the loop"}`},
					{ID: "c2", Name: "everything__get-sum", Arguments: `{"a":19,"b":23}`},
				}},
				providertest.Reply{Text: "Echoed, and the sum is 42."},
			)
			c, err := a.ChatPage.NewChat("", "")
			if err != nil {
				t.Fatal(err)
			}
			if err := a.ChatPage.SendMessage(c.ID, "echo and add"); err != nil {
				t.Fatal(err)
			}
			mcptest.Until(t, "turn done", func() bool { mu.Lock(); defer mu.Unlock(); return done })
			second := string(llm.Requests()[1])
			if !strings.Contains(second, "Echo: from the loop") || !strings.Contains(second, "42") {
				t.Fatalf("the second request lacks the real results: %s", second)
			}
			msgs, _ := a.ChatPage.ChatMessages(c.ID)
			if len(msgs) != 3 || msgs[2].Text != "Echoed, and the sum is 42." {
				t.Fatalf("messages %+v", msgs)
			}
			for _, tc := range msgs[1].ToolCalls {
				if tc.Server != "everything" || tc.Status != chat.CallDone || tc.IsError {
					t.Fatalf("call %+v", tc)
				}
			}
		})
	}
}
