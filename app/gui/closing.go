package gui

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/switchboard-app/switchboard/app/host"
)

// EventCloseWithApps carries a CloseView: the window was closed while
// other apps' serve use its servers. The page asks: keep running in the
// background (KeepRunning) or quit anyway (QuitAnyway).
const EventCloseWithApps = "window:closeWithApps"

// CloseView names the apps attached when the window was closed.
type CloseView struct {
	Apps []host.SharedApp `json:"apps"`
}

// closeAskedFor is how long a close that asked stays asked: closing
// again within it quits (so a window whose page cannot show the question
// still closes on the second try).
const closeAskedFor = time.Minute

// closing is what the window's close button decided.
type closing struct {
	quit  atomic.Bool  // QuitAnyway: close without asking
	asked atomic.Int64 // when the question went to the page (unix ns), 0: none pending
}

// BeforeClose is Wails' OnBeforeClose: it remembers the window, then
// keeps it open while other apps use its servers (an app's serve attached
// here), asking the page what to do; true keeps the window.
func BeforeClose(ctx context.Context, a *Window) bool {
	RememberWindow(ctx, a)
	return a.holdClose()
}

// holdClose reports whether to keep the window open and ask first: apps
// are attached, the user has not chosen to quit, and no question was put
// in the last closeAskedFor (a second close quits).
func (a *Window) holdClose() bool {
	if a.closing.quit.Load() {
		return false
	}
	apps := a.h.Shared.Attached()
	if len(apps) == 0 {
		return false
	}
	now := time.Now().UnixNano()
	if at := a.closing.asked.Load(); at != 0 && now-at < int64(closeAskedFor) {
		return false
	}
	a.closing.asked.Store(now)
	slog.Info("window close held: apps use the servers, asking", "apps", len(apps))
	a.emitEvent(EventCloseWithApps, CloseView{Apps: apps})
	return true
}
