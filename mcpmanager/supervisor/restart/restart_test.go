package restart_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/supervisor/restart"
)

// The waits double up to Max, a stable run resets the attempts and the
// wait, and Failed's give-up returns the run's error.
func TestBackoffAndReset(t *testing.T) {
	var attempts []int
	var waits []time.Duration
	boom := errors.New("boom")
	last := time.Now()
	runs := 0
	l := restart.Loop{Delay: time.Millisecond, Max: 4 * time.Millisecond, StableAfter: time.Hour,
		Once: func(_ context.Context, n int) (time.Time, error) {
			waits = append(waits, time.Since(last))
			runs++
			attempts = append(attempts, n)
			defer func() { last = time.Now() }()
			if runs == 4 {
				return time.Now().Add(-2 * time.Hour), boom // a run that was up long enough
			}
			return time.Time{}, boom
		},
		Failed: func(err error, _ time.Time, n int) bool { return n >= 3 },
	}
	if err := l.Run(t.Context()); !errors.Is(err, boom) {
		t.Fatalf("Run = %v, want the last run's error", err)
	}
	if want := []int{0, 1, 2, 3, 1, 2, 3}; !slices.Equal(attempts, want) {
		t.Errorf("attempts = %v, want %v (counted again from 0 after the stable fourth run)", attempts, want)
	}
	// Waits before runs 2…: 1, 2, 4, (reset) 1, 2, 4 ms at least.
	for i, min := range []time.Duration{1, 2, 4, 1, 2, 4} {
		if w := waits[i+1]; w < min*time.Millisecond {
			t.Errorf("wait before run %d = %v, want at least %v", i+2, w, min*time.Millisecond)
		}
	}
}

// A context that ends during a wait stops the loop with nil, and Stopped
// is told once.
func TestStopsDuringTheWait(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	stopped := 0
	l := restart.Loop{Delay: time.Hour, Max: time.Hour,
		Once:    func(context.Context, int) (time.Time, error) { return time.Time{}, errors.New("down") },
		Failed:  func(error, time.Time, int) bool { cancel(); return false },
		Stopped: func() { stopped++ },
	}
	if err := l.Run(ctx); err != nil || stopped != 1 {
		t.Fatalf("Run = %v with Stopped told %d times, want nil and once", err, stopped)
	}
}

// A context that ends during a run stops the loop with nil without asking
// Failed.
func TestStopsAfterARun(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	stopped := 0
	l := restart.Loop{Delay: time.Millisecond, Max: time.Millisecond,
		Once:    func(context.Context, int) (time.Time, error) { cancel(); return time.Now(), errors.New("stopped") },
		Failed:  func(error, time.Time, int) bool { t.Error("Failed asked after ctx ended"); return true },
		Stopped: func() { stopped++ },
	}
	if err := l.Run(ctx); err != nil || stopped != 1 {
		t.Fatalf("Run = %v with Stopped told %d times, want nil and once", err, stopped)
	}
}
