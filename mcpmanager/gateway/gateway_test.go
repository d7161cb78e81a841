package gateway

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// inProcessUp connects an in-process client to s, as a built-in server is.
func inProcessUp(t *testing.T, s *server.MCPServer, onNote func(mcp.JSONRPCNotification)) *client.Client {
	t.Helper()
	return mcptest.Connect(t, s, mcptest.OnNotification(onNote))
}

// listener is a session of the gateway's MCP server that only collects
// notifications: SetTools delivers them before it returns, so a test can
// count them right after Refresh.
func listener(t *testing.T, g *Gateway) *stdioSession {
	t.Helper()
	sess := &stdioSession{notes: make(chan mcp.JSONRPCNotification, 64)}
	sess.Initialize()
	if err := g.srv.RegisterSession(t.Context(), sess); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.srv.UnregisterSession(context.Background(), sess.SessionID()) })
	return sess
}

// drain counts the list_changed notifications waiting in sess.
func drain(sess *stdioSession) int {
	n := 0
	for {
		select {
		case note := <-sess.notes:
			if note.Method == string(mcp.MethodNotificationToolsListChanged) {
				n++
			}
		default:
			return n
		}
	}
}

func boolPtr(b bool) *bool { return &b }

// TestRefreshComparesDefinitions: a client hears tools/list_changed when
// anything of a published tool changes, not only its name, and only then.
func TestRefreshComparesDefinitions(t *testing.T) {
	up := server.NewMCPServer("up", "1", server.WithToolCapabilities(true))
	handler := func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	}
	set := func(tools ...mcp.Tool) {
		var st []server.ServerTool
		for _, tl := range tools {
			st = append(st, server.ServerTool{Tool: tl, Handler: handler})
		}
		up.SetTools(st...)
	}
	echo := mcp.NewTool("echo", mcp.WithDescription("Echo"), mcp.WithString("text"))
	set(echo)
	reg := router.New(router.Options{})
	reg.Add(src{inProcessUp(t, up, nil)})
	g := New(reg, Options{Version: "test"})
	sess := listener(t, g)

	withDesc := echo
	withDesc.Description = "Echo the text back"
	withSchema := withDesc
	withSchema.InputSchema.Properties = map[string]any{"text": map[string]any{"type": "string", "maxLength": 10}}
	withAnnotations := withSchema
	withAnnotations.Annotations.ReadOnlyHint = boolPtr(true)
	withOutput := withAnnotations
	withOutput.OutputSchema = mcp.ToolOutputSchema{Type: "object", Properties: map[string]any{"n": map[string]any{"type": "number"}}}
	other := mcp.NewTool("other")
	steps := []struct {
		name  string
		tools []mcp.Tool // nil: the server's tools stay as they are
		want  int        // list_changed notifications
		desc  string     // published description of up__echo afterwards
	}{
		{"first publish", nil, 1, "Echo"},
		{"nothing changed", nil, 0, "Echo"},
		{"description", []mcp.Tool{withDesc}, 1, "Echo the text back"},
		{"input schema", []mcp.Tool{withSchema}, 1, "Echo the text back"},
		{"annotations", []mcp.Tool{withAnnotations}, 1, "Echo the text back"},
		{"output schema", []mcp.Tool{withOutput}, 1, "Echo the text back"},
		{"same again", []mcp.Tool{withOutput}, 0, "Echo the text back"},
		{"tool added", []mcp.Tool{withOutput, other}, 1, "Echo the text back"},
		{"tool removed", []mcp.Tool{withOutput}, 1, "Echo the text back"},
	}
	for _, s := range steps {
		if s.tools != nil {
			set(s.tools...)
		}
		reg.Invalidate("up")
		g.Refresh(t.Context())
		if got := drain(sess); got != s.want {
			t.Errorf("%s: %d list_changed notifications, want %d", s.name, got, s.want)
		}
		if tl := g.srv.GetTool("up__echo"); tl == nil || tl.Tool.Description != s.desc {
			t.Errorf("%s: published up__echo = %+v, want description %q", s.name, tl, s.desc)
		}
	}
	published := g.srv.ListTools()
	if tl := published["up__echo"]; tl == nil || tl.Tool.Annotations.ReadOnlyHint == nil || !*tl.Tool.Annotations.ReadOnlyHint || tl.Tool.OutputSchema.Type != "object" {
		t.Errorf("published up__echo = %+v, want the last annotations and output schema", tl)
	}
	if _, ok := published["up__other"]; ok {
		t.Error("a removed tool is still published")
	}
}

// A tool its server runs as a task is published without task support: the
// gateway takes no task-augmented calls (it runs the task upstream itself).
func TestPublishedToolsClaimNoTaskSupport(t *testing.T) {
	up := server.NewMCPServer("up", "1", server.WithToolCapabilities(true))
	long := mcp.NewTool("long", mcp.WithTaskSupport(mcp.TaskSupportRequired))
	up.AddTool(long, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("done"), nil
	})
	reg := router.New(router.Options{})
	reg.Add(src{inProcessUp(t, up, nil)})
	g := New(reg, Options{Version: "test"})
	g.Refresh(t.Context())
	tl := g.srv.GetTool("up__long")
	if tl == nil || tl.Tool.Execution != nil {
		t.Fatalf("published up__long = %+v, want it without execution.taskSupport", tl)
	}
}

