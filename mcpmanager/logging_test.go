package mcpmanager

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/serverlog"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// TestLogMessagesOfTheRealEverythingServer: the pinned server-everything
// offers logging; a level set with SetLogLevel shows in its status, and its
// log messages (toggle-simulated-logging sends one at once) land in its log
// with their level.
func TestLogMessagesOfTheRealEverythingServer(t *testing.T) {
	m := New(Options{LogDir: t.TempDir()})
	t.Cleanup(func() { m.Close(context.Background()) })
	m.Apply([]ServerConfig{{Name: "everything", Command: proctest.NPM(t, "mcp-server-everything")}})
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	m.WaitSettled(ctx)

	if err := m.SetLogLevel(ctx, "everything", "loud"); !errors.Is(err, supervisor.ErrLogLevel) {
		t.Fatalf("SetLogLevel(loud) = %v, want ErrLogLevel", err)
	}
	if err := m.SetLogLevel(ctx, "nobody", "debug"); !errors.Is(err, ErrUnknownServer) {
		t.Fatalf("SetLogLevel(nobody) = %v, want ErrUnknownServer", err)
	}
	if err := m.SetLogLevel(ctx, "everything", "debug"); err != nil {
		t.Fatal(err)
	}
	sup, err := m.Server("everything")
	if err != nil {
		t.Fatal(err)
	}
	if st := sup.Status(); !st.Logging || st.LogLevel != "debug" {
		t.Fatalf("status logging=%v level=%q, want true, debug", st.Logging, st.LogLevel)
	}
	if _, err := m.Router().Call(ctx, "everything", "toggle-simulated-logging", map[string]any{}, router.CallOptions{}); err != nil {
		t.Fatal(err)
	}
	for {
		for _, e := range sup.Log().Entries(0, "debug") {
			// server-everything's messages start with their level's name.
			if !strings.HasPrefix(strings.ToLower(e.Text), e.Level) || serverlog.Rank(e.Level) < 0 {
				t.Fatalf("message %+v does not carry its level", e)
			}
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no log message arrived; log: %q", sup.Log().Tail(0))
		case <-time.After(50 * time.Millisecond):
		}
	}
}
