package provider

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
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
		on(Event{Kind: EventRetry, Attempt: attempt + 1, After: wait, Err: rl})
		if err := sleep(ctx, wait); err != nil {
			return resp, &Error{Provider: name, Op: opStream, Err: err}
		}
	}
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
