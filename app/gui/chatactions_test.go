package gui

import (
	"errors"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/app/host"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
)

func (c *chatApp) doneCount(chatID string) int {
	n := 0
	for _, ev := range c.chatEvents() {
		if ev.Type == string(chat.EventDone) && ev.ChatID == chatID {
			n++
		}
	}
	return n
}

// TestRetryAndEditThroughTheWindow: a provider error is stored in plain
// words then the detail; RetryAnswer replaces it, EditMessage replaces a
// message and what followed it.
func TestRetryAndEditThroughTheWindow(t *testing.T) {
	a := newChatApp(t)
	c, err := a.ChatPage.NewChat("", "")
	if err != nil {
		t.Fatal(err)
	}
	turn := func(what string, start func() error) []host.MessageView {
		t.Helper()
		n := a.doneCount(c.ID)
		if err := start(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		mcptest.Until(t, what, func() bool { return a.doneCount(c.ID) > n })
		msgs, err := a.ChatPage.ChatMessages(c.ID)
		if err != nil {
			t.Fatal(err)
		}
		return msgs
	}

	a.llm.Enqueue(providertest.Reply{Status: 401, Error: "Incorrect API key provided"})
	msgs := turn("send", func() error { return a.ChatPage.SendMessage(c.ID, "hello") })
	if len(msgs) != 2 || msgs[1].Status != history.StatusError ||
		!strings.HasPrefix(msgs[1].Error, `The provider "Fake" refused the API key. Check the key in Settings → Models.`+"\n\n") ||
		!strings.Contains(msgs[1].Error, "HTTP 401: Incorrect API key provided") {
		t.Fatalf("after a 401: %+v", msgs)
	}

	a.llm.Enqueue(providertest.Reply{Text: "Hi there."})
	msgs = turn("retry", func() error { return a.ChatPage.RetryAnswer(c.ID) })
	if len(msgs) != 2 || msgs[1].Text != "Hi there." || msgs[1].Status != history.StatusComplete {
		t.Fatalf("after retry: %+v", msgs)
	}

	a.llm.Enqueue(providertest.Reply{Text: "Bonjour."})
	msgs = turn("edit", func() error { return a.ChatPage.EditMessage(c.ID, msgs[0].ID, "bonjour") })
	if len(msgs) != 2 || msgs[0].Text != "bonjour" || msgs[1].Text != "Bonjour." {
		t.Fatalf("after edit: %+v", msgs)
	}
	reqs := a.llm.Requests()
	if last := string(reqs[len(reqs)-1]); !strings.Contains(last, "bonjour") || strings.Contains(last, "hello") || strings.Contains(last, "Hi there.") {
		t.Fatalf("the edited step sent %s", last)
	}

	if err := a.ChatPage.EditMessage(c.ID, "", "x"); err == nil || !strings.Contains(err.Error(), "no message id") {
		t.Fatalf("edit without a message id: %v", err)
	}
	if err := a.ChatPage.EditMessage(c.ID, msgs[0].ID, "  "); !errors.Is(err, chat.ErrEmpty) {
		t.Fatalf("edit to nothing: %v", err)
	}
}
