package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// TestServeFollowsTheConfig: a 'serve' that runs the servers itself
// follows config.json as the window does: a server switched off with
// 'switchboard servers disable' (another process) stops being offered,
// the client told with tools/list_changed; switched on again, it is back.
func TestServeFollowsTheConfig(t *testing.T) {
	old := config.WatchInterval
	config.WatchInterval = 100 * time.Millisecond
	t.Cleanup(func() { config.WatchInterval = old })
	dir := t.TempDir()
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"memory": map[string]any{"command": proctest.NPM(t, "mcp-server-memory"),
		"env": map[string]string{"MEMORY_FILE_PATH": filepath.Join(t.TempDir(), "memory.json")}}}})
	if err := os.WriteFile(filepath.Join(dir, "config.json"), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	cl, _, stop := stdioSessionWithin(t, 30*time.Second, "--data-dir", dir, "serve", "--local")
	changed := make(chan struct{}, 64)
	cl.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationToolsListChanged) {
			changed <- struct{}{}
		}
	})
	memory := func(names []string) bool {
		return slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, "memory__") })
	}
	until := func(what string, want bool) {
		t.Helper()
		deadline := time.After(60 * time.Second)
		for got := toolNames(t, cl); memory(got) != want; got = toolNames(t, cl) {
			select {
			case <-changed:
			case <-deadline:
				t.Fatalf("%s: memory's tools offered = %v after a minute; tools %v", what, !want, got)
			}
		}
	}
	until("started", true)
	for _, step := range []struct {
		cmd  string
		want bool
	}{{"disable", false}, {"enable", true}} {
		if code, out, errOut := runIn(t, dir, "servers", step.cmd, "memory"); code != 0 {
			t.Fatalf("servers %s memory = %d %s %s", step.cmd, code, out, errOut)
		}
		until("after servers "+step.cmd, step.want)
	}
	if code := stop(); code != 0 {
		t.Errorf("serve exit %d", code)
	}
}
