package provider_test

import (
	"context"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

// streamResult is what one Stream call returned.
type streamResult struct {
	text string
	err  error
}

// TestWakeEndsTheRateLimitWait: "Retry now" during a 50 s Retry-After
// sends the request again at once, for every request of the turn waiting
// (delegated sub-agents wait in parallel). The real wait runs: the test
// fails by its deadline if Now does not end it.
func TestWakeEndsTheRateLimitWait(t *testing.T) {
	cases := []struct {
		name    string
		streams int
	}{
		{"one request", 1},
		{"two requests waiting at once", 2},
	}
	for _, tc := range cases {
		forEachKind(t, func(t *testing.T, kind provider.Kind) {
			t.Run(tc.name, func(t *testing.T) {
				s, p := newProvider(t, kind)
				for range tc.streams {
					s.Enqueue(providertest.Reply{Status: 429, RetryAfter: "50"})
				}
				for range tc.streams {
					s.Enqueue(providertest.Reply{Text: "answered"})
				}
				w := &provider.Wake{}
				ctx := provider.WithWake(t.Context(), w)
				waiting := make(chan time.Duration, tc.streams)
				done := make(chan streamResult, tc.streams)
				for range tc.streams {
					go func() {
						resp, err := p.Stream(ctx, userTurn("hi"), func(ev provider.Event) {
							if ev.Kind == provider.EventRetry {
								waiting <- ev.After
							}
						})
						done <- streamResult{resp.Text, err}
					}()
				}
				for range tc.streams {
					if after := <-waiting; after != 50*time.Second {
						t.Fatalf("wait announced %v, want the Retry-After's 50s", after)
					}
				}
				if !w.Now() {
					t.Fatal("Now found no wait in progress")
				}
				woken := time.Now()
				for range tc.streams {
					r := <-done
					if r.err != nil || r.text != "answered" {
						t.Fatalf("after Now: %q, %v; want the retried answer", r.text, r.err)
					}
				}
				if d := time.Since(woken); d > 25*time.Second {
					t.Fatalf("the request went again %v after Now; want at once, not after the 50 s wait", d)
				}
				if w.Now() {
					t.Error("Now after the retries found a wait still in progress")
				}
			})
		})
	}
}

// TestWakeSkipsNoLaterWait: a Now with no wait in progress (a late press)
// leaves the next rate limit's wait whole.
func TestWakeSkipsNoLaterWait(t *testing.T) {
	s, p := newProvider(t, provider.KindOpenAI)
	s.Enqueue(providertest.Reply{Status: 429, RetryAfter: "5"}, providertest.Reply{Text: "ok"})
	cutShort := false
	provider.SetSleep(t, func(ctx context.Context, d time.Duration) error {
		cutShort = ctx.Err() != nil
		return nil
	})
	w := &provider.Wake{}
	if w.Now() {
		t.Fatal("Now reported a wait before any request")
	}
	if _, err := p.Stream(provider.WithWake(t.Context(), w), userTurn("hi"), nil); err != nil {
		t.Fatal(err)
	}
	if cutShort {
		t.Error("a Now before the wait began cut the wait short")
	}
}
