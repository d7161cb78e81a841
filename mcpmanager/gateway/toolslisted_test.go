package gateway

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// recalling is a lateSource whose tools are known before it is ready.
type recalling struct {
	*lateSource
	known   []mcp.Tool
	started chan struct{}
}

func (s *recalling) Recall() []mcp.Tool {
	if s.ready.Load() {
		return nil
	}
	return s.known
}
func (s *recalling) AwaitStart(ctx context.Context) {
	select {
	case <-s.started:
	case <-ctx.Done():
	}
}
func (s *recalling) Remember([]mcp.Tool) {}

// TestToolsListedWaitsOnlyForTools: with Options.ToolsListed, tools/list
// answers once the router offers every starting server's tools (those
// recalled), without waiting for Settled; prompts/list still waits for
// Settled, since a server's prompts are known only once it is up.
func TestToolsListedWaitsOnlyForTools(t *testing.T) {
	old := StartupWait
	StartupWait = time.Minute // a list that waits for Settled would not come back in the test's time
	t.Cleanup(func() { StartupWait = old })
	up := server.NewMCPServer("late", "1", server.WithToolCapabilities(true), server.WithPromptCapabilities(true))
	up.AddTool(mcp.NewTool("echo"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("late"), nil
	})
	up.AddPrompt(mcp.NewPrompt("greet"), func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return mcp.NewGetPromptResult("hi", nil), nil
	})
	late := &recalling{lateSource: &lateSource{name: "late", cl: inProcessUp(t, up, nil)}, known: []mcp.Tool{mcp.NewTool("echo")}, started: make(chan struct{})}
	reg := router.New(router.Options{})
	reg.Add(late)

	waiting, settle := make(chan struct{}), make(chan struct{})
	settled := func(ctx context.Context) {
		close(waiting) // once: only prompts/list waits for it here
		select {
		case <-settle:
		case <-ctx.Done():
		}
	}
	g := New(reg, Options{Version: "test", Settled: settled, ToolsListed: func(context.Context) {}})
	cl := mcptest.Connect(t, g.srv)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()

	tools, err := cl.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Name != "late__echo" {
		t.Fatalf("tools/list while late starts = %+v, %v; want late__echo, recalled, at once", tools, err)
	}
	prompts := make(chan []string, 1)
	go func() {
		res, err := cl.ListPrompts(ctx, mcp.ListPromptsRequest{})
		var names []string
		if err == nil {
			for _, p := range res.Prompts {
				names = append(names, p.Name)
			}
		}
		prompts <- names
	}()
	select {
	case <-waiting: // prompts/list is waiting for the servers to settle
	case <-ctx.Done():
		t.Fatal("prompts/list did not wait for Settled")
	}
	late.ready.Store(true)
	close(late.started)
	reg.Invalidate("late")
	close(settle)
	if got := <-prompts; !slices.Equal(got, []string{"late__greet"}) {
		t.Fatalf("prompts/list = %v, want late__greet: it must wait for the server, whose prompts are not recalled", got)
	}
}

// A call of a tool not published yet waits for its own server, not for
// every server to settle: one slow server (an npx download) does not hold
// up the calls of the others.
func TestCallWaitsOnlyForItsServer(t *testing.T) {
	for _, version := range []string{mcp.ProtocolVersion20251125, mcp.ProtocolVersion20260728} {
		t.Run(version, func(t *testing.T) { callWaitsOnlyForItsServer(t, version) })
	}
}

func callWaitsOnlyForItsServer(t *testing.T, version string) {
	old := StartupWait
	StartupWait = time.Minute // a call that waits for Settled would not come back in the test's time
	t.Cleanup(func() { StartupWait = old })
	up := server.NewMCPServer("quick", "1", server.WithToolCapabilities(true))
	up.AddTool(mcp.NewTool("echo"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("quick"), nil
	})
	quick := &lateSource{name: "quick", cl: inProcessUp(t, up, nil)}
	slow := &lateSource{name: "slow", cl: inProcessUp(t, server.NewMCPServer("slow", "1", server.WithToolCapabilities(true)), nil)}
	reg := router.New(router.Options{})
	reg.Add(quick)
	reg.Add(slow)
	settled := func(ctx context.Context) { <-ctx.Done() } // slow never settles
	g := New(reg, Options{Version: "test", Settled: settled})
	cl := mcptest.Connect(t, g.srv, mcptest.Protocol(version))
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	type answer struct {
		res *mcp.CallToolResult
		err error
	}
	answered := make(chan answer, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "quick__echo"
		res, err := cl.CallTool(ctx, req)
		answered <- answer{res, err}
	}()
	quick.ready.Store(true)
	reg.Invalidate("quick") // what the manager's status hook does
	a := <-answered
	if a.err != nil || a.res.IsError || a.res.Content[0].(mcp.TextContent).Text != "quick" {
		t.Fatalf("quick__echo while slow starts: %+v, %v", a.res, a.err)
	}
}
