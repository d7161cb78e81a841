package mcptest_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
)

// fake is a testing.TB whose Fatalf records its message and ends the
// goroutine (as the real one does), and whose deadline the test sets.
type fake struct {
	testing.TB
	ctx      context.Context
	deadline time.Time
	fatal    string
}

func (f *fake) Helper()                     {}
func (f *fake) Context() context.Context    { return f.ctx }
func (f *fake) Deadline() (time.Time, bool) { return f.deadline, !f.deadline.IsZero() }
func (f *fake) Fatalf(format string, args ...any) {
	f.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// run runs body with f in a goroutine of its own, as a test runs, and
// returns when body returns or fails.
func (f *fake) run(body func(testing.TB)) {
	done := make(chan struct{})
	go func() { defer close(done); body(f) }()
	<-done
}

func TestUntilReturnsOnceTheConditionHolds(t *testing.T) {
	var n atomic.Int32
	mcptest.Until(t, "three looks", func() bool { return n.Add(1) >= 3 })
	if n.Load() != 3 {
		t.Fatalf("looked %d times, want 3", n.Load())
	}
}

func TestUntilSaysWhatItWaitedForAtTheDeadline(t *testing.T) {
	f := &fake{TB: t, ctx: t.Context(), deadline: time.Now().Add(200 * time.Millisecond)}
	start := time.Now()
	f.run(func(tb testing.TB) { mcptest.Until(tb, "the moon to turn blue", func() bool { return false }) })
	if !strings.Contains(f.fatal, "waited for the moon to turn blue") {
		t.Fatalf("failure = %q, want it to name what it waited for", f.fatal)
	}
	// It gives up before the deadline (half the time left, when short).
	if took := time.Since(start); took > 200*time.Millisecond {
		t.Fatalf("gave up after %v, after the test's deadline", took)
	}
}

func TestUntilNilReportsTheLastReason(t *testing.T) {
	f := &fake{TB: t, ctx: t.Context(), deadline: time.Now().Add(100 * time.Millisecond)}
	f.run(func(tb testing.TB) {
		mcptest.UntilNil(tb, "the file", func() error { return errors.New("no such file") })
	})
	if !strings.Contains(f.fatal, "waited for the file: no such file") {
		t.Fatalf("failure = %q", f.fatal)
	}
}

func TestUntilEndsWithTheTestsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	f := &fake{TB: t, ctx: ctx}
	time.AfterFunc(50*time.Millisecond, cancel)
	f.run(func(tb testing.TB) { mcptest.Until(tb, "nothing", func() bool { return false }) })
	if !strings.Contains(f.fatal, "waited for nothing: context canceled") {
		t.Fatalf("failure = %q", f.fatal)
	}
}

func TestWithinBoundsTheWait(t *testing.T) {
	f := &fake{TB: t, ctx: t.Context()}
	f.run(func(tb testing.TB) {
		mcptest.Within(tb, 50*time.Millisecond, "a stop", func() error { return errors.New("pid 7 runs") })
	})
	if !strings.Contains(f.fatal, "waited 50ms for a stop: pid 7 runs") {
		t.Fatalf("failure = %q", f.fatal)
	}
}

func TestCallFailsOnAProtocolError(t *testing.T) {
	cl := mcptest.Connect(t, greeter())
	f := &fake{TB: t, ctx: t.Context()}
	f.run(func(tb testing.TB) { mcptest.Call(tb, cl, "no_such_tool", nil) })
	if !strings.Contains(f.fatal, "call no_such_tool: protocol error") {
		t.Fatalf("failure = %q", f.fatal)
	}
}

func TestConnectOptions(t *testing.T) {
	cl, init := mcptest.ConnectResult(t, greeter(), mcptest.Protocol("2025-06-18"))
	if init.ServerInfo.Name != "greeter" || init.ProtocolVersion != "2025-06-18" {
		t.Fatalf("initialize = %+v", init)
	}
	if _, text := mcptest.Call(t, cl, "greet", map[string]any{"name": "Bo"}); text != "Hello,\nBo!" {
		t.Fatalf("text = %q", text)
	}
}
