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

// TestServeAppSees: an attached app sees only the servers chosen for it
// (Options.Sees): its tools/list leaves the others out, a call of a hidden
// server's tool is refused with a tool error saying why and reaches no
// server (nor the call count), and another app still sees everything.
func TestServeAppSees(t *testing.T) {
	reg := router.New(router.Options{})
	var mu sync.Mutex
	ran := map[string]int{} // calls that reached each upstream
	for _, name := range []string{"notes", "mail"} {
		up := server.NewMCPServer(name, "1", server.WithToolCapabilities(true))
		up.AddTool(mcp.NewTool("echo", mcp.WithString("text")), func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			mu.Lock()
			ran[name]++
			mu.Unlock()
			return mcp.NewToolResultText(name + ": " + r.GetString("text", "")), nil
		})
		reg.Add(named{name: name, cl: inProcessUp(t, up, nil)})
	}
	var counted []string
	g := New(reg, Options{Version: "test",
		Sees: func(app, server string) bool { return app != "cursor" || server == "notes" },
		OnCall: func(c Call) {
			mu.Lock()
			counted = append(counted, c.App+" "+c.Server)
			mu.Unlock()
		}})
	g.Refresh(t.Context())

	attach := func(app, version string) *client.Client {
		sw, cw := net.Pipe()
		served := make(chan error, 1)
		go func() { served <- g.ServeApp(t.Context(), sw, app) }()
		t.Cleanup(func() { cw.Close(); <-served })
		cl := client.NewClient(transport.NewIO(cw, cw, nil))
		if err := cl.Start(t.Context()); err != nil {
			t.Fatal(err)
		}
		init := mcp.InitializeRequest{}
		init.Params.ProtocolVersion = version
		init.Params.ClientInfo = mcp.Implementation{Name: app, Version: "1"}
		if _, err := cl.Initialize(t.Context(), init); err != nil {
			t.Fatal(err)
		}
		return cl
	}
	// Apps today speak 2025-06-18; a 2026-07-28 app's calls go through
	// mcp-go's server, whose tool filter refuses a hidden tool as unknown.
	cursor, zed, modern := attach("cursor", "2025-06-18"), attach("zed", "2025-06-18"), attach("cursor", mcp.LATEST_PROTOCOL_VERSION)
	if got := listedNames(t, cursor); !slices.Equal(got, []string{"notes__echo"}) {
		t.Errorf("cursor's tools/list = %v, want only notes__echo", got)
	}
	if got := listedNames(t, zed); !slices.Equal(got, []string{"mail__echo", "notes__echo"}) {
		t.Errorf("zed's tools/list = %v, want both servers' tools", got)
	}
	if res, text := mcptest.Call(t, cursor, "notes__echo", map[string]any{"text": "hi"}); res.IsError || text != "notes: hi" {
		t.Errorf("cursor calling notes__echo = %q (error %v)", text, res.IsError)
	}
	res, text := mcptest.Call(t, cursor, "mail__echo", map[string]any{"text": "hi"})
	if !res.IsError || !strings.Contains(text, "mail") || !strings.Contains(text, "cursor") || !strings.Contains(text, "Connected apps") {
		t.Errorf("cursor calling hidden mail__echo = %q (error %v), want a tool error naming the server, the app and where to choose", text, res.IsError)
	}
	if got := listedNames(t, modern); !slices.Equal(got, []string{"notes__echo"}) {
		t.Errorf("the 2026-07-28 cursor's tools/list = %v, want only notes__echo", got)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "mail__echo", map[string]any{"text": "hi"}
	if res, err := modern.CallTool(t.Context(), req); err == nil && !res.IsError {
		t.Errorf("the 2026-07-28 cursor called hidden mail__echo: %q", mcptest.Text(res))
	}
	if _, text := mcptest.Call(t, zed, "mail__echo", map[string]any{"text": "hi"}); text != "mail: hi" {
		t.Errorf("zed calling mail__echo = %q", text)
	}
	mu.Lock()
	defer mu.Unlock()
	if ran["mail"] != 1 {
		t.Errorf("mail ran %d calls, want 1 (zed's; cursor's was refused before it)", ran["mail"])
	}
	slices.Sort(counted)
	if want := []string{"cursor notes", "zed mail"}; !slices.Equal(counted, want) {
		t.Errorf("OnCall reported %v, want %v (a refused call is not counted)", counted, want)
	}
}
