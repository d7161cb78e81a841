package host

import (
	"context"
	"log/slog"
	"time"
)

// ChatsPoll is how often FollowChats asks the chat history whether another
// process wrote to it: a turn 'switchboard chat' runs in a chat the window
// shows appears within about this long. A var so tests can change it.
var ChatsPoll = time.Second

// FollowChats calls changed, until ctx ends, soon after another process
// ('switchboard chat', a second window on the same data dir) commits to
// the chat history (history.db): a turn it ran or is running, a chat it
// made, renamed or deleted. The host's own writes (this window's turns,
// which it shows from their events) never call it. The window runs it for
// as long as it is open, so the chat it shows and the list follow the CLI.
//
// Each ChatsPoll it reads one number (history.Store.DataVersion: SQLite's
// data_version, from the WAL index in shared memory; no table is read),
// and nothing more while nothing changes: the window pays no more than that
// for following. changed runs on FollowChats' goroutine, at most once a
// poll however many commits came since the last one.
func FollowChats(ctx context.Context, c *Chats, changed func()) {
	t := time.NewTicker(ChatsPoll)
	defer t.Stop()
	followChats(ctx, c, t.C, changed)
}

// followChats is FollowChats checking at each tick (tests send them).
func followChats(ctx context.Context, c *Chats, ticks <-chan time.Time, changed func()) {
	var last int64
	known := false
	check := func() {
		h, err := c.store()
		if err != nil {
			return // no history (it failed to open, or the app is quitting): nothing to follow
		}
		v, err := h.DataVersion(ctx)
		if err != nil {
			if ctx.Err() == nil {
				slog.Debug("follow the chat history", "err", err)
			}
			return
		}
		if known && v != last {
			changed()
		}
		last, known = v, true
	}
	check() // from now on: what was there before the window follows is shown already
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticks:
			check()
		}
	}
}
