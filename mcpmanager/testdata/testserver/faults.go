package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// serveFaults serves the fault modes (once the program faultserver): a stdio MCP server that misbehaves on purpose, for
// the supervisor's and router's fault tests. -mode picks the fault:
//
//	ok            a well-behaved server with echo, sleep and crash tools
//	hang-init     never answers initialize
//	garbage       writes non-JSON lines to stdout, then behaves
//	stderr-flood  writes megabytes to stderr while serving
//	exit-init     exits with status 3 before initialize, after a stderr line
//	ignore-stdin  keeps running when stdin closes, ignores SIGTERM
//	wait-file     answers nothing until the file -file names exists, then
//	              behaves (a server that is ready late, when a test says)
//	strict-init   exits with status 2 when its first message is not
//	              initialize (a server written before 2026-07-28 that
//	              dies on server/discover), then behaves
//
// Tools (every mode that serves): echo {text}, sleep {ms}, crash {} (exits
// mid-call), big {bytes}, progress {} (three progress notifications),
// getenv {name}, environ {} (the whole environment, one NAME=value a
// line: a snoop for what a server is given). FAULT_LEAK=VAR in the environment prints VAR to stderr.
func serveFaults() {
	name, file := faultName, waitFile
	// FAULT_LEAK=VAR prints that variable to stderr, like a careless server
	// logging its config: the app must mask it wherever the log is shown.
	if v := os.Getenv("FAULT_LEAK"); v != "" {
		fmt.Fprintf(os.Stderr, "starting with %s=%s\n", v, os.Getenv(v))
	}

	switch *mode {
	case "hang-init":
		fmt.Fprintln(os.Stderr, "hanging before initialize")
		select {}
	case "wait-file":
		for {
			if _, err := os.Stat(*file); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	case "exit-init":
		fmt.Fprintln(os.Stderr, "fatal: missing API key FAULT_KEY")
		os.Exit(3)
	case "garbage":
		fmt.Println("this is not json")
		fmt.Println("{\"neither\": is this")
	case "stderr-flood":
		go func() {
			line := strings.Repeat("flood ", 20)
			for i := 0; ; i++ {
				fmt.Fprintf(os.Stderr, "%d %s\n", i, line)
			}
		}()
	case "strict-init":
		in := bufio.NewReader(os.Stdin)
		first, err := in.ReadString('\n')
		var msg struct {
			Method string `json:"method"`
		}
		if err != nil || json.Unmarshal([]byte(first), &msg) != nil || msg.Method != "initialize" {
			fmt.Fprintf(os.Stderr, "fatal: expected initialize, got %q\n", msg.Method)
			os.Exit(2)
		}
		if err := server.NewStdioServer(newFaultServer(*name)).Listen(context.Background(), io.MultiReader(strings.NewReader(first), in), os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	case "ignore-stdin":
		signal.Ignore(syscall.SIGTERM)
		go func() {
			// Serve, then linger after stdin closes.
			_ = server.ServeStdio(newFaultServer(*name))
			select {}
		}()
		select {}
	}
	if err := server.ServeStdio(newFaultServer(*name)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func newFaultServer(name string) *server.MCPServer {
	s := server.NewMCPServer(name, "1.0.0", server.WithToolCapabilities(true))
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("Echo the text back"),
		mcp.WithString("text", mcp.Required(), mcp.Description("text to echo"))),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(req.GetString("text", "")), nil
		})
	s.AddTool(mcp.NewTool("sleep", mcp.WithDescription("Sleep for ms milliseconds"),
		mcp.WithNumber("ms", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			select {
			case <-time.After(time.Duration(req.GetFloat("ms", 0)) * time.Millisecond):
				return mcp.NewToolResultText("slept"), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		})
	s.AddTool(mcp.NewTool("crash", mcp.WithDescription("Exit in the middle of the call")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			fmt.Fprintln(os.Stderr, "panic: crashing mid-call on purpose")
			os.Exit(2)
			return nil, nil
		})
	s.AddTool(mcp.NewTool("big", mcp.WithDescription("Return a text of the given size"),
		mcp.WithNumber("bytes", mcp.Required())),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(strings.Repeat("x", int(req.GetFloat("bytes", 0)))), nil
		})
	s.AddTool(mcp.NewTool("getenv", mcp.WithDescription("Return the value of an environment variable"),
		mcp.WithString("name", mcp.Required())),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(os.Getenv(req.GetString("name", ""))), nil
		})
	s.AddTool(mcp.NewTool("environ", mcp.WithDescription("Return the whole environment, one NAME=value a line")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(strings.Join(os.Environ(), "\n")), nil
		})
	s.AddTool(mcp.NewTool("progress", mcp.WithDescription("Report three progress steps, then answer")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if req.Params.Meta != nil && req.Params.Meta.ProgressToken != nil {
				srv := server.ServerFromContext(ctx)
				for i := 1; i <= 3; i++ {
					_ = srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
						"progressToken": req.Params.Meta.ProgressToken, "progress": i, "total": 3, "message": fmt.Sprintf("step %d", i),
					})
				}
			}
			return mcp.NewToolResultText("done"), nil
		})
	return s
}
