package gui

import (
	"bufio"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/cli"
	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// partyUser answers a form with a name and records the questions.
type partyUser struct {
	mu    sync.Mutex
	asked []string
}

func (u *partyUser) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	u.mu.Lock()
	u.asked = append(u.asked, req.Params.Message)
	u.mu.Unlock()
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"name": "Ada", "size": 3}}}, nil
}

// TestServeRelaysInputRequired: 'switchboard serve' in front of a server
// that speaks MCP 2026-07-28 only, for a client of that revision over stdio
// and over Streamable HTTP. The server's form reaches the client as the
// input_required result of its own call (no request of the gateway's), the
// client's retry carries the answer back to the waiting server, and the
// call ends with the server's result.
func TestServeRelaysInputRequired(t *testing.T) {
	bin := proctest.Server(t, "modernserver")
	call := func(t *testing.T, cl *client.Client, u *partyUser) {
		t.Helper()
		parityWaitTool(t, cl, "bistro__book_table")
		if v := cl.ProtocolVersion(); v != mcp.ProtocolVersion20260728 {
			t.Fatalf("the client speaks %q with serve, want 2026-07-28", v)
		}
		req := mcp.CallToolRequest{}
		req.Params.Name = "bistro__book_table"
		req.Params.Arguments = map[string]any{}
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		res, err := cl.CallTool(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Content[0].(mcp.TextContent).Text; got != "Booked a table for 3 under Ada." {
			t.Errorf("result %q", got)
		}
		u.mu.Lock()
		defer u.mu.Unlock()
		if strings.Join(u.asked, "|") != "Who is the table for?" {
			t.Errorf("the client was asked %q", u.asked)
		}
	}

	t.Run("stdio", func(t *testing.T) {
		dir := parityDataDir(t)
		terminal(t, dir, "", "servers", "add", "bistro", "--", bin)
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan int, 1)
		go func() {
			done <- cli.Run(t.Context(), []string{"--data-dir", dir.String(), "serve"}, cli.Env{Stdin: inR, Stdout: outW, Stderr: io.Discard})
			outW.Close()
		}()
		u := &partyUser{}
		cl := client.NewClient(transport.NewIO(bufio.NewReader(outR), inW, nil), client.WithElicitationHandler(u))
		t.Cleanup(func() {
			cl.Close()
			inW.Close()
			<-done
		})
		connect(t, cl)
		call(t, cl, u)
	})

	t.Run("http", func(t *testing.T) {
		dir := parityDataDir(t)
		terminal(t, dir, "", "servers", "add", "bistro", "--", bin)
		u := &partyUser{}
		cl := serveHTTPClient(t, dir, u)
		call(t, cl, u)
	})

	t.Run("http, a 2025 server's own request", func(t *testing.T) {
		// The request is not tied to a call on the wire; the one call
		// running on that server is the one it belongs to.
		dir := parityDataDir(t)
		terminal(t, dir, "", "servers", "add", "links", "--", proctest.Server(t, "urlserver"))
		u := &partyUser{}
		cl := serveHTTPClient(t, dir, u)
		parityWaitTool(t, cl, "links__open_link")
		req := mcp.CallToolRequest{}
		req.Params.Name = "links__open_link"
		req.Params.Arguments = map[string]any{}
		res, err := cl.CallTool(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Content[0].(mcp.TextContent).Text; got != "action=accept" {
			t.Errorf("result %q, want the client's answer", got)
		}
		if len(u.asked) != 1 {
			t.Errorf("the client was asked %q", u.asked)
		}
	})
}

// serveHTTPClient runs 'serve --http' on dir and returns a 2026-07-28
// client of it (connect) whose forms u answers.
func serveHTTPClient(t *testing.T, dir datadir.Dir, u *partyUser) *client.Client {
	t.Helper()
	const token = "relay-token-0123456789"
	endpoint, _ := startServeHTTP(t, dir, token)
	tr, err := transport.NewStreamableHTTP(endpoint, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	if err != nil {
		t.Fatal(err)
	}
	cl := client.NewClient(tr, client.WithElicitationHandler(u))
	t.Cleanup(func() { cl.Close() })
	connect(t, cl)
	return cl
}

// connect opens cl as a 2026-07-28 client that takes forms of both modes.
func connect(t *testing.T, cl *client.Client) {
	t.Helper()
	if err := cl.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "relay-test", Version: "1"}
	init.Params.Capabilities.Elicitation = &mcp.ElicitationCapability{Form: &struct{}{}, URL: &struct{}{}}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if _, err := cl.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
}
