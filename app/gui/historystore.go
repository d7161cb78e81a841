package gui

import (
	"context"

	"github.com/switchboard-app/switchboard/app/host"
)

// openHistory has the host open history.db at start; a failure is kept
// (and logged) by the host and shown by every chat method, so the rest of
// the app still works.
func (a *core) openHistory() { _ = a.h.Chats.Open() }

// followHistory tells the frontend, for as long as the window is open,
// when another process ('switchboard chat' on this data dir) wrote to the
// chat history, so the chat shown and the list show it without a reload.
func (a *core) followHistory() {
	go host.FollowChats(a.life, a.h.Chats, func() { a.emitEvent(EventChatsChanged, nil) })
}

// bg is the context of work that ends when the app closes.
func (a *core) bg() context.Context { return a.life }
