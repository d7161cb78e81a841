package supervisor_test

import (
	"context"
	"fmt"
	"log"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// A supervised server reports its states, and Client is its ready session.
// The server here runs in-process (as the built-ins do) so the example
// needs no program; a stdio server sets Spec.Process instead, a remote one
// Spec.Remote.
func Example() {
	hello := func() (*server.MCPServer, func() error, error) {
		srv := server.NewMCPServer("hello", "1.0.0", server.WithToolCapabilities(false))
		srv.AddTool(mcp.NewTool("greet", mcp.WithString("name")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("hello, " + req.GetString("name", "you")), nil
		})
		release := func() error { fmt.Println("released"); return nil }
		return srv, release, nil
	}

	ready := make(chan struct{})
	last := supervisor.Stopped
	s, err := supervisor.New(supervisor.Spec{Name: "hello", InProcess: hello}, supervisor.Options{
		ClientInfo: mcp.Implementation{Name: "switchboard", Version: "1.0.0"},
		OnStatus: func(st supervisor.Status) {
			if st.State == last {
				return // a change of another field
			}
			last = st.State
			fmt.Println(st.Name, st.State)
			if st.State == supervisor.Ready {
				close(ready)
			}
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- s.Run(ctx) }() // returns when ctx ends; the server is stopped by then
	<-ready

	c, err := s.Client() // the ready MCP session, or why there is none
	if err != nil {
		log.Fatal(err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "greet", map[string]any{"name": "Ada"}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Content[0].(mcp.TextContent).Text)

	cancel()
	<-done
	// Output:
	// hello starting
	// hello ready
	// hello, Ada
	// released
	// hello stopped
}
