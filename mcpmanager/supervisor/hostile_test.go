package supervisor

import (
	"context"
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/process"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// smallLimit makes every message bound 1 MB for one test.
func smallLimit(t *testing.T) {
	t.Helper()
	old := wire.MaxMessageBytes
	wire.MaxMessageBytes = 1 << 20
	t.Cleanup(func() { wire.MaxMessageBytes = old })
}

// TestHostileStdio: a stdio server cannot make the host buffer an endless
// message, and a timeout says what the server had sent.
func TestHostileStdio(t *testing.T) {
	bin := faultServer // the testserver: its -mode picks the attack
	hostile := func(mode string, bytes int, timeout time.Duration) func(*Spec) {
		return func(sp *Spec) {
			sp.Process = process.Spec{Command: bin, Args: []string{"-mode", mode, "-bytes", strconv.Itoa(bytes)}}
			sp.Restart = Restart{Disabled: true}
			sp.StartTimeout = timeout
		}
	}

	t.Run("a huge line at start fails the server, naming the limit, with bounded memory", func(t *testing.T) {
		smallLimit(t)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s, _, wait := start(t, "huge-line", hostile("huge-line", 32<<20, 5*time.Second))
		st := waitState(t, s, Error, 10*time.Second)
		runtime.ReadMemStats(&after)
		if !strings.HasPrefix(st.Error, "huge-line: ") || !strings.Contains(st.Error, "1 MB limit") || strings.Contains(st.Error, "handshake in time") {
			t.Errorf("error %q, want it to name the server and the 1 MB limit", st.Error)
		}
		if err, done := wait(10 * time.Second); !done || !errors.Is(err, wire.ErrTooLarge) {
			t.Errorf("Run returned %v (%v), want ErrTooLarge", err, done)
		}
		// Reading the 32 MB line whole would allocate it (twice over, as
		// bufio grows); bounded reading keeps to about the limit.
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
			t.Errorf("%d MB allocated while refusing a 32 MB line", alloc>>20)
		}
	})

	t.Run("a huge result fails the call and the server", func(t *testing.T) {
		smallLimit(t)
		s, _, wait := start(t, "huge-result", hostile("huge-result", 8<<20, 5*time.Second))
		st := waitState(t, s, Ready, 10*time.Second)
		_, _, err := callTool(t.Context(), s, "big")
		if !errors.Is(err, wire.ErrTooLarge) || !strings.Contains(err.Error(), "1 MB limit") {
			t.Fatalf("call: %v, want it to fail naming the 1 MB limit", err)
		}
		st = waitState(t, s, Error, 10*time.Second)
		if !strings.Contains(st.Error, "huge-result: ") || !strings.Contains(st.Error, "1 MB limit") {
			t.Errorf("error %q", st.Error)
		}
		if _, done := wait(10 * time.Second); !done {
			t.Fatal("Run did not return")
		}
		proctest.WaitGone(t, st.PID)
	})

	t.Run("an initialize timeout says what was pending", func(t *testing.T) {
		s, _, _ := start(t, "partial", hostile("partial", 40, time.Second))
		st := waitState(t, s, Error, 10*time.Second)
		if !strings.Contains(st.Error, "did not finish the MCP handshake in time (1s): no complete message after 1") || !strings.Contains(st.Error, ", 40 bytes pending") {
			t.Errorf("error %q, want it to say no complete message came and 40 bytes are pending", st.Error)
		}
	})

	t.Run("a call timeout says what was pending", func(t *testing.T) {
		s, _, _ := start(t, "slow-result", hostile("slow-result", 100, 5*time.Second))
		waitState(t, s, Ready, 10*time.Second)
		ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
		defer cancel()
		_, _, err := callTool(ctx, s, "big")
		var se *wire.StallError
		if !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &se) || !strings.Contains(err.Error(), "no complete message after ") || se.Pending != 100 {
			t.Fatalf("call: %v, want a timeout saying 100 bytes are pending", err)
		}
	})
}
