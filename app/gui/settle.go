package gui

import (
	"context"
	"log/slog"
	"os"
	"runtime/debug"
	"time"
)

// Once the window is on screen and the app has gone quiet, it gives back the
// memory only start-up needed: the Go heap's free pages (debug.FreeOSMemory)
// and, on Linux, the pages of its own binary that start-up mapped (every
// package's initialisation, the built-ins' start, and the kernel's
// fault-around mapping whole neighbourhoods of them: about 80 MB of a
// 95 MB binary, of which an idle window uses a few MB). Those pages leave
// the kernel's page cache too where it can (releaseStartupPages says why)
// and are read back from the file when the code runs again. The log line
// "memory settled" says what was given back; the
// window's memory benchmarks read after it, and compare with a window run
// with SWITCHBOARD_SETTLE=off, which keeps everything.
//
// Chat turns bring those pages back (the code that streams, renders and
// stores a turn runs again) and leave garbage in the Go heap, so the app
// settles again once turns are over and it has been quiet for a few seconds
// (see settler): at most once per burst of turns, and never while it works.

const (
	// settleQuiet is the CPU time a second under which the app is quiet (2 %).
	settleQuiet = 20 * time.Millisecond
	// settleQuietTicks is how many quiet seconds in a row after chat turns
	// the app waits before settling again: a person reading the answer,
	// not a pause between two steps of a turn.
	settleQuietTicks = 3
	// settleWithin is how long after the first render the app settles at the
	// latest, quiet or not (30 servers starting keep it busy for a while).
	settleWithin = 30 * time.Second
)

// settleAfterStart waits for the first render and then for a quiet second,
// and gives back what start-up needed.
func (a *Window) settleAfterStart() {
	if os.Getenv("SWITCHBOARD_SETTLE") == "off" {
		return
	}
	select {
	case <-a.shown:
	case <-a.life.Done():
		return
	}
	deadline := time.Now().Add(settleWithin)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	last := cpuTime()
	for {
		select {
		case <-a.life.Done():
			return
		case <-tick.C:
		}
		now := cpuTime()
		if now-last < settleQuiet || time.Now().After(deadline) {
			break
		}
		last = now
	}
	settleNow("start-up", a.started)
}

// settleNow gives back the Go heap's free pages and the binary's resident
// pages, and logs "memory settled" (after says what it followed).
func settleNow(after string, started time.Time) {
	debug.FreeOSMemory()
	kb, err := releaseStartupPages()
	if err != nil {
		slog.Warn("memory settled: the binary's start-up pages stay mapped", "err", err)
	}
	slog.Info("memory settled", "after", after, "binaryPagesReleasedKB", kb, "sinceStart", time.Since(started).Round(time.Millisecond))
}

// settler settles the app again after chat turns: turnStarted is told of
// each turn, and once one has started run waits for settleQuietTicks quiet
// seconds in a row (the process's CPU time, sampled each second, grew by
// under settleQuiet; a new turn starts the count again) and calls settle,
// once. The next settle needs another turn, so an idle app is not woken
// for nothing.
type settler struct {
	turned chan struct{} // a turn started since run last looked (buffered, 1)
	settle func()
}

func newSettler(settle func()) *settler {
	return &settler{turned: make(chan struct{}, 1), settle: settle}
}

// turnStarted tells the settler a turn started (it never blocks).
func (s *settler) turnStarted() {
	if s == nil {
		return
	}
	select {
	case s.turned <- struct{}{}:
	default:
	}
}

// run settles after each burst of turns until ctx ends; cpu brings the
// process's CPU time once a second.
func (s *settler) run(ctx context.Context, cpu <-chan time.Duration) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.turned:
		}
		if !s.untilQuiet(ctx, cpu) {
			return
		}
		s.settle()
	}
}

// untilQuiet waits for settleQuietTicks quiet seconds in a row (false when
// ctx ends first). The first sample is where the count starts from.
func (s *settler) untilQuiet(ctx context.Context, cpu <-chan time.Duration) bool {
	last := time.Duration(-1)
	for quiet := 0; quiet < settleQuietTicks; {
		select {
		case <-ctx.Done():
			return false
		case <-s.turned:
			quiet = 0 // another turn: count again from here
		case now := <-cpu:
			if last >= 0 && now-last < settleQuiet {
				quiet++
			} else {
				quiet = 0
			}
			last = now
		}
	}
	return true
}

// settleAfterTurns runs the window's settler (unless SWITCHBOARD_SETTLE=off).
func (a *Window) settleAfterTurns() {
	if os.Getenv("SWITCHBOARD_SETTLE") == "off" || a.settler == nil {
		return
	}
	// The sampler parks on its send while the settler waits for a turn,
	// so an idle app is not woken each second: a second after each sample
	// is taken, the next is. The first sample after a turn may be stale,
	// which untilQuiet takes as where its count starts.
	cpu := make(chan time.Duration)
	go func() {
		for {
			select {
			case <-a.life.Done():
				return
			case cpu <- cpuTime():
			}
			select {
			case <-a.life.Done():
				return
			case <-time.After(time.Second):
			}
		}
	}()
	a.settler.run(a.life, cpu)
}
