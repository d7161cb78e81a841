package gateway

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

type src struct{ cl *client.Client }

func (s src) Name() string                   { return "up" }
func (s src) Client() (router.Client, error) { return s.cl, nil }
func (s src) CallTimeout() time.Duration     { return 0 }

func TestHTTPNeedsTokenAndLocalOrigin(t *testing.T) {
	up := server.NewMCPServer("up", "1", server.WithToolCapabilities(true))
	up.AddTool(mcp.NewTool("echo", mcp.WithString("text")), func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(r.GetString("text", "")), nil
	})
	cl := mcptest.Connect(t, up)
	reg := router.New(router.Options{})
	reg.Add(src{cl})
	g := New(reg, Options{Version: "test"})
	g.Refresh(t.Context())
	token := NewToken()
	srv := httptest.NewServer(g.HTTPHandler(token))
	t.Cleanup(srv.Close)

	post := func(mut func(*http.Request)) int {
		req, _ := http.NewRequest("POST", srv.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		mut(req)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	cases := []struct {
		name string
		mut  func(*http.Request)
		want int
	}{
		{"no token", func(*http.Request) {}, 401},
		{"wrong token", func(r *http.Request) { r.Header.Set("Authorization", "Bearer nope") }, 401},
		{"foreign origin", func(r *http.Request) {
			r.Header.Set("Authorization", "Bearer "+token)
			r.Header.Set("Origin", "https://evil.example")
		}, 403},
		{"rebinding host", func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+token); r.Host = "evil.example:80" }, 403},
	}
	for _, c := range cases {
		if got := post(c.mut); got != c.want {
			t.Errorf("%s: status %d, want %d", c.name, got, c.want)
		}
	}

	// A real client with the token lists and calls the tools.
	hc, err := client.NewStreamableHttpClient(srv.URL+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token, "Origin": "http://localhost:5173"}))
	if err != nil {
		t.Fatal(err)
	}
	defer hc.Close()
	if err := hc.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := hc.Initialize(t.Context(), initAt(mcp.LATEST_PROTOCOL_VERSION)); err != nil {
		t.Fatal(err)
	}
	call := mcp.CallToolRequest{}
	call.Params.Name = "up__echo"
	call.Params.Arguments = map[string]any{"text": "over http"}
	res, err := hc.CallTool(t.Context(), call)
	if err != nil || res.Content[0].(mcp.TextContent).Text != "over http" {
		t.Fatalf("call = %+v %v", res, err)
	}
	if !LoopbackAddr("127.0.0.1:8080") || !LoopbackAddr("[::1]:1") || LoopbackAddr("0.0.0.0:8080") || LoopbackAddr(":8080") {
		t.Error("LoopbackAddr")
	}
}
