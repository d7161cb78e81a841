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

// TestServeOffersAStartingServersToolsFromItsLastRun: a client that lists
// once, soon after it starts serve (Codex gives a server a second), gets
// the tools of a server that has not finished starting, as that server
// listed them when it last ran with the same entry; a call of one waits
// for the server instead of failing; an entry that runs something else
// recalls nothing.
func TestServeOffersAStartingServersToolsFromItsLastRun(t *testing.T) {
	old := gateway.StartupWait
	gateway.StartupWait = 2 * time.Second // what a list that waited for "late" would take
	t.Cleanup(func() { gateway.StartupWait = old })
	fs := proctest.FaultServer(t)
	dir, ready := t.TempDir(), filepath.Join(t.TempDir(), "late-may-start")
	config := func(args string) string {
		return writeFile(t, "mcp.json", fmt.Sprintf(`{"mcpServers": {
			"good": {"command": %q},
			"late": {"command": %q, "args": ["-mode", "wait-file", "-file", %q%s]}}}`, fs, fs, ready, args))
	}
	file := config("")

	// Its first run: it starts, its tools are listed and kept.
	if err := os.WriteFile(ready, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cl, _, stop := stdioSession(t, "--data-dir", dir, "serve", "--config", file)
	if got := toolNames(t, cl); !slices.Contains(got, "late__echo") {
		t.Fatalf("tools of a server that started = %v, want late__echo", got)
	}
	if code := stop(); code != 0 {
		t.Fatalf("serve exit %d", code)
	}
	if kept, _ := filepath.Glob(filepath.Join(dir, "listings", "late-*.json")); len(kept) != 1 {
		t.Fatalf("listings kept for late: %v, want one file", kept)
	}

	// The next run: it cannot start until the file is back, and its tools
	// are listed at once all the same.
	if err := os.Remove(ready); err != nil {
		t.Fatal(err)
	}
	cl, _, stop = stdioSessionWithin(t, 5*time.Second, "--data-dir", dir, "serve", "--config", file)
	start := time.Now()
	got := toolNames(t, cl)
	if !slices.Contains(got, "late__echo") || !slices.Contains(got, "good__echo") {
		t.Fatalf("tools while late is starting = %v, want late__echo (from its last run) and good__echo", got)
	}
	if took := time.Since(start); took >= gateway.StartupWait {
		t.Errorf("the list took %s: it waited for the server instead of offering its tools from before", took)
	}
	called := make(chan error, 1)
	go func() {
		call := mcp.CallToolRequest{}
		call.Params.Name = "late__echo"
		call.Params.Arguments = map[string]any{"text": "waited for"}
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		res, err := cl.CallTool(ctx, call)
		if err == nil && (res.IsError || res.Content[0].(mcp.TextContent).Text != "waited for") {
			err = fmt.Errorf("result %+v", res)
		}
		called <- err
	}()
	// The server starts only now: a call that did not wait for it has
	// failed ("server is starting").
	if err := os.WriteFile(ready, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := <-called; err != nil {
		t.Fatalf("call late__echo while it started: %v", err)
	}
	if code := stop(); code != 0 {
		t.Fatalf("serve exit %d", code)
	}

	// Another entry under the same name runs something else: nothing of
	// the old one's is offered.
	if err := os.Remove(ready); err != nil {
		t.Fatal(err)
	}
	cl, _, stop = stdioSessionWithin(t, 5*time.Second, "--data-dir", dir, "serve", "--config", config(`, "-name", "other"`))
	if got := toolNames(t, cl); slices.Contains(got, "late__echo") {
		t.Fatalf("tools of a changed entry still starting = %v, want no late__echo", got)
	}
	if code := stop(); code != 0 {
		t.Fatalf("serve exit %d", code)
	}
}
