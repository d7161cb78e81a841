package gateway_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/gateway"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// source is one connected server of the router.
type source struct {
	name string
	cl   *client.Client
}

func (s source) Name() string                   { return s.name }
func (s source) Client() (router.Client, error) { return s.cl, nil }
func (s source) CallTimeout() time.Duration     { return 0 }

// connect starts an in-process MCP server with an echo tool.
func connect(ctx context.Context, name string) source {
	srv := server.NewMCPServer(name, "1.0.0", server.WithToolCapabilities(true))
	srv.AddTool(mcp.NewTool("echo", mcp.WithDescription("Echo the text back"), mcp.WithString("text")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(name + " says " + req.GetString("text", "")), nil
		})
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

// A gateway serves a router as one MCP server over stdio: a host
// initializes, lists server__tool names and calls them; a server added
// later reaches it as notifications/tools/list_changed.
func Example() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reg := router.New(router.Options{})
	reg.Add(connect(ctx, "memory"))

	g := gateway.New(reg, gateway.Options{Version: "1.0.0"}) // Settled: mgr.WaitSettled with a manager
	g.Refresh(ctx)                                           // publish what is ready now
	go g.Watch(ctx)                                          // then republish on every change

	// The host's end of the stdio pipes.
	inR, in := io.Pipe()
	defer in.Close() // the host goes: ServeStdio returns
	outR, outW := io.Pipe()
	go g.ServeStdio(ctx, inR, outW)
	out := bufio.NewReader(outR)
	send := func(line string) {
		if _, err := io.WriteString(in, line+"\n"); err != nil {
			panic(err)
		}
	}
	recv := func() (msg struct {
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
	}) {
		line, err := out.ReadBytes('\n')
		if err != nil {
			panic(err)
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			panic(err)
		}
		return msg
	}
	listTools := func(id int) {
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, id))
		var res mcp.ListToolsResult
		if err := json.Unmarshal(recv().Result, &res); err != nil {
			panic(err)
		}
		for _, t := range res.Tools {
			fmt.Printf("%s: %s\n", t.Name, t.Description)
		}
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"host","version":"1"}}}`)
	var init mcp.InitializeResult
	if err := json.Unmarshal(recv().Result, &init); err != nil {
		panic(err)
	}
	fmt.Println("server:", init.ServerInfo.Name, "listChanged:", init.Capabilities.Tools.ListChanged)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	listTools(2)

	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memory__echo","arguments":{"text":"hello"}}}`)
	raw := recv().Result
	res, err := mcp.ParseCallToolResult(&raw)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Content[0].(mcp.TextContent).Text)

	reg.Add(connect(ctx, "notes")) // a server ready later
	fmt.Println(recv().Method)
	listTools(4)
	// Output:
	// server: switchboard listChanged: true
	// memory__echo: Echo the text back
	// memory says hello
	// notifications/tools/list_changed
	// memory__echo: Echo the text back
	// notes__echo: Echo the text back
}
