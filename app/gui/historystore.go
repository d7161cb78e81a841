package gui

import (
	"context"
)

// openHistory has the host open history.db at start; a failure is kept
// (and logged) by the host and shown by every chat method, so the rest of
// the app still works.
func (a *core) openHistory() { _ = a.h.Chats.Open() }

// bg is the context of work that ends when the app closes.
func (a *core) bg() context.Context { return a.life }
