package gateway

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// gatewayAsHandler sends an upstream session's sampling and elicitation
// to the gateway, as 'switchboard serve' does.
type gatewayAsHandler struct{ g *Gateway }

func (h gatewayAsHandler) CreateMessage(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return h.g.CreateMessage(ctx, "up", req)
}

func (h gatewayAsHandler) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return h.g.Elicit(ctx, "up", req)
}

// downstream is what the client on the gateway's stdio answers.
type downstream struct{}

func (downstream) CreateMessage(_ context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	asked := req.Messages[0].Content.(mcp.TextContent).Text
	return &mcp.CreateMessageResult{Model: "client-model", StopReason: "endTurn",
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("the client's model answers: " + asked)}}, nil
}

func (downstream) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept,
		Content: map[string]any{"name": "Ada (" + req.Params.Message + ")"}}}, nil
}

// askingUpstream is a server whose tools ask the client: "sample" for a
// model's answer, "elicit" for a form.
func askingUpstream() *server.MCPServer {
	s := server.NewMCPServer("up", "1", server.WithToolCapabilities(true))
	s.EnableSampling()
	s.AddTool(mcp.NewTool("sample"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		req := mcp.CreateMessageRequest{}
		req.Messages = []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("what is 6*7?")}}
		req.MaxTokens = 10
		res, err := s.RequestSampling(ctx, req)
		if err != nil {
			return mcp.NewToolResultError("sampling: " + err.Error()), nil
		}
		return mcp.NewToolResultText(res.Content.(mcp.TextContent).Text), nil
	})
	s.AddTool(mcp.NewTool("elicit"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		req := mcp.ElicitationRequest{}
		req.Params.Message = "your name?"
		req.Params.RequestedSchema = map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}
		res, err := s.RequestElicitation(ctx, req)
		if err != nil {
			return mcp.NewToolResultError("elicitation: " + err.Error()), nil
		}
		name, _ := res.Content.(map[string]any)["name"].(string)
		return mcp.NewToolResultText(string(res.Action) + ": " + name), nil
	})
	return s
}

// askingGateway is a gateway in front of askingUpstream (over stdio, the
// upstream's requests handed to the gateway as serve does); the upstream
// stops at the test's end.
func askingGateway(t *testing.T) *Gateway {
	t.Helper()
	reg := router.New(router.Options{})
	g := New(reg, Options{Version: "test"})
	upInR, upInW := io.Pipe()
	upOutR, upOutW := io.Pipe()
	upDone := make(chan struct{})
	go func() {
		defer close(upDone)
		_ = server.NewStdioServer(askingUpstream()).Listen(context.Background(), upInR, upOutW)
		upOutW.Close()
	}()
	up := client.NewClient(transport.NewIO(upOutR, upInW, nil),
		client.WithSamplingHandler(gatewayAsHandler{g}), client.WithElicitationHandler(gatewayAsHandler{g}))
	if err := up.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := up.Initialize(t.Context(), initAt(mcp.ProtocolVersion20251125)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		up.Close()
		upInW.Close()
		upOutR.Close() // a late answer nobody reads must not keep the upstream's Listen waiting
		<-upDone
	})
	reg.Add(named{"up", up})
	g.Refresh(t.Context())
	return g
}

func initAt(version string) mcp.InitializeRequest {
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = version
	return init
}

// passThrough starts an upstream that asks, a gateway in front of it over
// stdio, and a client on the gateway with protocol version and, when
// answers is set, sampling and elicitation handlers.
func passThrough(t *testing.T, version string, answers bool) (*Gateway, *client.Client) {
	t.Helper()
	g := askingGateway(t)

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		served <- g.ServeStdio(ctx, inR, outW)
		outW.Close()
	}()
	var opts []client.ClientOption
	if answers {
		opts = append(opts, client.WithSamplingHandler(downstream{}), client.WithElicitationHandler(downstream{}))
	}
	c := client.NewClient(transport.NewIO(bufio.NewReader(outR), inW, nil), opts...)
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Initialize(t.Context(), initAt(version)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // before the upstream's (cleanups run last first)
		c.Close()
		inW.Close()
		cancel()
		select {
		case <-served:
		case <-time.After(10 * time.Second):
			t.Error("ServeStdio did not return")
		}
	})
	return g, c
}

