package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/gateway"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// contentNames lists what a client of serve sees of one kind: prompts
// (their names), resources or templates (their URIs), within limit.
func contentNames(t *testing.T, cl *client.Client, kind string, limit time.Duration) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), limit)
	defer cancel()
	start := time.Now()
	var names []string
	var err error
	switch kind {
	case "prompts":
		var res *mcp.ListPromptsResult
		if res, err = cl.ListPrompts(ctx, mcp.ListPromptsRequest{}); err == nil {
			for _, p := range res.Prompts {
				names = append(names, p.Name)
			}
		}
	case "resources":
		var res *mcp.ListResourcesResult
		if res, err = cl.ListResources(ctx, mcp.ListResourcesRequest{}); err == nil {
			for _, r := range res.Resources {
				names = append(names, r.URI)
			}
		}
	case "templates":
		var res *mcp.ListResourceTemplatesResult
		if res, err = cl.ListResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{}); err == nil {
			for _, r := range res.ResourceTemplates {
				names = append(names, r.URITemplate.Raw())
			}
		}
	}
	if err != nil {
		t.Fatalf("%s/list after %s: %v (a server still starting held it up)", kind, time.Since(start).Round(time.Millisecond), err)
	}
	return names
}

// of reports whether names has one of server's (server__NAME or
// switchboard://SERVER/...).
func of(names []string, server string) bool {
	for _, n := range names {
		if strings.HasPrefix(n, server+"__") || strings.HasPrefix(n, gateway.URIScheme+"://"+server+"/") {
			return true
		}
	}
	return false
}

// TestServeListsContentWhileAServerStarts: a client that asks for the
// prompts, resources and templates right after initialize with tools/list,
// as Claude Code does (and counts serve connected only once all are
// answered), gets them a second at most after tools/list's answer (from
// the servers' last run), while a server is still starting, not after
// StartupWait; the server's own reach it with list_changed once it is up.
func TestServeListsContentWhileAServerStarts(t *testing.T) {
	old := gateway.StartupWait
	gateway.StartupWait = time.Minute // a list that waits for "late" fails below
	t.Cleanup(func() { gateway.StartupWait = old })
	everything := proctest.NPM(t, "mcp-server-everything")
	dir, gate := t.TempDir(), filepath.Join(t.TempDir(), "late-may-start")
	file := writeFile(t, "mcp.json", fmt.Sprintf(`{"mcpServers": {
		"good": {"command": %q},
		"late": {"command": "sh", "args": ["-c", "while [ ! -e \"$1\" ]; do sleep 0.05; done; exec \"$2\"", "sh", %q, %q]}}}`,
		everything, gate, everything))

	// Its last run: both started, their tools listed and kept.
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cl, _, stop := stdioSession(t, "--data-dir", dir, "serve", "--config", file)
	if got := toolNames(t, cl); !of(got, "late") || !of(got, "good") {
		t.Fatalf("tools of the first run = %v", got)
	}
	if code := stop(); code != 0 {
		t.Fatalf("serve exit %d", code)
	}
	if err := os.Remove(gate); err != nil {
		t.Fatal(err)
	}

	cl, _, stop = stdioSessionWithin(t, 10*time.Second, "--data-dir", dir, "serve", "--config", file)
	changed := make(chan string, 64)
	cl.OnNotification(func(n mcp.JSONRPCNotification) {
		changed <- n.Method
	})

	// As Claude Code does: the tools with the rest (answered from the
	// servers' last run), then each list once the tools are answered.
	if got := toolNames(t, cl); !of(got, "late") {
		t.Fatalf("tools while late is starting = %v, want late's from its last run", got)
	}
	kinds := map[string]string{"prompts": string(mcp.MethodNotificationPromptsListChanged),
		"resources": string(mcp.MethodNotificationResourcesListChanged), "templates": string(mcp.MethodNotificationResourcesListChanged)}
	for kind := range kinds {
		if got := contentNames(t, cl, kind, 20*time.Second); of(got, "late") {
			t.Fatalf("%s while late cannot start = %v", kind, got)
		}
	}

	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for kind, note := range kinds {
		deadline := time.After(time.Minute)
		for got := contentNames(t, cl, kind, 20*time.Second); !of(got, "late") || !of(got, "good"); got = contentNames(t, cl, kind, 20*time.Second) {
			select {
			case m := <-changed:
				if m != note {
					continue
				}
			case <-deadline:
				t.Fatalf("no %s bringing late's %s; they are %v", note, kind, got)
			}
		}
	}
	if code := stop(); code != 0 {
		t.Errorf("serve exit %d", code)
	}
}
