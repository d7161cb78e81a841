package supervisor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/process"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

var faultServer string

func TestMain(m *testing.M) {
	process.StopGrace, process.TermGrace, process.KillGrace = 300*time.Millisecond, 300*time.Millisecond, 2*time.Second
	DefaultRestartDelay = 20 * time.Millisecond
	proctest.Main(m, &faultServer)
}

// recorder collects status changes and lets a test wait for a state.
type recorder struct {
	mu     sync.Mutex
	states []State
	cond   chan struct{}
}

func newRecorder() *recorder { return &recorder{cond: make(chan struct{}, 1)} }

func (r *recorder) on(st Status) {
	r.mu.Lock()
	if n := len(r.states); n == 0 || r.states[n-1] != st.State {
		r.states = append(r.states, st.State)
	}
	r.mu.Unlock()
	select {
	case r.cond <- struct{}{}:
	default:
	}
}

func (r *recorder) seen() []State {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]State(nil), r.states...)
}

func waitState(t *testing.T, s *Server, want State, within time.Duration) Status {
	t.Helper()
	var st Status
	mcptest.Within(t, within, fmt.Sprintf("%s to be %s", s.Name(), want), func() error {
		if st = s.Status(); st.State != want {
			return fmt.Errorf("state %s (error: %s)", st.State, st.Error)
		}
		return nil
	})
	return st
}

// start runs a supervised testserver in a fault mode; wait returns Run's result (once ctx
// is cancelled at cleanup, or earlier when Run gives up).
func start(t *testing.T, mode string, mut func(*Spec)) (s *Server, rec *recorder, wait func(time.Duration) (error, bool)) {
	t.Helper()
	spec := Spec{
		Name:         mode,
		Process:      process.Spec{Command: faultServer, Args: []string{"-mode", mode}, Env: os.Environ()},
		StartTimeout: 5 * time.Second,
		Restart:      Restart{MaxAttempts: 2},
		LogPath:      filepath.Join(t.TempDir(), mode+".log"),
	}
	if mut != nil {
		mut(&spec)
	}
	rec = newRecorder()
	s, err := New(spec, Options{OnStatus: rec.on})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	var runErr error
	go func() { runErr = s.Run(ctx); close(done) }()
	wait = func(d time.Duration) (error, bool) {
		select {
		case <-done:
			return runErr, true
		case <-time.After(d):
			return nil, false
		}
	}
	t.Cleanup(func() {
		cancel()
		if _, ok := wait(10 * time.Second); !ok {
			t.Error("Run did not return after cancel")
		}
	})
	return s, rec, wait
}

func echo(ctx context.Context, s *Server, text string) (string, error) {
	cl, err := s.Client()
	if err != nil {
		return "", err
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "echo"
	req.Params.Arguments = map[string]any{"text": text}
	res, err := cl.CallTool(ctx, req)
	if err != nil {
		return "", err
	}
	return res.Content[0].(mcp.TextContent).Text, nil
}

func TestHealthyServerServes(t *testing.T) {
	for _, mode := range []string{"ok", "garbage", "stderr-flood"} {
		t.Run(mode, func(t *testing.T) {
			s, _, _ := start(t, mode, nil)
			st := waitState(t, s, Ready, 10*time.Second)
			if st.ServerInfo.Name != "faultserver" || st.PID == 0 {
				t.Fatalf("status %+v", st)
			}
			for i := range 20 {
				want := fmt.Sprintf("hi %s %d", mode, i)
				if got, err := echo(t.Context(), s, want); err != nil || got != want {
					t.Fatalf("echo = %q, %v", got, err)
				}
			}
			// What it printed to stdout besides MCP is in its log.
			if log := s.Log().TailString(50); mode == "garbage" && !strings.Contains(log, "stdout, not MCP (ignored): this is not json") {
				t.Errorf("the log does not keep the stray stdout lines:\n%s", log)
			}
		})
	}
}

func TestStopLeavesNoProcess(t *testing.T) {
	for _, mode := range []string{"ok", "ignore-stdin"} {
		t.Run(mode, func(t *testing.T) {
			spec := Spec{Name: mode, Process: process.Spec{Command: faultServer, Args: []string{"-mode", mode}, Env: os.Environ()}}
			rec := newRecorder()
			s, err := New(spec, Options{OnStatus: rec.on})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan error, 1)
			go func() { done <- s.Run(ctx) }()
			pid := waitState(t, s, Ready, 10*time.Second).PID
			cancel()
			if err := <-done; err != nil {
				t.Fatalf("Run after cancel = %v, want nil", err)
			}
			proctest.WaitGone(t, pid)
			if st := s.Status(); st.State != Stopped {
				t.Fatalf("state %s, want stopped", st.State)
			}
			if _, err := s.Client(); !errors.Is(err, ErrNotReady) {
				t.Fatalf("Client after stop = %v, want ErrNotReady", err)
			}
			want := []State{Starting, Ready, Stopped}
			if got := rec.seen(); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("states %v, want %v", got, want)
			}
		})
	}
}

