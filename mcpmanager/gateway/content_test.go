package gateway

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// named is a router source with any name.
type named struct {
	name string
	cl   *client.Client
}

func (s named) Name() string                   { return s.name }
func (s named) Client() (router.Client, error) { return s.cl, nil }
func (s named) CallTimeout() time.Duration     { return 0 }

// contentServer is an upstream with one prompt, one resource and one
// template, each answering with its server's name so a test sees where a
// request was routed.
func contentServer(name string) *server.MCPServer {
	s := server.NewMCPServer(name, "1", server.WithPromptCapabilities(true), server.WithResourceCapabilities(false, true))
	s.AddPrompt(mcp.NewPrompt("greet", mcp.WithPromptDescription("Say hello"), mcp.WithArgument("who", mcp.RequiredArgument())),
		func(_ context.Context, r mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult("greeting", []mcp.PromptMessage{
				mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(name+" greets "+r.Params.Arguments["who"])),
				mcp.NewPromptMessage(mcp.RoleUser, mcp.NewResourceLink("file:///README.md", "readme", "", "text/markdown")),
			}), nil
		})
	s.AddTool(mcp.NewTool("find", mcp.WithDescription("Finds the readme")), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("found"), mcp.NewResourceLink("file:///README.md", "readme", "", "text/markdown")}}, nil
	})
	s.AddResource(mcp.NewResource("file:///README.md", "README", mcp.WithMIMEType("text/markdown")),
		func(_ context.Context, r mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: r.Params.URI, MIMEType: "text/markdown", Text: "# " + name}}, nil
		})
	s.AddResourceTemplate(mcp.NewResourceTemplate("notes://{id}", "note"),
		func(_ context.Context, r mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: r.Params.URI, Text: name + " note " + strings.TrimPrefix(r.Params.URI, "notes://")}}, nil
		})
	return s
}

