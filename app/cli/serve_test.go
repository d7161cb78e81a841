package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/gateway"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// TestServeAnswersWhileAServerHangs: 'switchboard serve' answers its own
// initialize at once while one server hangs in initialize forever and
// another starts late; the good server's tools are listed, and the late
// one's arrive with notifications/tools/list_changed.
func TestServeAnswersWhileAServerHangs(t *testing.T) {
	old := gateway.StartupWait
	gateway.StartupWait = 500 * time.Millisecond
	t.Cleanup(func() { gateway.StartupWait = old })
	fs := proctest.FaultServer(t)
	ready := filepath.Join(t.TempDir(), "late-may-start")
	file := writeFile(t, "mcp.json", fmt.Sprintf(`{"mcpServers": {
		"good": {"command": %q},
		"stuck": {"command": %q, "args": ["-mode", "hang-init"]},
		"late": {"command": %q, "args": ["-mode", "wait-file", "-file", %q]}}}`, fs, fs, fs, ready))

	// Fails the test if initialize takes longer than 5 s (it used to wait
	// for every server to settle: 60 s and more with one hanging).
	cl, _, stop := stdioSessionWithin(t, 5*time.Second, "--data-dir", t.TempDir(), "serve", "--config", file)
	changed := make(chan struct{}, 64)
	cl.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationToolsListChanged) {
			changed <- struct{}{}
		}
	})
	names := func() []string { return toolNames(t, cl) }
	// Listing waits for servers still starting, but only StartupWait.
	got := names()
	if !slices.Contains(got, "good__echo") || slices.Contains(got, "late__echo") || slices.Contains(got, "stuck__echo") {
		t.Fatalf("tools while one server hangs = %v, want good__echo and neither late__ nor stuck__", got)
	}
	for len(changed) > 0 { // what was published before
		<-changed
	}

	if err := os.WriteFile(ready, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(30 * time.Second)
	for !slices.Contains(got, "late__echo") {
		select {
		case <-changed:
			got = names()
		case <-deadline:
			t.Fatalf("no notifications/tools/list_changed bringing late__echo; tools = %v", got)
		}
	}
	call := mcp.CallToolRequest{}
	call.Params.Name = "late__echo"
	call.Params.Arguments = map[string]any{"text": "late but here"}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if res, err := cl.CallTool(ctx, call); err != nil || res.Content[0].(mcp.TextContent).Text != "late but here" {
		t.Fatalf("call late__echo = %+v, %v", res, err)
	}
	if code := stop(); code != 0 {
		t.Errorf("serve exit %d", code)
	}
}
