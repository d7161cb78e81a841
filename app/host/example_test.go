package host_test

import (
	"context"
	"fmt"
	"os"

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
	res, err := h.Servers.Import(context.Background(), host.ImportRequest{Name: "claude_desktop_config.json", Data: []byte(claude)})
	if err != nil {
		fmt.Println(err)
	}
	fmt.Println("imported:", res.Imported)
	fmt.Println("configured:", h.Servers.List()[0].Name, h.Servers.List()[0].Target())
	w, _ := h.Workspace.Open()
	fmt.Println("workspace in the data dir:", w.Root() == h.Workspace.Root())
	// Output:
	// imported: 1
	// configured: notes /nonexistent/notes-mcp
	// workspace in the data dir: true
}
