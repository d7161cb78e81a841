package router

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
)

// reporter is a server whose "build" reports progress as the spec says a
// server may: only under the progress token its call came with. It
// reports every 50 ms, "reports" times, and answers with the token it saw.
func reporter(t *testing.T, r *Router, name string, timeout time.Duration) {
	t.Helper()
	srv := server.NewMCPServer("test", "1.0.0", server.WithToolCapabilities(true))
	srv.AddTool(mcp.NewTool("build", mcp.WithNumber("reports")), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var token mcp.ProgressToken
		if req.Params.Meta != nil {
			token = req.Params.Meta.ProgressToken
		}
		for i := range int(req.GetFloat("reports", 0)) {
			select {
			case <-time.After(50 * time.Millisecond):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if token != nil {
				_ = server.ServerFromContext(ctx).SendNotificationToClient(ctx, "notifications/progress", map[string]any{"progressToken": token, "progress": i + 1})
			}
		}
		return mcp.NewToolResultText(fmt.Sprint(token)), nil
	})
	s := &src{name: name, timeout: timeout}
	s.cl.Store(mcptest.Connect(t, srv, mcptest.OnNotification(func(n mcp.JSONRPCNotification) { r.HandleNotification(name, n) })))
	r.Add(s)
}

// TestProgressWithoutOnProgress: a caller that asks for no progress (the
// chat, 'tools call') still sends a token of the router's, so a server
// that reports progress only under one keeps a long call alive past its
// timeout. Without a token it was cut at the timeout (a 70 s tool at 60 s).
func TestProgressWithoutOnProgress(t *testing.T) {
	r := New(Options{})
	reporter(t, r, "ci", 200*time.Millisecond)
	// 20 reports 50 ms apart: a second in all, five times the timeout.
	res, err := r.Call(t.Context(), "ci", "build", map[string]any{"reports": 20}, CallOptions{})
	if err != nil {
		t.Fatalf("a long call reporting progress, no OnProgress: %v", err)
	}
	if tok := mcptest.Text(res); tok == "<nil>" {
		t.Errorf("the server saw no progress token")
	}
	raw, err := r.CallRaw(t.Context(), "ci", "build", []byte(`{"reports":20}`), CallOptions{})
	if err != nil {
		t.Fatalf("the same call relayed raw: %v (%s)", err, raw)
	}
}

// TestCallersProgressToken: a caller's own progress token (the gateway's
// client's) is the one the server sees, and its progress reaches the
// caller; two calls in flight with the same token on one server (two
// clients counting alike) each get their own progress, the second under
// a token of the router's.
func TestCallersProgressToken(t *testing.T) {
	r := New(Options{})
	reporter(t, r, "ci", 200*time.Millisecond)
	var wg sync.WaitGroup
	var reports [2]atomic.Int32
	seen := make([]string, 2)
	for i := range 2 {
		wg.Go(func() {
			opts := CallOptions{Meta: &mcp.Meta{ProgressToken: 7}, OnProgress: func(Progress) { reports[i].Add(1) }}
			res, err := r.Call(t.Context(), "ci", "build", map[string]any{"reports": 20}, opts)
			if err != nil {
				t.Errorf("call %d: %v", i, err)
				return
			}
			seen[i] = mcptest.Text(res)
		})
	}
	wg.Wait()
	if seen[0] == seen[1] || seen[0] != "7" && seen[1] != "7" {
		t.Errorf("tokens the server saw = %q, want the caller's 7 and another", seen)
	}
	for i := range reports {
		if n := reports[i].Load(); n < 10 || n > 20 {
			t.Errorf("call %d got %d progress reports, want its own 20 (the last may come after the result)", i, n)
		}
	}
}
