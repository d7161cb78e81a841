package mcpmanager_test

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager"
)

// A manager runs built-in and configured servers side by side and lists
// their tools as one router. The built-in here is a tiny in-process
// server, so the example needs no program; a configured server that takes
// a built-in's name is refused and listed apart, as "NAME (configured)", and
// the built-in keeps the name.
func Example() {
	notes := mcpmanager.ServerConfig{Name: "notes", Builtin: &mcpmanager.Builtin{
		Key: "/data/notes", // Apply restarts it when this changes
		Start: func() (*server.MCPServer, func() error, error) {
			srv := server.NewMCPServer("notes", "1.0.0", server.WithToolCapabilities(false))
			srv.AddTool(mcp.NewTool("add", mcp.WithString("text")), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText("added"), nil
			})
			return srv, func() error { return nil }, nil // release: close what srv holds
		},
	}}
	configured := []mcpmanager.ServerConfig{
		{Name: "workspace", Command: "npx", Args: []string{"-y", "fake-workspace"}},
		{Name: "off", Command: "npx", Args: []string{"-y", "some-server"}, Disabled: true},
	}

	ctx := context.Background()
	m := mcpmanager.New(mcpmanager.Options{ClientInfo: mcp.Implementation{Name: "switchboard", Version: "1.0.0"}})
	defer m.Close(ctx) // every server stops, built-ins are released
	m.Apply(append([]mcpmanager.ServerConfig{notes}, configured...))
	m.WaitSettled(ctx)

	for _, st := range m.Status() {
		line := fmt.Sprintf("%s: %s", st.Name, st.State)
		if st.Builtin {
			line += " (built-in)"
		}
		if st.Error != "" {
			line += ": " + st.Error
		}
		fmt.Println(line)
	}
	tools, _ := m.Router().Tools(ctx)
	for _, t := range tools {
		fmt.Println(t.Name)
	}
	// Output:
	// notes: ready (built-in)
	// workspace (configured): error: the name "workspace" is reserved for Switchboard's built-in server; rename this server in config.json
	// off: disabled
	// notes__add
}
