package router

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// flaky is a server whose tools/list fails as fail says for the call
// numbered n (from 1): an error, or no answer until the listing gives up
// (ListTimeout); other calls list "echo" with ttlMs 0 and no change
// notices, as the built-ins (2026-07-28 mcp-go servers) do.
type flaky struct {
	Client
	fail  func(n int64) string // "", "error" or "hang"
	calls atomic.Int64
}

func (f *flaky) ListTools(ctx context.Context, _ mcp.ListToolsRequest) (*mcp.ListToolsResult, error) {
	switch f.fail(f.calls.Add(1)) {
	case "error":
		return nil, errors.New("transport: the server is busy")
	case "hang":
		<-ctx.Done()
		return nil, ctx.Err()
	}
	res := page("", "echo")
	res.TTLMs = new(int64)
	return res, nil
}

func (f *flaky) GetServerCapabilities() mcp.ServerCapabilities {
	return mcp.ServerCapabilities{Tools: &struct {
		ListChanged bool `json:"listChanged,omitempty"`
	}{}}
}

type flakySrc struct{ cl *flaky }

func (s flakySrc) Name() string               { return "builtin" }
func (s flakySrc) CallTimeout() time.Duration { return 0 }
func (s flakySrc) Client() (Client, error)    { return s.cl, nil }

// TestFailedListRelisted: a tools/list that fails or times out leaves the
// server out of that listing only. The subscribers are told to list again
// a moment later (a server that never changes, such as a built-in, would
// otherwise stay out of the gateway's tools), and that listing has its
// tools. A list that went stale (ttlMs 0, no change notices) and fails
// when asked again is kept meanwhile: the server's tools never leave.
func TestFailedListRelisted(t *testing.T) {
	oldWait, oldList, oldTTL := RelistWait, ListTimeout, ZeroTTLRefresh
	RelistWait, ListTimeout, ZeroTTLRefresh = time.Millisecond, 50*time.Millisecond, time.Minute
	clock := time.Now()
	now = func() time.Time { return clock }
	t.Cleanup(func() { RelistWait, ListTimeout, ZeroTTLRefresh, now = oldWait, oldList, oldTTL, time.Now })
	for _, c := range []struct {
		name      string
		fail      func(n int64) string
		stale     bool // the first list comes; the second, asked once it is stale, fails
		wantFirst []string
	}{
		{"first list fails", func(n int64) string { return map[int64]string{1: "error"}[n] }, false, nil},
		{"first list times out", func(n int64) string { return map[int64]string{1: "hang"}[n] }, false, nil},
		{"fails twice in a row", func(n int64) string { return map[int64]string{1: "error", 2: "error"}[n] }, false, nil},
		{"stale list fails when asked again", func(n int64) string { return map[int64]string{2: "error"}[n] }, true, []string{"builtin__echo"}},
		{"stale list times out when asked again", func(n int64) string { return map[int64]string{2: "hang"}[n] }, true, []string{"builtin__echo"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &flaky{fail: c.fail}
			r := New(Options{})
			r.Add(flakySrc{f})
			changes, stop := r.Subscribe()
			defer stop()
			if c.stale {
				if got := listedNames(r.Tools(t.Context())); !slices.Equal(got, []string{"builtin__echo"}) {
					t.Fatalf("first listing = %v", got)
				}
				clock = clock.Add(2 * ZeroTTLRefresh)
			}
			drain(changes) // Add's own signal
			if got, errs := r.Tools(t.Context()); !slices.Equal(listedNames(got, errs), c.wantFirst) {
				t.Fatalf("listing that failed = %v %v, want %v", listedNames(got, errs), errs, c.wantFirst)
			}
			// The subscribers hear to list again, as often as it fails,
			// until it lists.
			for deadline := time.After(10 * time.Second); ; {
				select {
				case <-changes:
				case <-deadline:
					t.Fatalf("no signal to list again after %d listings", f.calls.Load())
				}
				if got := listedNames(r.Tools(t.Context())); slices.Equal(got, []string{"builtin__echo"}) && f.calls.Load() > 1 {
					break
				}
			}
		})
	}
}

// listedNames are the exposed names of a listing.
func listedNames(tools []Tool, _ []ServerError) []string {
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	return names
}

// drain empties a Subscribe channel.
func drain(ch <-chan struct{}) {
	select {
	case <-ch:
	default:
	}
}

// A server removed while its failed list waits to be asked again leaves
// no record of its failures behind: the router holds none for servers it
// no longer has.
func TestRelistForgetsARemovedServer(t *testing.T) {
	oldWait := RelistWait
	RelistWait = time.Millisecond
	t.Cleanup(func() { RelistWait = oldWait })
	r := New(Options{})
	r.Add(flakySrc{&flaky{fail: func(int64) string { return "error" }}})
	if got := listedNames(r.Tools(t.Context())); len(got) != 0 {
		t.Fatalf("a failing list gave %v", got)
	}
	r.Remove("builtin")
	records := func() int {
		r.mu.Lock()
		defer r.mu.Unlock()
		return len(r.relists)
	}
	for deadline := time.Now().Add(10 * time.Second); records() != 0; {
		if time.Now().After(deadline) {
			t.Fatalf("%d relist records kept for a removed server", records())
		}
		time.Sleep(time.Millisecond) // polling the timer's effect, with a deadline
	}
}
