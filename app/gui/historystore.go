package gui

import (
	"context"

	"github.com/switchboard-app/switchboard/app/history"
)

// openHistory has the host open history.db at start; a failure is kept
// (and logged) by the host and shown by every chat method, so the rest of
// the app still works.
func (a *core) openHistory() { _, _ = a.h.Chats.History() }

// historyStore is the host's history, or why it could not be opened.
func (a *core) historyStore() (*history.Store, error) { return a.h.Chats.History() }

// bg is the context of work that ends when the app closes.
func (a *core) bg() context.Context { return a.life }
