package gui

import (
	"slices"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
)

// TestRetryNowAndRunningChats: while a turn waits out a rate limit the
// chat is among RunningChats (a window loading now marks it answering),
// and RetryNow asks the model again at once instead of after the
// provider's 50 s; once the turn is over neither finds it.
func TestRetryNowAndRunningChats(t *testing.T) {
	a := newChatApp(t)
	a.llm.Enqueue(providertest.Reply{Status: 429, RetryAfter: "50"}, providertest.Reply{Text: "after the wait"})
	c, _ := a.ChatPage.NewChat("", "")
	idle, _ := a.ChatPage.NewChat("", "")
	if err := a.ChatPage.SendMessage(c.ID, "hi"); err != nil {
		t.Fatal(err)
	}
	mcptest.Until(t, "the rate limit's wait", func() bool {
		return slices.ContainsFunc(a.chatEvents(), func(ev ChatEvent) bool { return ev.Type == string(chat.EventRetry) })
	})
	if got := a.ChatPage.RunningChats(); !slices.Equal(got, []string{c.ID}) {
		t.Errorf("RunningChats = %v, want just the answering chat %s (not %s)", got, c.ID, idle.ID)
	}
	woken := time.Now()
	if !a.ChatPage.RetryNow(c.ID) {
		t.Fatal("RetryNow found no wait")
	}
	mcptest.Until(t, "turn done", func() bool { return a.done(c.ID) })
	if d := time.Since(woken); d > 25*time.Second {
		t.Fatalf("the turn ended %v after RetryNow; want at once, not after the 50 s wait", d)
	}
	msgs, _ := a.ChatPage.ChatMessages(c.ID)
	if m := msgs[len(msgs)-1]; m.Text != "after the wait" {
		t.Fatalf("answer %q (%s), want the retried one", m.Text, m.Status)
	}
	mcptest.Until(t, "the turn released", func() bool { return len(a.ChatPage.RunningChats()) == 0 })
	if a.ChatPage.RetryNow(c.ID) {
		t.Error("RetryNow after the turn reported a wait")
	}
}
