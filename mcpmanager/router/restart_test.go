package router

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
)

// notReady has the shape of the supervisor's NotReadyError, which the
// router cannot import (the supervisor imports the router): the server's
// state and its last error.
type notReady struct {
	Server, State, Reason string
}

func (e *notReady) Error() string { return e.Reason }

func (e *notReady) Restarting() bool { return e.State == "restarting" }

// restarter is a Source whose server can crash and come back: while down,
// Client fails with a notReady in the state set.
type restarter struct {
	name    string
	timeout time.Duration
	mu      sync.Mutex
	cl      *client.Client
	down    *notReady
}

func (s *restarter) Name() string               { return s.name }
func (s *restarter) CallTimeout() time.Duration { return s.timeout }
func (s *restarter) Client() (Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down != nil {
		return nil, s.down
	}
	return s.cl, nil
}

// set puts the server in state (with reason), or back up for "", and
// tells the router, as the manager does at each change of state.
func (s *restarter) set(r *Router, state, reason string) {
	s.mu.Lock()
	s.down = nil
	if state != "" {
		s.down = &notReady{Server: s.name, State: state, Reason: reason}
	}
	s.mu.Unlock()
	r.Invalidate(s.name)
}

// waiting reports whether a call waits on the router's changes.
func waiting(r *Router) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.subs) > 0
}

func toolNames(t *testing.T, r *Router) ([]string, []ServerError) {
	t.Helper()
	tools, errs := r.Tools(t.Context())
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
	}
	return names, errs
}

// TestRestartKeepsToolsAndCallsWait: while a server that ran restarts
// (the supervisor brings a crashed one back), its tools stay listed and a
// call of one waits for it and then runs; a tool it did not have fails at
// once; once the server is given up, its tools go and calls fail with its
// error at once.
func TestRestartKeepsToolsAndCallsWait(t *testing.T) {
	r := New(Options{})
	s := &restarter{name: "a", cl: inProcess(t, "echo")}
	r.Add(s)
	if names, errs := toolNames(t, r); !slices.Equal(names, []string{"a__echo"}) || errs != nil {
		t.Fatalf("tools = %v, %v", names, errs)
	}

	s.set(r, "restarting", "a: server process exited")
	if names, errs := toolNames(t, r); !slices.Equal(names, []string{"a__echo"}) || errs != nil {
		t.Fatalf("tools while restarting = %v, %v; want a__echo still", names, errs)
	}
	if _, err := r.Call(t.Context(), "a", "other", nil, CallOptions{}); err == nil || err.Error() != "a: server process exited" {
		t.Errorf("call of a tool the server did not have = %v, want its error at once", err)
	}
	done := make(chan error, 1)
	go func() {
		res, err := r.Call(t.Context(), "a", "echo", map[string]any{"text": "hi"}, CallOptions{})
		if err == nil && mcptest.Text(res) != "echo:hi" {
			err = errors.New("result " + mcptest.Text(res))
		}
		done <- err
	}()
	mcptest.Until(t, "the call waits for the server", func() bool { return waiting(r) })
	s.set(r, "", "") // back
	if err := <-done; err != nil {
		t.Fatalf("call made while the server restarted = %v", err)
	}

	s.set(r, "restarting", "a: server process exited")
	go func() {
		_, err := r.Call(t.Context(), "a", "echo", nil, CallOptions{})
		done <- err
	}()
	mcptest.Until(t, "the call waits for the server", func() bool { return waiting(r) })
	s.set(r, "error", "a: server process exited; gave up after 5 attempts")
	if err := <-done; err == nil || err.Error() != "a: server process exited; gave up after 5 attempts" {
		t.Errorf("call waiting when the server was given up = %v, want its error", err)
	}
	if names, errs := toolNames(t, r); names != nil || len(errs) != 1 || errs[0].Server != "a" {
		t.Errorf("tools of a server given up = %v, %v; want none and its error", names, errs)
	}
}

// TestRestartNotBackInTime: a call waits for a restarting server at most
// its call timeout, then fails naming the server and its last error.
func TestRestartNotBackInTime(t *testing.T) {
	r := New(Options{})
	s := &restarter{name: "a", timeout: 100 * time.Millisecond, cl: inProcess(t, "echo")}
	r.Add(s)
	toolNames(t, r)
	s.set(r, "restarting", "a: server process exited (exit status 1)")
	start := time.Now()
	_, err := r.Call(t.Context(), "a", "echo", nil, CallOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), "a: ") || !strings.Contains(err.Error(), "not back within 100ms") ||
		!strings.HasSuffix(err.Error(), "a: server process exited (exit status 1)") {
		t.Fatalf("call of a server not back = %v", err)
	}
	if took := time.Since(start); took < 100*time.Millisecond {
		t.Errorf("it failed after %s, before its wait", took)
	}
	// Its caller giving up ends the wait with the caller's error.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := r.Call(ctx, "a", "echo", nil, CallOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("call with its context ended = %v", err)
	}
}
