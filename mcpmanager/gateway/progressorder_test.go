package gateway

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"runtime"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// TestProgressBeforeResultWhileStarting: a call made right after
// initialize, its tool not published yet (its server still starting for
// the gateway: the call takes the MCP server's path, not the fast one),
// gets every progress report before its result, as a call on the fast
// path does: a client drops progress that comes after the result. One
// processor, so that the goroutine a queued report waits for runs after
// the result's writer, as on a loaded machine.
func TestProgressBeforeResultWhileStarting(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	cl, err := client.NewStdioMCPClient(proctest.NPM(t, "mcp-server-everything"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	reg := router.New(router.Options{})
	// The supervisor's part: the server's notifications to the router
	// (Start hands them to OnNotification).
	cl.OnNotification(func(n mcp.JSONRPCNotification) { reg.HandleNotification("everything", n) })
	if err := cl.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Initialize(t.Context(), initAt(mcp.LATEST_PROTOCOL_VERSION)); err != nil {
		t.Fatal(err)
	}
	reg.Add(named{"everything", cl})
	for run := range 10 {
		// A new serve each time: once the tool is published, calls take
		// the fast path.
		g := New(reg, Options{Version: "test", Settled: func(ctx context.Context) { <-ctx.Done() }})
		order := progressOrder(t, g, run)
		if n := len(order); n == 0 || order[n-1] != "result" {
			t.Fatalf("run %d: the client got %v: progress after the result", run, order)
		}
		if len(order) != 4 {
			t.Fatalf("run %d: the client got %v, want 3 progress reports and the result", run, order)
		}
	}
}

// progressOrder serves g over pipes, calls everything's long-running
// operation (3 steps) with a progress token right after initialize, and
// returns what came back for it in order: "progress" or "result".
func progressOrder(t *testing.T, g *Gateway, run int) []string {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() { served <- g.ServeStdio(ctx, inR, outW); outW.Close() }()
	defer func() {
		cancel()
		inW.Close()
		<-served
	}()
	out := bufio.NewReader(outR)
	send := func(msg string) {
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	call, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": run, "method": "tools/call", "params": map[string]any{
		"name": "everything__trigger-long-running-operation", "arguments": map[string]any{"duration": 0.03, "steps": 3},
		"_meta": map[string]any{"progressToken": "p"}}})
	send(string(call))
	var order []string
	for {
		line, err := out.ReadBytes('\n')
		if err != nil {
			t.Fatalf("run %d: %v after %v", run, err, order)
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			t.Fatal(err)
		}
		switch {
		case msg.Method == string(mcp.MethodNotificationProgress):
			order = append(order, "progress")
		case string(msg.ID) == `"init"`:
		case msg.Error != nil:
			t.Fatalf("run %d: %s", run, line)
		case msg.Result != nil:
			order = append(order, "result")
			// A report written after the result would be the next line:
			// ask something and read up to its answer.
			send(`{"jsonrpc":"2.0","id":"ping","method":"ping"}`)
			for {
				line, err := out.ReadBytes('\n')
				if err != nil {
					t.Fatal(err)
				}
				var next struct {
					ID     json.RawMessage `json:"id"`
					Method string          `json:"method"`
				}
				_ = json.Unmarshal(line, &next)
				if next.Method == string(mcp.MethodNotificationProgress) {
					order = append(order, "progress")
				}
				if string(next.ID) == `"ping"` {
					return order
				}
			}
		}
	}
}