// TestPromptsAndResources: two servers with the same prompt name, resource
// URI and template are published apart, and every list, get and read goes
// back to the server it came from; a server's list change reaches the
// gateway's client.
func TestPromptsAndResources(t *testing.T) {
	reg := router.New(router.Options{})
	ups := map[string]*server.MCPServer{}
	for _, n := range []string{"alpha", "beta"} {
		ups[n] = contentServer(n)
		cl := inProcessUp(t, ups[n], func(note mcp.JSONRPCNotification) { reg.HandleNotification(n, note) })
		reg.Add(named{n, cl})
	}
	g := New(reg, Options{Version: "test"})
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
	notes := make(chan string, 16)
	c := callerWith(t, inW, bufio.NewReader(outR), func(n mcp.JSONRPCNotification) { notes <- n.Method })
	t.Cleanup(func() {
		c.Close()
		inW.Close()
		cancel()
		<-watched
		<-served
	})

	// Watch publishes on its own: wait for both servers' prompts.
	var prompts []mcp.Prompt
	for deadline := time.Now().Add(10 * time.Second); len(prompts) < 2; {
		res, err := c.ListPrompts(t.Context(), mcp.ListPromptsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		prompts = res.Prompts
		if time.Now().After(deadline) {
			t.Fatalf("prompts = %+v, want one per server", prompts)
		}
		select {
		case <-notes:
		case <-time.After(100 * time.Millisecond):
		}
	}
	names := map[string]bool{}
	for _, p := range prompts {
		names[p.Name] = true
	}
	for _, want := range []string{"alpha__greet", "beta__greet"} {
		if !names[want] {
			t.Errorf("prompts %v lack %s", names, want)
		}
	}

	for _, n := range []string{"alpha", "beta"} {
		req := mcp.GetPromptRequest{}
		req.Params.Name, req.Params.Arguments = n+"__greet", map[string]string{"who": "you"}
		got, err := c.GetPrompt(t.Context(), req)
		if err != nil {
			t.Fatalf("get %s__greet: %v", n, err)
		}
		if tc, ok := got.Messages[0].Content.(mcp.TextContent); !ok || tc.Text != n+" greets you" {
			t.Errorf("%s__greet = %+v, want %q", n, got.Messages[0].Content, n+" greets you")
		}
		if rl, ok := got.Messages[1].Content.(mcp.ResourceLink); !ok || rl.URI != ExposedURI(n, "file:///README.md") {
			t.Errorf("%s__greet link = %+v, want the exposed URI", n, got.Messages[1].Content)
		}
	}

	res, err := c.ListResources(t.Context(), mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	uris := map[string]bool{}
	for _, r := range res.Resources {
		uris[r.URI] = true
	}
	for _, n := range []string{"alpha", "beta"} {
		u := ExposedURI(n, "file:///README.md")
		if !uris[u] {
			t.Fatalf("resources %v lack %s", uris, u)
		}
		req := mcp.ReadResourceRequest{}
		req.Params.URI = u
		got, err := c.ReadResource(t.Context(), req)
		if err != nil {
			t.Fatalf("read %s: %v", u, err)
		}
		if tc, ok := got.Contents[0].(mcp.TextResourceContents); !ok || tc.Text != "# "+n || tc.URI != u {
			t.Errorf("read %s = %+v, want # %s under the exposed URI", u, got.Contents[0], n)
		}
		req.Params.URI = ExposedURI(n, "notes://42")
		got, err = c.ReadResource(t.Context(), req)
		if err != nil {
			t.Fatalf("read template %s: %v", req.Params.URI, err)
		}
		if tc, ok := got.Contents[0].(mcp.TextResourceContents); !ok || tc.Text != n+" note 42" {
			t.Errorf("read %s = %+v, want %q", req.Params.URI, got.Contents[0], n+" note 42")
		}
	}
	// A tool's resource link names the resource as the gateway publishes it,
	// so the client can follow it through the gateway (relayed calls).
	for _, n := range []string{"alpha", "beta"} {
		req := mcp.CallToolRequest{}
		req.Params.Name = n + "__find"
		got, err := c.CallTool(t.Context(), req)
		if err != nil {
			t.Fatalf("call %s: %v", req.Params.Name, err)
		}
		rl, ok := got.Content[1].(mcp.ResourceLink)
		if !ok || rl.URI != ExposedURI(n, "file:///README.md") {
			t.Fatalf("%s link = %+v, want the exposed URI", req.Params.Name, got.Content[1])
		}
		read := mcp.ReadResourceRequest{}
		read.Params.URI = rl.URI
		if r, err := c.ReadResource(t.Context(), read); err != nil || r.Contents[0].(mcp.TextResourceContents).Text != "# "+n {
			t.Fatalf("following %s's link: %+v, %v", n, r, err)
		}
	}
	tres, err := c.ListResourceTemplates(t.Context(), mcp.ListResourceTemplatesRequest{})
	if err != nil || len(tres.ResourceTemplates) != 2 {
		t.Fatalf("templates = %+v, %v; want one per server", tres, err)
	}

	// A server's own list change reaches the client.
	drainStrings(notes)
	ups["beta"].AddPrompt(mcp.NewPrompt("bye"), func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return mcp.NewGetPromptResult("bye", nil), nil
	})
	waitMethod(t, notes, string(mcp.MethodNotificationPromptsListChanged))
	ups["alpha"].AddResource(mcp.NewResource("file:///NEW.md", "NEW"), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return nil, nil
	})
	waitMethod(t, notes, string(mcp.MethodNotificationResourcesListChanged))
	pres, err := c.ListPrompts(t.Context(), mcp.ListPromptsRequest{})
	if err != nil || len(pres.Prompts) != 3 {
		t.Errorf("prompts after the change = %+v, %v; want 3", pres, err)
	}
}

// TestPromptNamesUnique: prompts are named as tools are: server a__b
// cannot take a's b__c (its own names carry a hash), and the names differ.
func TestPromptNamesUnique(t *testing.T) {
	servers := []string{"a", "a__b"}
	got := promptNames(servers, map[string][]mcp.Prompt{"a": {{Name: "b__c"}, {Name: "x"}}, "a__b": {{Name: "c"}}})
	one, two := got[[2]string{"a", "b__c"}], got[[2]string{"a__b", "c"}]
	if one != "a__b__c" || two == one || !strings.HasPrefix(two, "a__b__c_") {
		t.Errorf("names = %q, %q; want a__b__c for a's b__c and a suffixed one for a__b's c", one, two)
	}
	if x := got[[2]string{"a", "x"}]; x != "a__x" {
		t.Errorf("a's x = %q, want a__x", x)
	}
}

// TestSplitURI: ExposedURI and splitURI are inverses, for server names that
// need escaping too; foreign URIs are refused.
func TestSplitURI(t *testing.T) {
	for _, tc := range []struct{ server, uri string }{
		{"fs", "file:///a/b.txt"},
		{"my server/2", "ui://app/index.html"},
		{"x", "notes://1?q=a/b"},
	} {
		s, u, ok := splitURI(ExposedURI(tc.server, tc.uri))
		if !ok || s != tc.server || u != tc.uri {
			t.Errorf("splitURI(ExposedURI(%q, %q)) = %q, %q, %v", tc.server, tc.uri, s, u, ok)
		}
	}
	for _, bad := range []string{"file:///etc/passwd", "switchboard://", "switchboard://fs"} {
		if _, _, ok := splitURI(bad); ok {
			t.Errorf("splitURI(%q) accepted", bad)
		}
	}
}

