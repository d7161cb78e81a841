package supervisor

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
)

// StoppedError is a request's error when the stdio server's process
// ended before it answered ("transport closed" says nothing of that): it
// names the server, how the process ended, and what happens next, so the
// person or model that made the call knows that calling again will work
// (or why it will not). It matches ErrExited and
// transport.ErrTransportClosed.
type StoppedError struct {
	Server string
	// How is how the process ended: "killed by signal 9", "exited with
	// status 1".
	How string
	// Next is what the supervisor did about it: Restarting (or already
	// Ready again), Error (no more restarts), or Stopped (Switchboard
	// stopped it: switched off, removed, its settings changed, quitting).
	Next State
	// Log is the server's log file ("" when it keeps none).
	Log string
}

func (e *StoppedError) Error() string {
	switch e.Next {
	case Stopped, Disabled:
		return fmt.Sprintf("Switchboard stopped %s during the call (it was stopped, switched off or its settings changed)", e.Server)
	case Error:
		then := "; Switchboard does not restart it again (its restart is off, or it failed too often): see the Servers page"
		if e.Log != "" {
			then += " or its log, " + e.Log
		}
		return fmt.Sprintf("%s stopped during the call (%s)%s", e.Server, e.How, then)
	}
	return fmt.Sprintf("%s stopped during the call (%s); Switchboard is restarting it — call again", e.Server, e.How)
}

// Unwrap lets errors.Is find ErrExited and transport.ErrTransportClosed.
func (e *StoppedError) Unwrap() []error { return []error{ErrExited, transport.ErrTransportClosed} }

// LostWait bounds how long a request cut off by its server's end waits to
// say how the process ended and whether it is restarted: the exit status
// can come after stdout's end, and the decision after both. A variable so
// tests can change it.
var LostWait = 2 * time.Second

// lostCall is the error of a request on a stdio session that got no answer
// because the session ended (err is transport.ErrTransportClosed): a
// *StoppedError once the process has exited and the supervisor has
// decided what follows (at most LostWait), or err as it is when the
// process still runs (a session closed some other way) or ctx ends.
//
// A function, not a method, as the transport is its one caller.
func lostCall(ctx context.Context, s *Server, run context.Context, pid int, done <-chan struct{}, exit func() error) error {
	wait, cancel := context.WithTimeout(ctx, LostWait)
	defer cancel()
	select {
	case <-done:
	case <-wait.Done():
		return nil
	}
	e := &StoppedError{Server: s.spec.Name, How: exitWords(exit()), Next: Stopped, Log: s.spec.LogPath}
	if run.Err() == nil {
		e.Next = nextAfter(wait, s, pid)
	}
	return e
}

// nextAfter waits until the supervisor has decided what follows the end of
// the run of process pid (ready no more, or ready as another process), or
// wait ends, and returns the state then: Restarting when it was still
// deciding. A function, as lostCall.
func nextAfter(wait context.Context, s *Server, pid int) State {
	for {
		s.mu.Lock()
		st, changed := s.status, s.changed
		s.mu.Unlock()
		switch {
		case st.State == Ready && st.PID != pid && st.PID != 0:
			return Restarting // and back already
		case st.State == Error, st.State == Stopped, st.State == Disabled:
			return st.State
		case st.State != Ready:
			return Restarting
		}
		select {
		case <-changed:
		case <-wait.Done():
			return Restarting
		}
	}
}

// exitWords says how a process ended, from its Wait error: "killed by
// signal 9", "exited with status 2".
func exitWords(err error) string {
	if err == nil {
		return "exited with status 0"
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return err.Error()
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		sig := ws.Signal()
		if desc := sig.String(); desc != "killed" && desc != "" {
			return fmt.Sprintf("killed by signal %d, %s", int(sig), desc)
		}
		return fmt.Sprintf("killed by signal %d", int(sig))
	}
	return fmt.Sprintf("exited with status %d", ee.ExitCode())
}
