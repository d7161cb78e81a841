package host_test

import (
	"context"
	"fmt"
	"os"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/app/host"
)

// A data directory opened the way the window opens it: built-ins started,
// config.json followed, a Claude Desktop config imported, one server
// disabled.
func Example() {
	dir, _ := os.MkdirTemp("", "switchboard-example-")
	defer os.RemoveAll(dir)
	h := host.Open(host.Options{Dir: datadir.Dir(dir)})
	defer h.Close(context.Background())

	h.Servers.StartBuiltins()
	if err := h.Servers.Follow(nil); err != nil {
		fmt.Println(err)
	}
	claude := `{"mcpServers": {"notes": {"command": "/nonexistent/notes-mcp", "disabled": true}}}`
	res, err := h.ServerFiles.Import(context.Background(), host.ImportRequest{Name: "claude_desktop_config.json", Data: []byte(claude)})
	if err != nil {
		fmt.Println(err)
	}
	fmt.Println("imported:", res.Imported)
	fmt.Println("configured:", h.Servers.List()[0].Name, h.Servers.List()[0].Target())
	w, _ := h.Workspace.Info()
	fmt.Println("workspace in the data dir:", w.Root == h.Workspace.Root())
	// Output:
	// imported: 1
	// configured: notes /nonexistent/notes-mcp
	// workspace in the data dir: true
}

// The parts a command uses after Open: config.json's servers (here only the
// built-ins) loaded and settled, an approval rule saved in the settings, a
// tool decided the way the chat engine and MCP Apps decide every call
// (chat.Decide, with the host's default policy), then called.
func Example_tools() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "switchboard-example-")
	defer os.RemoveAll(dir)
	h := host.Open(host.Options{Dir: datadir.Dir(dir)})
	defer h.Close(ctx)

	h.Servers.StartBuiltins()
	if err := h.Servers.Load(); err != nil {
		fmt.Println(err)
	}
	h.Servers.Settle(ctx)

	const name = "workspace__write_file"
	tool, err := h.Tools.Lookup(ctx, name)
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := h.Settings.AddRule(chat.Rule{Tool: name, Effect: chat.PolicyDeny, Match: []chat.Match{{Path: "path", Glob: "*.env"}}}); err != nil {
		fmt.Println(err)
	}
	s, _ := h.Settings.Chat()
	verdicts := map[chat.Verdict]string{chat.Run: "run", chat.Ask: "ask", chat.Refuse: "refuse"}
	for _, path := range []string{"notes.md", "prod.env"} {
		ruling := chat.Decide(tool, map[string]any{"path": path}, s.Rules, s.Policies, h.Tools.DefaultPolicy, false)
		fmt.Println(path+":", verdicts[ruling.Verdict])
	}
	res, err := h.Tools.Call(ctx, name, map[string]any{"path": "notes.md", "content": "hello\n"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Content[0].(mcp.TextContent).Text)
	// Output:
	// notes.md: run
	// prod.env: refuse
	// created notes.md (6 bytes)
}
