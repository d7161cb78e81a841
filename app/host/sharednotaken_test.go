package host

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// TestSharedSamplingRefusalSaysWhy: 'switchboard daemon' shares its
// servers and has no window to ask in. A stdio server (the testserver in
// mode askserver) asks to use a model during the call of an attached app
// that declares no sampling: the refusal says that the app does not lend
// its model, as a standalone 'serve' does, not that it came outside any
// app's call. Asked after the call returned, with nothing running, it
// says it came outside any app's call.
func TestSharedSamplingRefusalSaysWhy(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	h := open(t)
	if err := h.Shared.Start(ctx); err != nil { // the daemon: no front door's handler
		t.Fatal(err)
	}
	h.Servers.Run([]config.Server{{Name: "ask", Transport: config.Stdio, Command: proctest.Server(t, "askserver")}})
	h.mgr.WaitSettled(ctx)
	app := &otherApp{}
	cl := attachWith(t, ctx, h, app, mcp.ClientCapabilities{}) // takes neither sampling nor forms
	call := func(tool string, args map[string]any) string {
		t.Helper()
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "ask__"+tool, args
		res, err := cl.CallTool(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(mcp.TextContent).Text
	}

	got := call("ask", map[string]any{"who": "alice", "kind": "sampling"})
	if !strings.HasPrefix(got, "refused: ") || !strings.Contains(got, "does not lend its model to servers") || strings.Contains(got, "outside any app's call") {
		t.Errorf("sampling during the app's call came back %q, want it refused because the app lends no model", got)
	}

	after := filepath.Join(t.TempDir(), "after")
	if got := call("later", map[string]any{"who": "alice", "kind": "sampling", "after": after}); got != "started" {
		t.Fatalf("later = %q", got)
	}
	if err := os.WriteFile(after, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	awaitFile(t, after+".out")
	out, err := os.ReadFile(after + ".out")
	if err != nil {
		t.Fatal(err)
	}
	if got := string(out); !strings.HasPrefix(got, "refused: ") || !strings.Contains(got, "outside any app's call") {
		t.Errorf("sampling after the call returned came back %q, want it refused as outside any app's call", got)
	}
	if s := app.seen(); len(s) != 0 {
		t.Errorf("the app was asked %q", s)
	}
}
