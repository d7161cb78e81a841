package gui

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/datadir"
)

// The configured servers start once the window has painted (Ready), not
// while the web view still needs the CPU; without a Ready they start after
// ServersWaitForWindow.
func TestServersStartWhenTheWindowIsShown(t *testing.T) {
	for _, tc := range []struct {
		name  string
		ready bool
		wait  time.Duration
	}{
		{"after Ready", true, time.Hour},
		{"after the wait, without Ready", false, 50 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := ServersWaitForWindow
			ServersWaitForWindow = tc.wait
			t.Cleanup(func() { ServersWaitForWindow = old })
			dir := datadir.Dir(t.TempDir())
			if err := dir.Ensure(); err != nil {
				t.Fatal(err)
			}
			cfg := `{"mcpServers":{"missing":{"command":"/nonexistent/switchboard-test-server"}}}`
			if err := os.WriteFile(dir.Config(), []byte(cfg), 0o600); err != nil {
				t.Fatal(err)
			}
			a := New(context.Background(), dir)
			a.emit = func(ServerView) {}
			a.emitHook = func(string, any) {}
			t.Cleanup(func() { a.close(context.Background()) })
			started := make(chan struct{})
			go func() {
				defer close(started)
				a.Startup(context.Background())
			}()
			if tc.ready {
				select {
				case <-started:
					t.Fatal("Startup returned before the window was shown")
				case <-time.After(100 * time.Millisecond): // a window's first paint takes longer
				}
				for _, st := range a.h.Servers.Status() {
					if st.Name == "missing" { // the built-ins run already: they are in-process
						t.Fatal("the configured server started before the window was shown")
					}
				}
				if err := a.Ready(); err != nil {
					t.Fatal(err)
				}
			}
			select {
			case <-started:
			case <-time.After(10 * time.Second):
				t.Fatal("Startup did not return after the window was shown")
			}
			names := map[string]bool{}
			for _, st := range a.h.Servers.Status() {
				names[st.Name] = true
			}
			if !names["missing"] {
				t.Fatalf("the configured server was not started: %v", names)
			}
		})
	}
}