// callerWith is caller with a notification handler set before initialize.
func callerWith(t *testing.T, in io.WriteCloser, out *bufio.Reader, onNote func(mcp.JSONRPCNotification)) *client.Client {
	t.Helper()
	c := client.NewClient(transport.NewIO(out, in, nil))
	c.OnNotification(onNote)
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := c.Initialize(t.Context(), init); err != nil {
		t.Fatal(err)
	}
	return c
}

func drainStrings(ch chan string) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}

func waitMethod(t *testing.T, ch chan string, method string) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case m := <-ch:
			if m == method {
				return
			}
		case <-timeout:
			t.Fatalf("no %s", method)
		}
	}
}

// TestRelink: a relayed result has every resource link and embedded
// resource rewritten, and only those; a result without one keeps its bytes.
func TestRelink(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"text naming the type", `{"content":[{"type":"text","text":"resource_link"}]}`, `{"content":[{"type":"text","text":"resource_link"}]}`},
		{"no link", `{"content":[{"type":"text","text":"x"}]}`, `{"content":[{"type":"text","text":"x"}]}`},
		{"links", `{"content":[{"type":"resource_link","uri":"file:///a b","name":"a"},{"type":"resource_link","uri":"mem://1","name":"m"}],"isError":false}`,
			// mcp-go's encoding of a link writes its empty description and MIME type
			`{"content":[{"type":"resource_link","uri":"switchboard://s%20v/file:///a b","name":"a","description":"","mimeType":""},{"type":"resource_link","uri":"switchboard://s%20v/mem://1","name":"m","description":"","mimeType":""}],"isError":false}`},
		{"embedded resource, other items kept", `{"content":[{"type":"text","text":"t"},{"type":"resource","resource":{"uri":"mem://2","text":"two"}}]}`,
			`{"content":[{"type":"text","text":"t"},{"type":"resource","resource":{"uri":"switchboard://s%20v/mem://2","text":"two"}}]}`},
		{"not JSON", `not json "resource_link"`, `not json "resource_link"`},
	} {
		if got := string(relink("s v", json.RawMessage(tc.in))); got != tc.want {
			t.Errorf("%s: relink(%s) =\n%s, want\n%s", tc.name, tc.in, got, tc.want)
		}
	}
}

// restartingErr is the supervisor's NotReadyError as the gateway sees it.
type restartingErr struct{ restarting bool }

func (e restartingErr) Error() string    { return "alpha: server process exited" }
func (e restartingErr) Restarting() bool { return e.restarting }

// downable is a source whose server can be down with err.
type downable struct {
	named
	err *error
}

func (s downable) Client() (router.Client, error) {
	if *s.err != nil {
		return nil, *s.err
	}
	return s.cl, nil
}

// TestContentKeptWhileRestarting: a server that is restarting keeps the
// prompts and resources it last listed, as its tools stay listed, so a
// crash does not unpublish them (a list_changed) and publish them again;
// one that is down for good is left out and reported.
func TestContentKeptWhileRestarting(t *testing.T) {
	reg := router.New(router.Options{})
	var down error
	reg.Add(downable{named{"alpha", inProcessUp(t, contentServer("alpha"), nil)}, &down})
	g := New(reg, Options{Version: "test"})
	list := func() (serverContent, []router.ServerError) {
		g.refreshMu.Lock()
		defer g.refreshMu.Unlock()
		content, errs := g.listContent(t.Context())
		return content["alpha"], errs
	}
	if c, errs := list(); len(c.prompts) != 1 || len(c.resources) != 1 || len(errs) != 0 {
		t.Fatalf("up: %+v, %v", c, errs)
	}
	down = restartingErr{restarting: true}
	reg.Invalidate("alpha")
	if c, errs := list(); len(c.prompts) != 1 || len(c.resources) != 1 || len(c.templates) != 1 || len(errs) != 0 {
		t.Fatalf("restarting: %+v, %v; want what it last listed, no error", c, errs)
	}
	down = restartingErr{restarting: false}
	reg.Invalidate("alpha")
	if c, errs := list(); len(c.prompts) != 0 || len(errs) != 1 {
		t.Fatalf("down for good: %+v, %v; want it left out and reported", c, errs)
	}
}
