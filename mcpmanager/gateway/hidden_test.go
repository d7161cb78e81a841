package gateway

import (
	"context"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// everythingServer is an upstream offering one of everything: a tool, a
// prompt, a resource and a resource template.
func everythingServer(name string) *server.MCPServer {
	up := server.NewMCPServer(name, "1", server.WithToolCapabilities(true), server.WithPromptCapabilities(true), server.WithResourceCapabilities(false, true))
	up.AddTool(mcp.NewTool("echo", mcp.WithString("text")), func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(name + ": " + r.GetString("text", "")), nil
	})
	up.AddPrompt(mcp.NewPrompt("greet", mcp.WithPromptDescription(name+"'s greeting")), func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return mcp.NewGetPromptResult(name, []mcp.PromptMessage{mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("hello from "+name))}), nil
	})
	up.AddResource(mcp.NewResource("file:///note.txt", name+" note"), func(_ context.Context, r mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: r.Params.URI, Text: name + "'s note"}}, nil
	})
	up.AddResourceTemplate(mcp.NewResourceTemplate("file:///docs/{name}", name+" doc"), func(_ context.Context, r mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: r.Params.URI, Text: name + "'s doc"}}, nil
	})
	return up
}

// choice is a Sees whose answers a test changes: the servers each app
// sees (an app not in it sees every server).
type choice struct {
	mu  sync.Mutex
	set map[string][]string
}

func (c *choice) sees(app, srv string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.set[app]
	return !ok || slices.Contains(s, srv)
}

func (c *choice) choose(app string, servers ...string) {
	c.mu.Lock()
	c.set[app] = servers
	c.mu.Unlock()
}

// appClient is one app's session of g (ServeApp), with the
// notifications it received.
type appClient struct {
	*client.Client
	notes chan string
}

func attachApp(t *testing.T, g *Gateway, app string) appClient {
	t.Helper()
	sw, cw := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- g.ServeApp(t.Context(), sw, app) }()
	t.Cleanup(func() { cw.Close(); <-served })
	cl := client.NewClient(transport.NewIO(cw, cw, nil))
	notes := make(chan string, 64)
	cl.OnNotification(func(n mcp.JSONRPCNotification) { notes <- n.Method })
	if err := cl.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-06-18"
	init.Params.ClientInfo = mcp.Implementation{Name: app, Version: "1"}
	if _, err := cl.Initialize(t.Context(), init); err != nil {
		t.Fatal(err)
	}
	return appClient{cl, notes}
}

// contentGateway serves notes and mail (everythingServer) with Sees = c.
func contentGateway(t *testing.T, c *choice) *Gateway {
	t.Helper()
	reg := router.New(router.Options{})
	for _, name := range []string{"notes", "mail"} {
		reg.Add(named{name: name, cl: inProcessUp(t, everythingServer(name), nil)})
	}
	g := New(reg, Options{Version: "test", Sees: c.sees})
	g.Refresh(t.Context())
	return g
}

