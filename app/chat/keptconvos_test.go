package chat_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
)

// recentReads counts the engine's reads of a chat from its last summary
// (History.Recent): one per conversation it does not keep.
type recentReads struct {
	*history.Store
	n atomic.Int64
}

func (r *recentReads) Recent(ctx context.Context, chatID string) ([]history.Message, error) {
	r.n.Add(1)
	return r.Store.Recent(ctx, chatID)
}

// The engine keeps the conversations of the KeptConversations chats used
// last; another chat's is read from the history again at its next turn,
// and the model still gets all of it.
func TestEngineKeepsTheConversationsOfTheChatsUsedLast(t *testing.T) {
	old := chat.KeptConversations
	chat.KeptConversations = 2
	t.Cleanup(func() { chat.KeptConversations = old })
	f := newFixture(t, provider.KindOpenAI, nil)
	reads := &recentReads{Store: f.hist}
	eng := chat.New(chat.Options{Tools: testServer(t, nil), History: reads, Approver: f.appr})
	chats := make([]history.Chat, 3)
	for i := range chats {
		var err error
		if chats[i], err = f.hist.CreateChat(t.Context(), history.Chat{Title: fmt.Sprint("chat ", i)}); err != nil {
			t.Fatal(err)
		}
	}
	send := func(c history.Chat, text string) {
		t.Helper()
		f.llm.Enqueue(providertest.Reply{Text: "answer to " + text})
		if _, err := eng.Send(t.Context(), chat.Turn{ChatID: c.ID, Provider: f.p, Model: "m1", Text: text, OnEvent: func(chat.Event) {}}); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range chats {
		send(c, fmt.Sprint("first in chat ", i))
	}
	before := reads.n.Load()
	send(chats[2], "second in chat 2")
	send(chats[1], "second in chat 1")
	if got := reads.n.Load() - before; got != 0 {
		t.Fatalf("the two chats used last were read from the history again (%d reads): their conversations were not kept", got)
	}
	send(chats[0], "second in chat 0")
	if reads.n.Load() == before {
		t.Fatal("chat 0, used before the two kept, was not read from the history again: its conversation was kept past KeptConversations")
	}
	reqs := f.llm.Requests()
	last := string(reqs[len(reqs)-1])
	for _, want := range []string{"first in chat 0", "answer to first in chat 0", "second in chat 0"} {
		if !strings.Contains(last, want) {
			t.Errorf("the model's request in chat 0 lacks %q:\n%.2000s", want, last)
		}
	}
	if strings.Contains(last, "chat 1") || strings.Contains(last, "chat 2") {
		t.Errorf("the request in chat 0 carries another chat's messages:\n%.2000s", last)
	}
}
