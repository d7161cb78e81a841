package router

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// httpServer serves an MCP server with a "block" tool over Streamable
// HTTP on 127.0.0.1 and connects to it on protocol version. started gets
// a value when a "block" call begins, cancelled the body of each
// notifications/cancelled the server is sent.
func httpServer(t *testing.T, version string) (cl *client.Client, started chan struct{}, cancelled chan []byte) {
	t.Helper()
	started, cancelled = make(chan struct{}, 4), make(chan []byte, 4)
	srv := server.NewMCPServer("remote", "1.0.0", server.WithToolCapabilities(true))
	srv.AddTool(mcp.NewTool("block"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		started <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	})
	mcpHandler := server.NewStreamableHTTPServer(srv)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		if bytes.Contains(body, []byte(`"notifications/cancelled"`)) {
			cancelled <- body
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		mcpHandler.ServeHTTP(w, req)
	}))
	t.Cleanup(hs.Close)
	tr, err := transport.NewStreamableHTTP(hs.URL)
	if err != nil {
		t.Fatal(err)
	}
	cl = client.NewClient(tr)
	t.Cleanup(func() { cl.Close() })
	if err := cl.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = version
	if res, err := cl.Initialize(t.Context(), init); err != nil || res.ProtocolVersion != version {
		t.Fatalf("initialize = %+v, %v; want protocol %s", res, err, version)
	}
	return cl, started, cancelled
}

// TestCancelOverLegacyHTTP: a call over Streamable HTTP with a server
// before 2026-07-28 whose caller gives up is cancelled on the server with
// notifications/cancelled, typed (the chat) or relayed (the gateway): the
// spec of those revisions does not take a closed request for one.
func TestCancelOverLegacyHTTP(t *testing.T) {
	calls := map[string]func(ctx context.Context, r *Router) error{
		"Call": func(ctx context.Context, r *Router) error {
			_, err := r.Call(ctx, "remote", "block", nil, CallOptions{})
			return err
		},
		"CallRaw": func(ctx context.Context, r *Router) error {
			_, err := r.CallRaw(ctx, "remote", "block", []byte(`{}`), CallOptions{})
			return err
		},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			cl, started, cancelled := httpServer(t, "2025-11-25")
			r := New(Options{})
			s := &src{name: "remote"}
			s.cl.Store(cl)
			r.Add(s)
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan error, 1)
			go func() { done <- call(ctx, r) }()
			select {
			case <-started:
			case err := <-done:
				t.Fatalf("the call ended before it reached the tool: %v", err)
			}
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Errorf("a cancelled call = %v, want context.Canceled", err)
			}
			select {
			case body := <-cancelled:
				if !bytes.Contains(body, []byte(`"requestId"`)) {
					t.Errorf("notifications/cancelled without the request's id: %s", body)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the server was sent no notifications/cancelled")
			}
		})
	}
}