// TestServerRequestsReachTheClient: a server's sampling and elicitation
// requests made during a call through the gateway are answered by the
// client connected to it, when it declared them; otherwise the gateway
// says ErrNoClient (serve then declines, as before).
func TestServerRequestsReachTheClient(t *testing.T) {
	call := func(t *testing.T, c *client.Client, tool string) *mcp.CallToolResult {
		t.Helper()
		req := mcp.CallToolRequest{}
		req.Params.Name = "up__" + tool
		res, err := c.CallTool(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	text := func(r *mcp.CallToolResult) string { return r.Content[0].(mcp.TextContent).Text }

	t.Run("client answers", func(t *testing.T) {
		_, c := passThrough(t, mcp.ProtocolVersion20251125, true)
		if r := call(t, c, "sample"); r.IsError || text(r) != "the client's model answers: what is 6*7?" {
			t.Errorf("sample = %+v", r)
		}
		if r := call(t, c, "elicit"); r.IsError || text(r) != "accept: Ada (your name?)" {
			t.Errorf("elicit = %+v", r)
		}
	})
	for _, tc := range []struct {
		name    string
		version string
		answers bool
	}{
		{"client without the capabilities", mcp.ProtocolVersion20251125, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, c := passThrough(t, tc.version, tc.answers)
			if _, err := g.CreateMessage(t.Context(), "up", mcp.CreateMessageRequest{}); !errors.Is(err, ErrNoClient) {
				t.Errorf("CreateMessage = %v, want ErrNoClient", err)
			}
			if _, err := g.Elicit(t.Context(), "up", mcp.ElicitationRequest{}); !errors.Is(err, ErrNoClient) {
				t.Errorf("Elicit = %v, want ErrNoClient", err)
			}
			if r := call(t, c, "sample"); !r.IsError {
				t.Errorf("sample without a client to ask = %+v, want the server's error", r)
			}
		})
	}
}

// TestServerRequestsReachAnHTTPClient: the same pass-through for a client
// on 'serve --http' (Streamable HTTP): the upstream's sampling and
// elicitation, asked during a call, reach the client that made it. A
// question goes out on the call's own POST stream, so a client that opens
// no GET stream (the transport makes it optional) gets it too: elicitation
// always did, sampling since mcp-go 1.6 (before, mcp-go sent sampling on
// the GET stream only, and such a client never saw it). (Its two clients
// call one after the other: noGrace.)
func TestServerRequestsReachAnHTTPClient(t *testing.T) {
	noGrace(t)
	g := askingGateway(t)
	token := NewToken()
	srv := httptest.NewServer(g.HTTPHandler(token))
	t.Cleanup(srv.Close)
	want := map[string]string{
		"elicit": "accept: Ada (your name?)",
		"sample": "the client's model answers: what is 6*7?",
	}
	for _, listen := range []bool{true, false} {
		opts := []transport.StreamableHTTPCOption{transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token})}
		if listen {
			opts = append(opts, transport.WithContinuousListening())
		}
		tr, err := transport.NewStreamableHTTP(srv.URL+"/mcp", opts...)
		if err != nil {
			t.Fatal(err)
		}
		c := client.NewClient(tr, client.WithSamplingHandler(downstream{}), client.WithElicitationHandler(downstream{}))
		if err := c.Start(t.Context()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if _, err := c.Initialize(t.Context(), initAt(mcp.ProtocolVersion20251125)); err != nil {
			t.Fatal(err)
		}
		for tool, want := range want {
			req := mcp.CallToolRequest{}
			req.Params.Name = "up__" + tool
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			res, err := c.CallTool(ctx, req)
			cancel()
			if err != nil {
				t.Fatalf("GET stream %v, %s: %v", listen, tool, err)
			}
			if got := res.Content[0].(mcp.TextContent).Text; res.IsError || got != want {
				t.Errorf("GET stream %v, %s = %q (error %v), want %q", listen, tool, got, res.IsError, want)
			}
		}
	}
}

// TestModernHTTPRequestStream: a 2026-07-28 client on 'serve --http' gets
// an upstream's sampling and elicitation as the input_required result of
// its call, and its call's stream carries that result alone: no request
// of the server's own (that revision has none; mcp-go's server sends them
// on the call's stream since 1.6, for older clients), and no log message,
// since the call set no logLevel. The conformance suite checks these
// rules only with test tools of its own, which a gateway does not list
// (baseline-2026.yml), so they are checked here.
func TestModernHTTPRequestStream(t *testing.T) {
	for _, tc := range []struct{ tool, method string }{
		{"sample", string(mcp.MethodSamplingCreateMessage)},
		{"elicit", string(mcp.MethodElicitationCreate)},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			g := askingGateway(t)
			token := NewToken()
			srv := httptest.NewServer(g.HTTPHandler(token))
			t.Cleanup(srv.Close)
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{` +
				`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},` +
				`"io.modelcontextprotocol/clientCapabilities":{"sampling":{},"elicitation":{"form":{}}}},"name":"up__` + tc.tool + `","arguments":{}}}`
			// A request of the server's own on the stream would hold it open
			// until someone answered it.
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/mcp", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range map[string]string{
				"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "Authorization": "Bearer " + token,
				"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "up__" + tc.tool,
			} {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			raw, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatalf("reading the call's stream: %v; it held:\n%s", err, raw)
			}
			msgs := []string{string(raw)}
			if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
				msgs = nil
				for line := range strings.Lines(string(raw)) {
					if data, ok := strings.CutPrefix(strings.TrimSpace(line), "data:"); ok {
						msgs = append(msgs, data)
					}
				}
			}
			if resp.StatusCode != http.StatusOK || len(msgs) != 1 {
				t.Fatalf("HTTP %d, %d messages on the call's stream, want 200 and the call's result alone:\n%s", resp.StatusCode, len(msgs), raw)
			}
			var m struct {
				Method string `json:"method"`
				Result struct {
					ResultType    string                     `json:"resultType"`
					InputRequests map[string]json.RawMessage `json:"inputRequests"`
				} `json:"result"`
			}
			if err := json.Unmarshal([]byte(msgs[0]), &m); err != nil {
				t.Fatalf("%v: %s", err, msgs[0])
			}
			asked := m.Result.InputRequests["q1"]
			if m.Method != "" || m.Result.ResultType != "input_required" || !strings.Contains(string(asked), `"method":"`+tc.method+`"`) {
				t.Errorf("the call's stream = %s, want the result input_required asking %s under q1", msgs[0], tc.method)
			}
		})
	}
}