// A server hidden from an app is hidden in every method: its tools,
// prompts, resources and templates are absent from the app's lists, and a
// call, get or read of one is refused saying why, while another app (and
// the app's other server) is served. Completion and subscriptions are
// offered to no app.
func TestHiddenServerHiddenEverywhere(t *testing.T) {
	g := contentGateway(t, &choice{set: map[string][]string{"cursor": {"notes"}}})
	cursor, zed := attachApp(t, g, "cursor"), attachApp(t, g, "zed")
	ctx := t.Context()

	// Each reports whether the app reached srv's item, and the refusal.
	type reach func(cl *client.Client, srv string) (bool, string)
	listed := func(names func() ([]string, error), want string) (bool, string) {
		got, err := names()
		if err != nil {
			return false, err.Error()
		}
		return slices.Contains(got, want), strings.Join(got, " ")
	}
	errText := func(err error) (bool, string) {
		if err != nil {
			return false, err.Error()
		}
		return true, ""
	}
	for _, c := range []struct {
		method string
		reach  reach
		never  bool // refused to every app
		why    bool // a refusal names the server, the app and where to choose
	}{
		{method: "tools/list", reach: func(cl *client.Client, srv string) (bool, string) {
			return listed(func() ([]string, error) {
				res, err := cl.ListTools(ctx, mcp.ListToolsRequest{})
				var out []string
				if err == nil {
					for _, x := range res.Tools {
						out = append(out, x.Name)
					}
				}
				return out, err
			}, srv+"__echo")
		}},
		{method: "tools/call", why: true, reach: func(cl *client.Client, srv string) (bool, string) {
			req := mcp.CallToolRequest{}
			req.Params.Name, req.Params.Arguments = srv+"__echo", map[string]any{"text": "hi"}
			res, err := cl.CallTool(ctx, req)
			if err != nil {
				return false, err.Error()
			}
			text := ""
			if len(res.Content) > 0 {
				if tc, ok := mcp.AsTextContent(res.Content[0]); ok {
					text = tc.Text
				}
			}
			return !res.IsError && text == srv+": hi", text
		}},
		{method: "prompts/list", reach: func(cl *client.Client, srv string) (bool, string) {
			return listed(func() ([]string, error) {
				res, err := cl.ListPrompts(ctx, mcp.ListPromptsRequest{})
				var out []string
				if err == nil {
					for _, x := range res.Prompts {
						out = append(out, x.Name)
					}
				}
				return out, err
			}, srv+"__greet")
		}},
		{method: "prompts/get", why: true, reach: func(cl *client.Client, srv string) (bool, string) {
			req := mcp.GetPromptRequest{}
			req.Params.Name = srv + "__greet"
			res, err := cl.GetPrompt(ctx, req)
			if err != nil {
				return false, err.Error()
			}
			return len(res.Messages) == 1, ""
		}},
		{method: "resources/list", reach: func(cl *client.Client, srv string) (bool, string) {
			return listed(func() ([]string, error) {
				res, err := cl.ListResources(ctx, mcp.ListResourcesRequest{})
				var out []string
				if err == nil {
					for _, x := range res.Resources {
						out = append(out, x.URI)
					}
				}
				return out, err
			}, ExposedURI(srv, "file:///note.txt"))
		}},
		{method: "resources/read", why: true, reach: func(cl *client.Client, srv string) (bool, string) {
			req := mcp.ReadResourceRequest{}
			req.Params.URI = ExposedURI(srv, "file:///note.txt")
			_, err := cl.ReadResource(ctx, req)
			return errText(err)
		}},
		{method: "resources/templates/list", reach: func(cl *client.Client, srv string) (bool, string) {
			return listed(func() ([]string, error) {
				res, err := cl.ListResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{})
				var out []string
				if err == nil {
					for _, x := range res.ResourceTemplates {
						out = append(out, x.URITemplate.Raw())
					}
				}
				return out, err
			}, ExposedURI(srv, "file:///docs/{name}"))
		}},
		{method: "resources/read of a template's URI", why: true, reach: func(cl *client.Client, srv string) (bool, string) {
			req := mcp.ReadResourceRequest{}
			req.Params.URI = ExposedURI(srv, "file:///docs/a")
			_, err := cl.ReadResource(ctx, req)
			return errText(err)
		}},
		{method: "completion/complete", why: true, reach: func(cl *client.Client, srv string) (bool, string) {
			req := mcp.CompleteRequest{}
			req.Params.Ref = mcp.PromptReference{Type: "ref/prompt", Name: srv + "__greet"}
			req.Params.Argument.Name, req.Params.Argument.Value = "x", "a"
			_, err := cl.Complete(ctx, req)
			return errText(err)
		}},
		{method: "resources/subscribe", never: true, reach: func(cl *client.Client, srv string) (bool, string) {
			req := mcp.SubscribeRequest{}
			req.Params.URI = ExposedURI(srv, "file:///note.txt")
			return errText(cl.Subscribe(ctx, req)) //nolint:staticcheck // SA1019: resources/subscribe is what a 2025-06-18 app sends
		}},
	} {
		t.Run(c.method, func(t *testing.T) {
			for _, r := range []struct {
				app  string
				cl   *client.Client
				srv  string
				want bool
			}{
				{"cursor", cursor.Client, "notes", true},
				{"cursor", cursor.Client, "mail", false},
				{"zed", zed.Client, "mail", true},
			} {
				want := r.want && !c.never
				got, detail := c.reach(r.cl, r.srv)
				if got != want {
					t.Errorf("%s reaching %s: %v, want %v (%s)", r.app, r.srv, got, want, detail)
				}
				if !r.want && c.why && !(strings.Contains(detail, "mail") && strings.Contains(detail, "cursor") && strings.Contains(detail, "Connected apps")) {
					t.Errorf("%s refused %s with %q, want the server, the app and where to choose named", r.app, r.srv, detail)
				}
			}
		})
	}
}

// A new choice for one app tells that app's sessions, and only them, that
// their lists changed; the app's next list shows the new choice.
func TestChoiceChangedTellsOnlyThatApp(t *testing.T) {
	c := &choice{set: map[string][]string{}}
	g := contentGateway(t, c)
	cursor, cursor2, zed := attachApp(t, g, "cursor"), attachApp(t, g, "cursor"), attachApp(t, g, "zed")
	if got := listedNames(t, cursor.Client); !slices.Equal(got, []string{"mail__echo", "notes__echo"}) {
		t.Fatalf("cursor's tools before = %v", got)
	}

	c.choose("cursor", "notes")
	if n := g.ChoiceChanged("cursor"); n != 2 {
		t.Errorf("ChoiceChanged told %d sessions, want cursor's 2", n)
	}
	want := []string{string(mcp.MethodNotificationPromptsListChanged), string(mcp.MethodNotificationResourcesListChanged), string(mcp.MethodNotificationToolsListChanged)}
	for _, cl := range []appClient{cursor, cursor2} {
		var got []string
		for range want {
			select {
			case m := <-cl.notes:
				got = append(got, m)
			case <-time.After(10 * time.Second):
				t.Fatalf("cursor got %v, want %v", got, want)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("cursor got %v, want %v", got, want)
		}
		if got := listedNames(t, cl.Client); !slices.Equal(got, []string{"notes__echo"}) {
			t.Errorf("cursor's tools after the notification = %v, want [notes__echo]", got)
		}
	}

	// zed's session gets a marker after the change; anything sent to it
	// for cursor's change would have come first on the same stream.
	g.apps.mu.Lock()
	var zedID string
	for id, s := range g.apps.byID {
		if sessionApp(s) == "zed" {
			zedID = id
		}
	}
	g.apps.mu.Unlock()
	if err := g.srv.SendNotificationToSpecificClient(zedID, "test/marker", nil); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-zed.notes:
		if m != "test/marker" {
			t.Errorf("zed was sent %s for cursor's choice", m)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("zed got no marker")
	}
	if got := listedNames(t, zed.Client); !slices.Equal(got, []string{"mail__echo", "notes__echo"}) {
		t.Errorf("zed's tools = %v, want both servers'", got)
	}
	if n := g.ChoiceChanged("nobody"); n != 0 {
		t.Errorf("ChoiceChanged of an app with no session told %d", n)
	}
}
