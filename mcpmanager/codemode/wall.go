package codemode

import (
	"context"
	"sync"
	"time"
)

// wallClock is a script's wall-time limit: a deadline that stops while a
// tool call waits for a person (PauseWall), so a user slower to answer
// an approval than the limit does not lose the script. When it runs out
// it cancels the script's context with the limit's error as the cause.
type wallClock struct {
	mu      sync.Mutex
	left    time.Duration // what remains, as of since
	since   time.Time
	paused  int // PauseWall calls not yet resumed
	timer   *time.Timer
	cancel  context.CancelCauseFunc
	cause   error
	expired bool
}

type wallKey struct{}

// startWall starts the wall clock of a script run under ctx: the context
// it returns ends when budget has passed (not counting the pauses), with
// cause as its context.Cause, or when ctx ends.
func startWall(ctx context.Context, budget time.Duration, cause error) (context.Context, func()) {
	wctx, cancel := context.WithCancelCause(ctx)
	w := &wallClock{left: budget, since: time.Now(), cancel: cancel, cause: cause}
	w.timer = time.AfterFunc(budget, w.expire)
	return context.WithValue(wctx, wallKey{}, w), func() {
		w.timer.Stop()
		cancel(context.Canceled)
	}
}

func (w *wallClock) expire() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.paused > 0 || w.expired {
		return
	}
	if left := w.left - time.Since(w.since); left > 0 { // resumed just as the old timer fired
		w.timer.Reset(left)
		return
	}
	w.expired = true
	w.cancel(w.cause)
}

// PauseWall stops the wall clock of the script whose tool call ctx
// belongs to until resume is called: the time a call waits for a
// person's answer (an approval, an elicitation) does not count against
// the script's wall-time limit. Outside a script it does nothing.
func PauseWall(ctx context.Context) (resume func()) {
	w, ok := ctx.Value(wallKey{}).(*wallClock)
	if !ok {
		return func() {}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.paused == 0 {
		w.left -= time.Since(w.since)
		w.timer.Stop()
	}
	w.paused++
	var once sync.Once
	return func() {
		once.Do(func() {
			w.mu.Lock()
			defer w.mu.Unlock()
			if w.paused--; w.paused == 0 && !w.expired {
				w.since = time.Now()
				w.timer.Reset(max(w.left, 0))
			}
		})
	}
}