func TestFaults(t *testing.T) {
	cases := []struct {
		name     string
		mode     string
		mut      func(*Spec)
		errIs    error
		errText  string
		restarts int
	}{
		{name: "hang in initialize", mode: "hang-init", mut: func(s *Spec) { s.StartTimeout = 300 * time.Millisecond; s.Restart.Disabled = true },
			errIs: ErrTimeout, errText: "hanging before initialize"},
		{name: "crash loop", mode: "exit-init", errIs: ErrExited, errText: "missing API key FAULT_KEY", restarts: 2},
		{name: "missing path in arguments", mode: "exit-init",
			mut: func(s *Spec) {
				s.Process.Args = append(s.Process.Args, "--verbose", "--root=/tmp", "${userHome}/Projects")
				s.Restart.Disabled = true
			},
			errIs: ErrExited, errText: "exit-init: its arguments name ${userHome}/Projects, which does not exist; correct the path"},
		{name: "command not found", mode: "ok", mut: func(s *Spec) { s.Process.Command = "switchboard-no-such-npx" },
			errText: "switchboard-no-such-npx was not found: install it, or give its full path as the command in Edit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, rec, wait := start(t, c.mode, c.mut)
			err, ok := wait(15 * time.Second)
			if !ok {
				t.Fatalf("Run did not give up; state %s", s.Status().State)
			}
			if c.errIs != nil && !errors.Is(err, c.errIs) {
				t.Errorf("Run = %v, want %v", err, c.errIs)
			}
			st := s.Status()
			if st.State != Error || !strings.Contains(st.Error, c.errText) {
				t.Errorf("status %s %q, want error containing %q", st.State, st.Error, c.errText)
			}
			if !strings.HasPrefix(st.Error, c.mode+":") && !strings.HasPrefix(st.Error, "ok:") {
				t.Errorf("error %q should name the server", st.Error)
			}
			if st.Restarts != c.restarts {
				t.Errorf("restarts %d, want %d (states %v)", st.Restarts, c.restarts, rec.seen())
			}
			if _, err := s.Client(); !errors.Is(err, ErrNotReady) || !strings.Contains(err.Error(), c.errText) {
				t.Errorf("Client() = %v", err)
			}
		})
	}
}

func TestCrashMidCallRestarts(t *testing.T) {
	s, rec, _ := start(t, "ok", nil)
	pid := waitState(t, s, Ready, 10*time.Second).PID
	cl, _ := s.Client()
	req := mcp.CallToolRequest{}
	req.Params.Name = "crash"
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if _, err := cl.CallTool(ctx, req); err == nil || ctx.Err() != nil {
		t.Fatalf("call to crashing tool = %v (ctx %v), want a prompt error", err, ctx.Err())
	}
	proctest.WaitGone(t, pid)
	// It comes back by itself, as a new process.
	deadline := time.Now().Add(10 * time.Second)
	for {
		st := s.Status()
		if st.State == Ready && st.PID != pid {
			if st.Restarts != 1 {
				t.Errorf("restarts = %d, want 1", st.Restarts)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not back: %+v (states %v)", st, rec.seen())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got, err := echo(t.Context(), s, "again"); err != nil || got != "again" {
		t.Fatalf("echo after restart = %q, %v", got, err)
	}
	if !strings.Contains(s.Log().TailString(10), "crashing mid-call") {
		t.Errorf("stderr tail lacks the crash line: %q", s.Log().TailString(10))
	}
}

func TestUnansweredPingRestarts(t *testing.T) {
	hi, ht := HealthInterval, HealthTimeout
	HealthInterval, HealthTimeout = 100*time.Millisecond, 200*time.Millisecond
	t.Cleanup(func() { HealthInterval, HealthTimeout = hi, ht })
	s, _, _ := start(t, "ok", nil)
	st := waitState(t, s, Ready, 10*time.Second)
	// Freeze the server: it stays alive but stops answering.
	if err := syscall.Kill(st.PID, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		now := s.Status()
		if now.State == Ready && now.PID != st.PID {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("frozen server not replaced: %+v", now)
		}
		time.Sleep(10 * time.Millisecond)
	}
	proctest.WaitGone(t, st.PID)
	if s.Status().Restarts != 1 {
		t.Errorf("restarts = %d, want 1", s.Status().Restarts)
	}
}
