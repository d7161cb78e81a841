package router_test

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// source is one connected server: a name, its session and its call timeout.
type source struct {
	name string
	cl   *client.Client
}

func (s source) Name() string                   { return s.name }
func (s source) Client() (router.Client, error) { return s.cl, nil }
func (s source) CallTimeout() time.Duration     { return 0 } // router.DefaultCallTimeout

// connect starts an in-process MCP server whose tools answer with their
// server's and their own name.
func connect(ctx context.Context, name string, tools ...string) source {
	srv := server.NewMCPServer(name, "1.0.0", server.WithToolCapabilities(true))
	for _, tool := range tools {
		srv.AddTool(mcp.NewTool(tool, mcp.WithString("text")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(fmt.Sprintf("%s/%s: %s", name, tool, req.GetString("text", ""))), nil
		})
	}
	cl, err := client.NewInProcessClient(srv)
	if err != nil {
		panic(err)
	}
	if err := cl.Start(ctx); err != nil {
		panic(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := cl.Initialize(ctx, init); err != nil {
		panic(err)
	}
	return source{name, cl}
}

// The router lists every server's tools under exposed names unique across
// servers, and calls go to the server and tool a listed Tool names. Server
// "a" with tool "b__c" and server "a__b" with tool "c" would both be
// a__b__c: the server whose name holds the separator gets a hash, so
// adding it never renames the other's tool.
func Example() {
	ctx := context.Background()
	r := router.New(router.Options{})
	r.Add(connect(ctx, "memory", "read_graph"))
	r.Add(connect(ctx, "a", "b__c"))
	r.Add(connect(ctx, "a__b", "c"))

	tools, errs := r.Tools(ctx) // partial results: the tools of healthy servers, errors of the others
	for _, t := range tools {
		fmt.Printf("%s → %s/%s\n", t.Name, t.Server, t.Tool.Name)
	}
	fmt.Println("errors:", len(errs))

	// A Tool in hand: call its server and tool.
	t := tools[0]
	res, err := r.Call(ctx, t.Server, t.Tool.Name, map[string]any{"text": "hi"}, router.CallOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Content[0].(mcp.TextContent).Text)

	// A name typed by a user: look it up once.
	found, err := r.Lookup(ctx, "memory__read_graph")
	if err != nil {
		panic(err)
	}
	// A relay (the gateway) passes JSON in and out, undecoded.
	raw, err := r.CallRaw(ctx, found.Server, found.Tool.Name, json.RawMessage(`{"text":"raw"}`), router.CallOptions{})
	if err != nil {
		panic(err)
	}
	out, err := mcp.ParseCallToolResult(&raw)
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Content[0].(mcp.TextContent).Text)
	// Output:
	// a__b__c → a/b__c
	// a__b__c_8a954b → a__b/c
	// memory__read_graph → memory/read_graph
	// errors: 0
	// a/b__c: hi
	// memory/read_graph: raw
}

// Subscribe tells a listener (the gateway) when the tool lists may have
// changed: a server added, removed or invalidated (ready, restarted), or a
// server's notifications/tools/list_changed. Signals coalesce.
func ExampleRouter_Subscribe() {
	ctx := context.Background()
	r := router.New(router.Options{})
	changes, stop := r.Subscribe()
	defer stop()

	r.Add(connect(ctx, "memory", "read_graph"))
	r.Invalidate("memory") // what the manager says when a server restarted
	<-changes              // one signal for both
	tools, _ := r.Tools(ctx)
	fmt.Println(len(tools), "tool")
	select {
	case <-changes:
		fmt.Println("another signal")
	default:
		fmt.Println("no more signals")
	}
	// Output:
	// 1 tool
	// no more signals
}
