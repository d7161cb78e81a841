package provider

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Retry limits. Package variables so tests can shorten them.
var (
	// MaxRetries is how many times a rate-limited request is retried.
	MaxRetries = 3
	// MaxRetryWait caps one wait: a provider asking for longer (a daily
	// quota, say) fails at once instead of freezing the chat.
	MaxRetryWait = 60 * time.Second
	// RetryBackoff is the first wait when the provider gives no
	// Retry-After; it doubles with each attempt.
	RetryBackoff = time.Second
)

// sleep waits d or until ctx is done. Tests replace it to observe waits
// without spending them.
var sleep = func(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// withRetries runs once until it succeeds or fails with something other
// than a retryable status, waiting between attempts as the provider asks
// and announcing each wait on on. Status errors arrive before any part of
// the answer, so nothing streamed is repeated.
func withRetries(ctx context.Context, name string, retryable func(status int) bool, on func(Event), once func() (Response, error)) (Response, error) {
	for attempt := 0; ; attempt++ {
		resp, err := once()
		var se *statusError
		if !errors.As(err, &se) || !retryable(se.status) || ctx.Err() != nil {
			return resp, err
		}
		rl := rateLimit(name, se)
		wait, given := retryAfter(se.header, time.Now())
		if !given {
			wait = RetryBackoff * time.Duration(math.Pow(2, float64(attempt)))
			wait = min(wait, MaxRetryWait)
		}
		if attempt >= MaxRetries || wait > MaxRetryWait {
			return resp, rl
		}
		announce := func() { on(Event{Kind: EventRetry, Attempt: attempt + 1, After: wait, Err: rl}) }
		if err := waitOut(ctx, wait, announce); err != nil {
			return resp, &Error{Provider: name, Op: opStream, Err: err}
		}
	}
}

// waitOut announces a wait of d before a retry and sleeps it, or less when
// ctx's Wake cuts it short (nil: try again now), or until ctx is done (its
// error). The wait is wakeable before it is announced, so a "Retry now"
// the announcement offers always finds it.
func waitOut(ctx context.Context, d time.Duration, announce func()) error {
	wctx, done := wakeFrom(ctx).waiting(ctx)
	defer done()
	announce()
	err := sleep(wctx, d)
	if err != nil && ctx.Err() == nil && wctx.Err() != nil {
		return nil // woken: only the wait ended, not the request
	}
	return err
}

// Wake cuts short the waits a rate limit imposes on the requests of one
// turn ("Retry now" in the window): a Stream whose context carries it
// (WithWake) retries at once when Now is called during its wait, instead
// of sleeping out the provider's Retry-After. It gives the attempt back,
// not the limit: the retry counts as one of MaxRetries, and a provider
// still limiting answers 429 again and is waited for again.
//
// A Wake is safe for concurrent use: Now is called from the window's
// goroutine while the turn's requests wait on theirs, several at once
// (delegated sub-agents run in parallel), and every wait in progress ends.
// Now ends only the waits in progress: one begun after it (the next 429)
// waits in full unless Now is called again, so a late press never skips a
// wait the user has not seen. The zero Wake is ready to use; a nil *Wake
// (no WithWake) is never woken.
type Wake struct {
	mu    sync.Mutex
	next  uint64
	waits map[uint64]context.CancelFunc // the waits in progress
}

// Now ends every wait in progress of the Wake's turn, so each of its
// requests is sent again at once. It reports whether one was waiting.
func (w *Wake) Now() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	woke := len(w.waits) > 0
	for id, cancel := range w.waits {
		cancel()
		delete(w.waits, id)
	}
	return woke
}

// waiting is a context for one wait under ctx that Now ends; done forgets
// the wait (call it when the wait is over).
func (w *Wake) waiting(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	if w == nil {
		return ctx, cancel
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.waits == nil {
		w.waits = map[uint64]context.CancelFunc{}
	}
	id := w.next
	w.next++
	w.waits[id] = cancel
	return ctx, func() {
		w.mu.Lock()
		delete(w.waits, id)
		w.mu.Unlock()
		cancel()
	}
}

type wakeKey struct{}

// WithWake is ctx carrying w: a rate limit's wait in a Stream under it ends
// when w.Now is called.
func WithWake(ctx context.Context, w *Wake) context.Context {
	return context.WithValue(ctx, wakeKey{}, w)
}

// wakeFrom is the Wake ctx carries, nil when none.
func wakeFrom(ctx context.Context) *Wake {
	w, _ := ctx.Value(wakeKey{}).(*Wake)
	return w
}

// retryAfter reads the wait a response asks for: retry-after-ms (OpenAI),
// then Retry-After in seconds or as an HTTP date.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && !math.IsInf(ms, 0) {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 && !math.IsInf(s, 0) {
		// Guard the conversion: a huge value must stay huge, not wrap.
		if s > float64(math.MaxInt64/int64(time.Second)) {
			return time.Duration(math.MaxInt64), true
		}
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// stream is every provider's Stream: the request checked, its tool names
// fitted to the provider's limit, then once (one streamed request) run
// with withRetries, and the error settled into an *Error.
func stream(ctx context.Context, name string, req Request, on func(Event), nameLimit int, retryable func(status int) bool,
	once func(names *toolNames, on func(Event)) (Response, error)) (Response, error) {
	if on == nil {
		on = func(Event) {}
	}
	if err := checkRequest(req); err != nil {
		return Response{}, &Error{Provider: name, Op: opStream, Model: req.Model, Err: err}
	}
	names := newToolNames(nameLimit, req)
	resp, err := withRetries(ctx, name, retryable, on, func() (Response, error) { return once(names, on) })
	err = settle(ctx, name, opStream, req.Model, err)
	var e *Error
	if errors.As(err, &e) && e.Status >= 400 && e.Status < 500 && e.Status != http.StatusTooManyRequests {
		if t, ok := refusedTool(req, names, e.Message); ok {
			e.Tool, e.ToolServer = t.Name, t.Server
		}
	}
	return resp, err
}
