package gateway

import (
	"context"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// TestServeAppSessions: several attached apps are served at once, each as
// a session of its own (ServeStdio's one fixed session could be served
// once only), and every call is reported naming its app: the name given
// (serve --client), else the app's clientInfo.name.
func TestServeAppSessions(t *testing.T) {
	up := server.NewMCPServer("up", "1", server.WithToolCapabilities(true))
	up.AddTool(mcp.NewTool("echo", mcp.WithString("text")), func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(r.GetString("text", "")), nil
	})
	reg := router.New(router.Options{})
	reg.Add(src{inProcessUp(t, up, nil)})
	var mu sync.Mutex
	var calls []string
	g := New(reg, Options{Version: "test", OnCall: func(c Call) {
		mu.Lock()
		calls = append(calls, c.App+" "+c.Server+"/"+c.Tool)
		mu.Unlock()
	}})
	g.Refresh(t.Context())

	apps := []struct{ given, info, want string }{{"cursor", "Cursor", "cursor"}, {"", "zed-app", "zed-app"}, {"claude-code", "claude-code", "claude-code"}}
	var wg sync.WaitGroup
	for _, a := range apps {
		sw, cw := net.Pipe()
		served := make(chan error, 1)
		go func() { served <- g.ServeApp(t.Context(), sw, a.given) }()
		cl := client.NewClient(transport.NewIO(cw, cw, nil))
		if err := cl.Start(t.Context()); err != nil {
			t.Fatal(err)
		}
		init := mcp.InitializeRequest{}
		init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
		init.Params.ClientInfo = mcp.Implementation{Name: a.info, Version: "1"}
		if _, err := cl.Initialize(t.Context(), init); err != nil {
			t.Fatalf("%s: initialize: %v", a.want, err)
		}
		wg.Go(func() {
			if _, text := mcptest.Call(t, cl, "up__echo", map[string]any{"text": "hi " + a.want}); text != "hi "+a.want {
				t.Errorf("%s: echo = %q", a.want, text)
			}
		})
		t.Cleanup(func() {
			cw.Close()
			if err := <-served; err != nil && !strings.Contains(err.Error(), "closed") {
				t.Errorf("%s: ServeApp = %v", a.want, err)
			}
		})
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(calls)
	if want := []string{"claude-code up/echo", "cursor up/echo", "zed-app up/echo"}; !slices.Equal(calls, want) {
		t.Errorf("calls reported %v, want %v", calls, want)
	}
}
