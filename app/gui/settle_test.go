package gui

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// fakeCPU drives a settler: each second is a sample of the process's CPU
// time, which grew (busy) or not since the last.
type fakeCPU struct {
	samples chan time.Duration
	total   time.Duration
	settled chan struct{}
}

func startSettler(t *testing.T) (*settler, *fakeCPU) {
	t.Helper()
	c := &fakeCPU{samples: make(chan time.Duration), settled: make(chan struct{}, 10)}
	s := newSettler(func() { c.settled <- struct{}{} })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.run(ctx, c.samples) }()
	t.Cleanup(func() { cancel(); <-done })
	return s, c
}

// second hands the settler one second's sample; the channel is unbuffered,
// so the settler has it when second returns, and settles only on taking
// one: settles is never behind what the test sent.
func (c *fakeCPU) second(t *testing.T, busy bool) {
	t.Helper()
	if busy {
		c.total += 100 * time.Millisecond
	}
	select {
	case c.samples <- c.total:
	case <-time.After(5 * time.Second):
		t.Fatalf("the settler took no sample (settled %d times)", c.settles())
	}
}

func (c *fakeCPU) settles() int { return len(c.settled) }

// turn tells s a turn started, and returns once s took the news (so the
// next sample comes after it).
func turn(s *settler) {
	s.turnStarted()
	for len(s.turned) > 0 {
		runtime.Gosched()
	}
}

func (c *fakeCPU) awaitSettle(t *testing.T, what string) {
	t.Helper()
	select {
	case <-c.settled:
	case <-time.After(10 * time.Second):
		t.Fatal(what)
	}
}

func TestSettlesOnceAfterTurnsOnceQuiet(t *testing.T) {
	s, c := startSettler(t)
	turn(s)
	for range 5 { // the turn runs
		c.second(t, true)
	}
	for range settleQuietTicks - 1 {
		c.second(t, false)
	}
	if n := c.settles(); n != 0 {
		t.Fatalf("settled %d times before %d quiet seconds", n, settleQuietTicks)
	}
	c.second(t, false)
	c.awaitSettle(t, "not settled after the quiet seconds")
	// Quiet on: the settler takes no more samples until another turn.
	select {
	case c.samples <- c.total:
		t.Fatal("the settler went on sampling after it settled, with no turn since")
	case <-time.After(50 * time.Millisecond):
	}
	turn(s)
	c.second(t, false) // where the count starts
	for range settleQuietTicks - 1 {
		c.second(t, false)
	}
	if n := c.settles(); n != 0 {
		t.Fatalf("settled %d more times before %d quiet seconds after the next turn", n, settleQuietTicks)
	}
	c.second(t, false)
	c.awaitSettle(t, "not settled again after the next turn went quiet")
}

func TestNoSettleWithoutATurnOrWhileBusy(t *testing.T) {
	s, c := startSettler(t)
	// Idle, no turn: the start-up settle was enough, and the settler does
	// not even take the samples.
	select {
	case c.samples <- c.total:
		t.Fatal("the settler took a sample before any turn")
	case <-time.After(50 * time.Millisecond):
	}
	turn(s)
	for i := range 4 * settleQuietTicks { // quiet seconds, never enough in a row
		c.second(t, i%settleQuietTicks == settleQuietTicks-1)
	}
	if n := c.settles(); n != 0 {
		t.Fatalf("settled %d times while busy every %d seconds", n, settleQuietTicks)
	}
	// A new turn in the middle of a quiet spell counts again from there.
	for range settleQuietTicks - 1 {
		c.second(t, false)
	}
	turn(s)
	for range settleQuietTicks - 1 {
		c.second(t, false)
	}
	if n := c.settles(); n != 0 {
		t.Fatalf("settled %d times: a turn within the quiet seconds must count them again", n)
	}
	c.second(t, false)
	c.awaitSettle(t, "not settled once the quiet seconds after the last turn were enough")
}

func TestTurnStartedOnNoSettlerDoesNothing(t *testing.T) {
	var s *settler
	s.turnStarted() // pages built without New have none
}
