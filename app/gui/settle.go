package gui

import (
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
// 95 MB binary, of which an idle window uses a few MB). Those pages stay in
// the kernel's page cache and come back on a minor fault when the code runs
// again. The log line "memory settled" says what was given back; the
// window's memory benchmarks read after it, and compare with a window run
// with SWITCHBOARD_SETTLE=off, which keeps everything.

const (
	// settleQuiet is the CPU time a second under which the app is quiet (2 %).
	settleQuiet = 20 * time.Millisecond
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
	debug.FreeOSMemory()
	kb, err := releaseStartupPages()
	if err != nil {
		slog.Warn("memory settled: the binary's start-up pages stay mapped", "err", err)
	}
	slog.Info("memory settled", "binaryPagesReleasedKB", kb, "sinceStart", time.Since(a.started).Round(time.Millisecond))
}
