package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// TestBuiltinContentStoreOverStdio speaks MCP to 'switchboard builtin
// content-store' over pipes: list tools, then createStore → addContent →
// search → readContent.
func TestBuiltinContentStoreOverStdio(t *testing.T) {
	data := t.TempDir()
	cl, res, stop := stdioSession(t, "--data-dir", data, "builtin", "content-store")
	if res.ServerInfo.Name != "content-store" || res.Instructions == "" {
		t.Fatalf("initialize: %+v", res)
	}
	ictx, icancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer icancel()
	names := toolNames(t, cl)
	if want := []string{"addContent", "createStore", "deleteContent", "deleteStore", "listContent", "listStores", "readContent", "reindexContent", "search"}; !slices.Equal(names, want) {
		t.Fatalf("tools = %v", names)
	}
	call := func(name string, args map[string]any) map[string]any {
		t.Helper()
		req := mcp.CallToolRequest{}
		req.Params.Name = name
		req.Params.Arguments = args
		out, err := cl.CallTool(ictx, req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text := out.Content[0].(mcp.TextContent).Text
		if out.IsError {
			t.Fatalf("%s: tool error %s", name, text)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			t.Fatalf("%s: %v in %s", name, err, text)
		}
		return v
	}
	store := call("createStore", map[string]any{"name": "CLI test"})
	if store["id"] != "cli-test" {
		t.Fatalf("createStore = %v", store)
	}
	call("addContent", map[string]any{"storeId": "cli-test", "title": "Runbook", "text": "step one: drain the node\nstep two: upgrade the kernel"})
	found := call("search", map[string]any{"query": "upgrade kernel"})
	hits := found["hits"].([]any)
	hit := hits[0].(map[string]any)
	if len(hits) != 1 || hit["title"] != "Runbook" || hit["snippet"] != "step two: <mark>upgrade</mark> the <mark>kernel</mark>" {
		t.Fatalf("search = %v", found)
	}
	read := call("readContent", map[string]any{"contentId": hit["contentId"], "fromLine": 2, "toLine": 2})
	if read["text"] != "step two: upgrade the kernel" {
		t.Fatalf("readContent = %v", read)
	}
	// The default root is <data dir>/stores.
	if _, err := os.Stat(filepath.Join(data, "stores", "cli-test", "store.json")); err != nil {
		t.Fatal(err)
	}

	// End of input ends the server with exit 0 (and closes the stores).
	if code := stop(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

func TestBuiltinCommandLine(t *testing.T) {
	root := filepath.Join(t.TempDir(), "my stores")
	cases := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"help lists the built-ins", []string{"builtin", "--help"}, 0, "content-store  serve the content store over stdio (tools content-store__*)", ""},
		{"command help names the root", []string{"help", "builtin", "content-store"}, 0, "keep the server's data in DIR (default: <data dir>/stores)", ""},
		{"the workspace's root is the workspace", []string{"help", "builtin", "workspace"}, 0, "serve the folder DIR as the workspace: the file tools reach nothing outside it", ""},
		{"unknown built-in", []string{"builtin", "nope"}, ExitUsage, "", `unknown command "nope"; one of content-store`},
		{"missing name", []string{"builtin"}, ExitUsage, "", "missing subcommand; one of content-store"},
		{"extra argument", []string{"builtin", "content-store", "extra"}, ExitUsage, "", `takes no arguments, got "extra" (use --root DIR`},
		{"root flag needs a value", []string{"builtin", "content-store", "--root"}, ExitUsage, "", "flag needs an argument: -root"},
		{"end of input at once", []string{"builtin", "content-store", "--root", root}, 0, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb strings.Builder
			code := Run(t.Context(), append([]string{"--data-dir", t.TempDir()}, c.args...), Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
			if code != c.code || !strings.Contains(out.String(), c.stdout) || !strings.Contains(errb.String(), c.stderr) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want %d, %q, %q", code, out.String(), errb.String(), c.code, c.stdout, c.stderr)
			}
		})
	}
	if _, err := os.Stat(root); err != nil {
		t.Fatalf("--root was not created: %v", err)
	}
}

// TestBuiltinStdinIsBounded: a client that sends one endless line gets the
// built-in server to stop with the limit named, not to buffer it all.
func TestBuiltinStdinIsBounded(t *testing.T) {
	defer func(n int) { wire.MaxMessageBytes = n }(wire.MaxMessageBytes)
	wire.MaxMessageBytes = 1 << 10
	endless := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 4<<10))
	var out, errb strings.Builder
	code := Run(t.Context(), []string{"--data-dir", t.TempDir(), "builtin", "content-store"}, Env{Stdout: &out, Stderr: &errb, Stdin: endless})
	if code == ExitOK || !strings.Contains(errb.String(), wire.Size(1<<10)+" limit") {
		t.Fatalf("exit %d, stderr %q: want a failure naming the limit", code, errb.String())
	}
}
