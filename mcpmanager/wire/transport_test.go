package wire_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// sampler answers the server's sampling requests.
type sampler struct{}

func (sampler) CreateMessage(_ context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return &mcp.CreateMessageResult{Model: "m",
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("sampled")}}, nil
}

// connect runs a real mcp-go stdio server on pipes and an mcp-go client on
// a wire.Transport.
func connect(t *testing.T) (*client.Client, *wire.Transport) {
	t.Helper()
	s := server.NewMCPServer("t", "1", server.WithToolCapabilities(true), server.WithLogging())
	s.AddTool(mcp.NewTool("echo", mcp.WithString("m")), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_ = server.ServerFromContext(ctx).SendNotificationToClient(ctx, "notifications/message", map[string]any{"level": "info", "data": "echoing"})
		return mcp.NewToolResultText(req.GetString("m", "")), nil
	})
	s.AddTool(mcp.NewTool("ask"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := server.ServerFromContext(ctx).RequestSampling(ctx, mcp.CreateMessageRequest{CreateMessageParams: mcp.CreateMessageParams{
			Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("hi")}}, MaxTokens: 5}})
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(res.Content.(mcp.TextContent).Text), nil
	})
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = server.NewStdioServer(s).Listen(ctx, sr, sw)
	}()
	tr := wire.New(cr, cw)
	c := client.NewClient(tr, client.WithSamplingHandler(sampler{}))
	t.Cleanup(func() {
		c.Close()
		cancel()
		sr.Close()
		sw.Close()
		<-done
	})
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-11-25"
	if _, err := c.Initialize(t.Context(), init); err != nil {
		t.Fatal(err)
	}
	return c, tr
}

func TestAClientOnTheTransport(t *testing.T) {
	c, tr := connect(t)
	notes := make(chan mcp.JSONRPCNotification, 4)
	c.OnNotification(func(n mcp.JSONRPCNotification) { notes <- n })

	big := strings.Repeat("é\"x\\", 100_000) // > the read buffer, with escapes
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "echo", map[string]any{"m": big}
	res, err := c.CallTool(t.Context(), req)
	if err != nil || res.Content[0].(mcp.TextContent).Text != big {
		t.Fatalf("echo: %v", err)
	}
	select {
	case n := <-notes:
		if n.Method != "notifications/message" {
			t.Fatalf("notification %s", n.Method)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server's notification never arrived")
	}

	// A server request (sampling) answered through the client's handler.
	req.Params.Name, req.Params.Arguments = "ask", nil
	if res, err := c.CallTool(t.Context(), req); err != nil || res.Content[0].(mcp.TextContent).Text != "sampled" {
		t.Fatalf("ask: %+v, %v", res, err)
	}

	// SendRaw: params written as they are, result handed back as bytes.
	r, err := tr.SendRaw(t.Context(), mcp.NewRequestId("raw-1"), "tools/call", []byte(`{"name":"echo","arguments":{"m":"raw \"text\""}}`))
	if err != nil || r.Error != nil {
		t.Fatalf("SendRaw: %+v, %v", r, err)
	}
	var got mcp.CallToolResult
	if err := json.Unmarshal(r.Result, &got); err != nil || got.Content[0].(mcp.TextContent).Text != `raw "text"` {
		t.Fatalf("SendRaw result %s: %v", r.Result, err)
	}
	// An unknown method comes back as the server's error.
	r, err = tr.SendRaw(t.Context(), mcp.NewRequestId(int64(99)), "no/such", nil)
	if err != nil || r.Error == nil || r.Error.Code != mcp.METHOD_NOT_FOUND {
		t.Fatalf("unknown method: %+v, %v", r, err)
	}
}

// A raw peer: what the transport does with broken lines, ids it never
// sent, and the end of the stream.
func TestBrokenLinesAndTheEnd(t *testing.T) {
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	tr := wire.New(cr, cw)
	strays := make(chan string, 4)
	tr.SetStrayHandler(func(line []byte) { strays <- string(line) })
	if err := tr.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	got := make(chan *transport.JSONRPCResponse, 1)
	errs := make(chan error, 1)
	go func() {
		res, err := tr.SendRequest(t.Context(), transport.JSONRPCRequest{JSONRPC: "2.0", ID: mcp.NewRequestId(int64(1)), Method: "ping"})
		got <- res
		errs <- err
	}()
	in := bufio.NewReader(sr)
	line, err := in.ReadString('\n')
	if err != nil || !strings.Contains(line, `"method":"ping"`) {
		t.Fatalf("request line %q, %v", line, err)
	}
	for _, l := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"a":tru}}`, // broken: dropped, the request still waits
		`not json at all`,
		`   `,                                  // blank: nothing to tell
		`{"jsonrpc":"2.0","id":2,"result":{}}`, // an id never sent
		`{"jsonrpc":"2.0","id":1.0,"result":{"ok":true}}`,
	} {
		if _, err := io.WriteString(sw, l+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	if res := <-got; res == nil || string(res.Result) != `{"ok":true}` || <-errs != nil {
		t.Fatalf("response %+v", res)
	}
	// The lines that are no JSON-RPC message are told, to go to the log.
	if a, b := <-strays, <-strays; !strings.Contains(a, `"a":tru`) || b != "not json at all" || len(strays) != 0 {
		t.Fatalf("strays %q, %q and %d more", a, b, len(strays))
	}
	// The stream ends: a waiting request fails at once.
	go func() {
		_, err := tr.SendRequest(context.Background(), transport.JSONRPCRequest{JSONRPC: "2.0", ID: mcp.NewRequestId(int64(3)), Method: "ping"})
		errs <- err
	}()
	if _, err := in.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	sw.Close()
	select {
	case err := <-errs:
		if !errors.Is(err, transport.ErrTransportClosed) {
			t.Fatalf("after EOF: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a request outlived the stream")
	}
}
