package supervisor

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/process"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// supervised is a Server as a router's Source (mcpmanager's part).
type supervised struct{ s *Server }

func (v supervised) Name() string { return v.s.Name() }
func (v supervised) Client() (router.Client, error) {
	cl, err := v.s.Client()
	if err != nil {
		return nil, err
	}
	return cl, nil
}
func (v supervised) CallTimeout() time.Duration { return 0 }

// TestKilledMidCallSaysSo: the pinned server-everything killed (signal 9)
// during a call, through the router's two paths (the proxy's raw relay and
// the typed call of the chat and 'tools call'): the call's error says the
// server stopped during the call, how, and that Switchboard restarts it, so
// calling again works; and it does.
func TestKilledMidCallSaysSo(t *testing.T) {
	for _, raw := range []bool{true, false} {
		name := map[bool]string{true: "raw", false: "typed"}[raw]
		t.Run(name, func(t *testing.T) {
			reg := router.New(router.Options{})
			spec := Spec{
				Name:         "everything",
				Process:      process.Spec{Command: proctest.NPM(t, "mcp-server-everything"), Env: os.Environ()},
				StartTimeout: 30 * time.Second,
				Restart:      Restart{MaxAttempts: 3},
				LogPath:      filepath.Join(t.TempDir(), "everything.log"),
			}
			s, err := New(spec, Options{OnNotification: reg.HandleNotification})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(t.Context())
			ran := make(chan struct{})
			go func() { _ = s.Run(ctx); close(ran) }()
			t.Cleanup(func() { cancel(); <-ran })
			reg.Add(supervised{s})
			pid := waitState(t, s, Ready, 60*time.Second).PID

			progressed := make(chan struct{}, 64)
			opts := router.CallOptions{Meta: &mcp.Meta{ProgressToken: "t"}, OnProgress: func(router.Progress) { progressed <- struct{}{} }}
			args := map[string]any{"duration": 60, "steps": 600}
			called := make(chan error, 1)
			go func() {
				var err error
				if raw {
					b, _ := json.Marshal(args)
					_, err = reg.CallRaw(ctx, "everything", "trigger-long-running-operation", b, opts)
				} else {
					_, err = reg.Call(ctx, "everything", "trigger-long-running-operation", args, opts)
				}
				called <- err
			}()
			select {
			case <-progressed: // the call runs
			case err := <-called:
				t.Fatalf("the call ended before it was killed: %v", err)
			case <-time.After(30 * time.Second):
				t.Fatal("no progress from the call in 30 s")
			}
			if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			var got error
			select {
			case got = <-called:
			case <-time.After(30 * time.Second):
				t.Fatal("the call did not end 30 s after its server was killed")
			}
			var stopped *StoppedError
			want := "everything stopped during the call (killed by signal 9); Switchboard is restarting it — call again"
			if !errors.As(got, &stopped) || !strings.Contains(got.Error(), want) {
				t.Fatalf("error = %v, want one saying %q", got, want)
			}
			if testing.Verbose() {
				t.Logf("the call said: %v", got)
			}
			if !errors.Is(got, ErrExited) || !errors.Is(got, transport.ErrTransportClosed) {
				t.Errorf("error %v matches neither ErrExited nor ErrTransportClosed", got)
			}
			// And calling again does work.
			waitState(t, s, Ready, 60*time.Second)
			if _, err := reg.Call(ctx, "everything", "echo", map[string]any{"message": "again"}, router.CallOptions{}); err != nil {
				t.Fatalf("call after the restart: %v", err)
			}
		})
	}
}

// TestStoppedErrorWords: what follows a server's end, in words.
func TestStoppedErrorWords(t *testing.T) {
	for _, c := range []struct {
		next State
		want string
	}{
		{Restarting, "srv stopped during the call (exited with status 3); Switchboard is restarting it — call again"},
		{Error, "srv stopped during the call (exited with status 3); Switchboard does not restart it again (its restart is off, or it failed too often): see the Servers page or its log, /x/srv.log"},
		{Stopped, "Switchboard stopped srv during the call (it was stopped, switched off or its settings changed)"},
	} {
		e := &StoppedError{Server: "srv", How: "exited with status 3", Next: c.next, Log: "/x/srv.log"}
		if e.Error() != c.want {
			t.Errorf("%s: %q, want %q", c.next, e.Error(), c.want)
		}
	}
}