// TestWatchFollowsListChanged: a server changing a tool's schema and saying
// tools/list_changed reaches the gateway's clients with no Refresh call
// and no polling.
func TestWatchFollowsListChanged(t *testing.T) {
	up := server.NewMCPServer("up", "1", server.WithToolCapabilities(true))
	handler := func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	}
	up.AddTool(mcp.NewTool("echo", mcp.WithString("text")), handler)
	reg := router.New(router.Options{})
	cl := inProcessUp(t, up, func(n mcp.JSONRPCNotification) { reg.HandleNotification("up", n) })
	reg.Add(src{cl})
	g := New(reg, Options{Version: "test"})
	sess := listener(t, g)
	ctx, cancel := context.WithCancel(t.Context())
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		g.Watch(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-watched
	})
	waitNote := func(what string) {
		t.Helper()
		for {
			select {
			case n := <-sess.notes:
				if n.Method == string(mcp.MethodNotificationToolsListChanged) {
					return
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s: no notifications/tools/list_changed", what)
			}
		}
	}
	waitNote("first publish")
	// Same name, new schema: the server sends list_changed itself.
	up.SetTools(server.ServerTool{Tool: mcp.NewTool("echo", mcp.WithString("text"), mcp.WithNumber("times")), Handler: handler})
	waitNote("schema changed")
	tl := g.srv.GetTool("up__echo")
	if tl == nil {
		t.Fatal("up__echo is not published")
	}
	if def, err := json.Marshal(tl.Tool); err != nil || !strings.Contains(string(def), `"times"`) {
		t.Fatalf("published up__echo = %s (%v), want the new schema", def, err)
	}
}

// lateSource is a server that is not ready until ready is set.
type lateSource struct {
	name  string
	cl    *client.Client
	ready atomic.Bool
}

func (s *lateSource) Name() string               { return s.name }
func (s *lateSource) CallTimeout() time.Duration { return 0 }
func (s *lateSource) Client() (router.Client, error) {
	if !s.ready.Load() {
		return nil, errors.New(s.name + ": server is not ready (starting)")
	}
	return s.cl, nil
}

// TestStartup: initialize is answered at once; tools/list waits for
// servers still starting, up to StartupWait; a server ready later is
// published with notifications/tools/list_changed.
func TestStartup(t *testing.T) {
	old := StartupWait
	StartupWait = 300 * time.Millisecond
	t.Cleanup(func() { StartupWait = old })
	cases := []struct {
		name      string
		readyIn   bool // the late server is ready before the start-up wait ends
		wantFirst []string
	}{
		{"ready within the wait", true, []string{"good__echo", "late__echo"}},
		{"still starting after the wait", false, []string{"good__echo"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tool := func(name string) *server.MCPServer {
				s := server.NewMCPServer(name, "1", server.WithToolCapabilities(true))
				s.AddTool(mcp.NewTool("echo"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return mcp.NewToolResultText(name), nil
				})
				return s
			}
			reg := router.New(router.Options{})
			good := &lateSource{name: "good", cl: inProcessUp(t, tool("good"), nil)}
			good.ready.Store(true)
			late := &lateSource{name: "late", cl: inProcessUp(t, tool("late"), nil)}
			reg.Add(good)
			reg.Add(late)
			settle := make(chan struct{})
			var once sync.Once
			becomeReady := func() {
				once.Do(func() {
					late.ready.Store(true)
					reg.Invalidate("late") // what the manager's status hook does
					close(settle)
				})
			}
			t.Cleanup(becomeReady)
			settled := func(ctx context.Context) {
				if tc.readyIn {
					becomeReady()
				}
				select {
				case <-settle:
				case <-ctx.Done():
				}
			}
			g := New(reg, Options{Version: "test", Settled: settled})
			// Publish what is ready before any client connects, so the late
			// server is the only change a client can hear of.
			g.Refresh(t.Context())
			ctx, cancel := context.WithCancel(t.Context())
			watched := make(chan struct{})
			go func() {
				defer close(watched)
				g.Watch(ctx)
			}()
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			served := make(chan error, 1)
			go func() {
				served <- g.ServeStdio(ctx, inR, outW)
				outW.Close()
			}()
			t.Cleanup(func() {
				cancel()
				inW.Close()
				go io.Copy(io.Discard, outR)
				<-watched
				if err := <-served; err != nil {
					t.Errorf("ServeStdio = %v", err)
				}
			})
			c := client.NewClient(transport.NewIO(bufio.NewReader(outR), inW, nil))
			changed := make(chan struct{}, 8)
			c.OnNotification(func(n mcp.JSONRPCNotification) {
				if n.Method == string(mcp.MethodNotificationToolsListChanged) {
					changed <- struct{}{}
				}
			})
			if err := c.Start(t.Context()); err != nil {
				t.Fatal(err)
			}
			ictx, icancel := context.WithTimeout(t.Context(), 2*time.Second) // far below a start-up
			defer icancel()
			init := mcp.InitializeRequest{}
			init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
			if _, err := c.Initialize(ictx, init); err != nil {
				t.Fatalf("initialize while a server is starting: %v", err)
			}
			if got := listedNames(t, c); !slices.Equal(got, tc.wantFirst) {
				t.Fatalf("first tools/list = %v, want %v", got, tc.wantFirst)
			}
			if tc.readyIn {
				return
			}
			becomeReady()
			select {
			case <-changed: // the only change since the first publish
			case <-time.After(10 * time.Second):
				t.Fatal("no notifications/tools/list_changed when the late server became ready")
			}
			if got, want := listedNames(t, c), []string{"good__echo", "late__echo"}; !slices.Equal(got, want) {
				t.Fatalf("tools/list after list_changed = %v, want %v", got, want)
			}
			res, err := c.CallTool(t.Context(), callReq("late__echo", nil))
			if err != nil || res.Content[0].(mcp.TextContent).Text != "late" {
				t.Fatalf("call the late server's tool = %+v, %v", res, err)
			}
		})
	}
}
