// Package restart is the one loop that keeps a supervised thing running:
// each MCP server (package supervisor) and the model on this computer
// (app/localmodel). Run starts it, and after each failure starts it again
// after a wait that begins at Delay and doubles up to Max; a run that
// stayed up for StableAfter starts the count and the wait over. The caller
// keeps its own states: the loop tells it how each run ended and when the
// context stopped it.
//
//	l := restart.Loop{Delay: time.Second, Max: 30 * time.Second, StableAfter: time.Minute,
//		Once:    func(ctx context.Context, attempts int) (time.Time, error) { return serve(ctx) },
//		Failed:  func(err error, up time.Time, attempts int) bool { return attempts >= 5 },
//		Stopped: func() { setState("stopped") },
//	}
//	err := l.Run(ctx) // nil once ctx ends; the last error when Failed gave up
package restart

import (
	"context"
	"time"
)

// Loop is a restart policy and the thing it keeps up. Once and Failed are
// required.
type Loop struct {
	// Delay is the first wait before a restart; it doubles up to Max.
	Delay, Max time.Duration
	// StableAfter: a run up for this long resets the attempts and the wait.
	StableAfter time.Duration
	// Once runs the thing once and returns when it ended: up is since when
	// it counts as up (zero: it never came up), err why it ended. attempts
	// is the number of restarts since the last stable run (0 at the first).
	Once func(ctx context.Context, attempts int) (up time.Time, err error)
	// Failed is told how a run ended while ctx is still live, with the
	// attempts so far (after a stable run's reset). true gives up: Run
	// returns err. false restarts after the wait, which the caller shows.
	Failed func(err error, up time.Time, attempts int) (giveUp bool)
	// Stopped, when set, is called once ctx ended, after a run or during
	// a wait.
	Stopped func()
}

// Run keeps the thing up until ctx ends, then returns nil; it returns the
// last run's error when Failed gives up.
func (l Loop) Run(ctx context.Context) error {
	attempts, delay := 0, l.Delay
	for {
		up, err := l.Once(ctx, attempts)
		if ctx.Err() != nil {
			l.stopped()
			return nil
		}
		if !up.IsZero() && time.Since(up) >= l.StableAfter {
			attempts, delay = 0, l.Delay
		}
		if l.Failed(err, up, attempts) {
			return err
		}
		attempts++
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			l.stopped()
			return nil
		case <-t.C:
		}
		delay = min(delay*2, l.Max)
	}
}

func (l Loop) stopped() {
	if l.Stopped != nil {
		l.Stopped()
	}
}
