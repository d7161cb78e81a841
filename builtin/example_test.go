package builtin_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/builtin/contentstore"
)

// A host starts a built-in server and talks to it like to any MCP server;
// here through mcp-go's in-process client (the app runs it as a server of
// its manager, mcpmanager.ServerConfig.Builtin; the CLI serves it over
// stdio).
func ExampleServer_Start() {
	root, _ := os.MkdirTemp("", "stores")
	defer os.RemoveAll(root)
	srv, closeFn, err := contentstore.Builtin.Start(builtin.Config{Root: root})
	if err != nil {
		log.Fatal(err)
	}
	defer closeFn()

	ctx := context.Background()
	cl, _ := client.NewInProcessClient(srv)
	defer cl.Close()
	_ = cl.Start(ctx)
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	res, err := cl.Initialize(ctx, init)
	if err != nil {
		log.Fatal(err)
	}
	tools, _ := cl.ListTools(ctx, mcp.ListToolsRequest{})
	fmt.Println(res.ServerInfo.Name, res.ServerInfo.Version, len(tools.Tools), "tools")
	// Output:
	// content-store 1.0.0 9 tools
}
