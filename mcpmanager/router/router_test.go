package router

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

func TestNamespace(t *testing.T) {
	valid := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	cases := []struct{ server, tool, want string }{
		{"everything", "echo", "everything__echo"},
		{"git-hub", "create_issue", "git-hub__create_issue"},
		{"my server", "echo", ""}, // sanitized: hashed suffix
		{"my_server", "echo", "my_server__echo"},
		{"srv", "tool.with.dots", ""},
		{"ü", "ö", ""},
		{strings.Repeat("s", 40), strings.Repeat("t", 40), ""},
	}
	seen := map[string]string{}
	for _, c := range cases {
		got := Namespace(c.server, c.tool)
		if c.want != "" && got != c.want {
			t.Errorf("Namespace(%q, %q) = %q, want %q", c.server, c.tool, got, c.want)
		}
		if !valid.MatchString(got) {
			t.Errorf("Namespace(%q, %q) = %q is not a valid tool name", c.server, c.tool, got)
		}
		if prev, dup := seen[got]; dup {
			t.Errorf("%q and %q both map to %q", prev, c.server+"/"+c.tool, got)
		}
		seen[got] = c.server + "/" + c.tool
		if Namespace(c.server, c.tool) != got {
			t.Errorf("not deterministic for %q", c.server)
		}
	}
	// Two names that sanitize alike stay apart.
	if Namespace("my server", "echo") == Namespace("my.server", "echo") {
		t.Error("collision between names that sanitize alike")
	}
}

// src is a Source backed by an in-process mcp-go server.
type src struct {
	name    string
	cl      atomic.Pointer[client.Client]
	err     error
	timeout time.Duration
}

func (s *src) Name() string               { return s.name }
func (s *src) CallTimeout() time.Duration { return s.timeout }
func (s *src) Client() (Client, error) {
	if s.err != nil {
		return nil, s.err
	}
	return s.cl.Load(), nil
}

func newSrc(t *testing.T, name string, tools ...string) *src {
	t.Helper()
	s := &src{name: name}
	s.cl.Store(inProcess(t, tools...))
	return s
}

func inProcess(t *testing.T, tools ...string) *client.Client {
	t.Helper()
	return inProcessVersion(t, mcp.LATEST_PROTOCOL_VERSION, tools...)
}

// inProcessVersion is inProcess with the session on protocol version.
func inProcessVersion(t *testing.T, version string, tools ...string) *client.Client {
	t.Helper()
	srv := server.NewMCPServer("test", "1.0.0", server.WithToolCapabilities(true))
	for _, name := range tools {
		srv.AddTool(mcp.NewTool(name, mcp.WithString("text")), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			switch req.Params.Name {
			case "slow":
				select {
				case <-time.After(10 * time.Second):
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			case "fail":
				return mcp.NewToolResultError("it failed"), nil
			}
			return mcp.NewToolResultText(req.Params.Name + ":" + req.GetString("text", "")), nil
		})
	}
	return mcptest.Connect(t, srv, mcptest.Protocol(version))
}

func TestToolsPartialResults(t *testing.T) {
	r := New(Options{})
	r.Add(newSrc(t, "alpha", "echo", "fail"))
	r.Add(newSrc(t, "beta", "echo"))
	r.Add(&src{name: "broken", err: errors.New("broken: server is not ready (error): exit 1")})

	tools, errs := r.Tools(t.Context())
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, ","); got != "alpha__echo,alpha__fail,beta__echo" {
		t.Errorf("tools = %s", got)
	}
	if len(errs) != 1 || errs[0].Server != "broken" || !strings.Contains(errs[0].Err, "exit 1") {
		t.Errorf("errs = %+v", errs)
	}
	// Calling a tool of the broken server says why, not "unknown tool".
	if _, err := r.Call(t.Context(), "broken", "anything", nil, CallOptions{}); err == nil || errors.Is(err, ErrUnknownTool) || !strings.Contains(err.Error(), "exit 1") {
		t.Errorf("call to a broken server: %v", err)
	}
}

func TestCallRoutesAndMeasures(t *testing.T) {
	r := New(Options{})
	r.Add(newSrc(t, "alpha", "echo", "fail"))
	r.Add(newSrc(t, "beta", "echo"))
	for _, c := range []struct{ server, tool, want string }{{"alpha", "echo", "echo:a"}, {"beta", "echo", "echo:a"}} {
		res, err := r.Call(t.Context(), c.server, c.tool, map[string]any{"text": "a"}, CallOptions{})
		if err != nil || mcptest.Text(res) != c.want {
			t.Fatalf("Call(%s, %s) = %v, %v", c.server, c.tool, res, err)
		}
	}
	res, err := r.Call(t.Context(), "alpha", "fail", nil, CallOptions{})
	if err != nil || !res.IsError {
		t.Fatalf("tool error should come back as an isError result, got %v %v", res, err)
	}
	if _, err := r.Call(t.Context(), "gamma", "echo", nil, CallOptions{}); !errors.Is(err, ErrUnknownTool) {
		t.Fatalf("unknown tool: %v", err)
	}
	m := r.Metrics()
	if m["alpha"].Calls != 2 || m["alpha"].Errors != 1 || m["beta"].Calls != 1 || m["alpha"].LastUsed.IsZero() {
		t.Errorf("metrics = %+v", m)
	}
}

func TestCallTimeoutNamesServer(t *testing.T) {
	r := New(Options{})
	s := newSrc(t, "alpha", "slow")
	s.timeout = 100 * time.Millisecond
	r.Add(s)
	start := time.Now()
	_, err := r.Call(t.Context(), "alpha", "slow", nil, CallOptions{})
	if !errors.Is(err, ErrCallTimeout) || !strings.HasPrefix(err.Error(), "alpha: slow: ") {
		t.Fatalf("err = %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("timeout not honoured")
	}
	// Cancelling the caller is not reported as a timeout.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := r.Call(ctx, "alpha", "slow", nil, CallOptions{}); errors.Is(err, ErrCallTimeout) || err == nil {
		t.Fatalf("cancelled call err = %v", err)
	}
}

func TestNewSessionRefreshesCache(t *testing.T) {
	r := New(Options{})
	s := newSrc(t, "alpha", "one")
	r.Add(s)
	tools, _ := r.Tools(t.Context())
	if len(tools) != 1 || tools[0].Name != "alpha__one" {
		t.Fatalf("tools = %+v", tools)
	}
	s.cl.Store(inProcess(t, "one", "two")) // restart with a new tool set
	tools, _ = r.Tools(t.Context())
	if len(tools) != 2 {
		t.Fatalf("after restart tools = %+v", tools)
	}
}

func TestResourcesAndPromptsCached(t *testing.T) {
	srv := server.NewMCPServer("rich", "1.0.0", server.WithResourceCapabilities(false, true), server.WithPromptCapabilities(true))
	srv.AddResource(mcp.NewResource("file:///notes.txt", "notes"), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: "file:///notes.txt", Text: "hi"}}, nil
	})
	srv.AddPrompt(mcp.NewPrompt("summarize"), func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{}, nil
	})
	cl := mcptest.Connect(t, srv)
	rich := &src{name: "rich"}
	rich.cl.Store(cl)
	r := New(Options{})
	r.Add(rich)
	r.Add(newSrc(t, "plain", "echo")) // no resources or prompts capability

	res, err := r.ServerResources(t.Context(), "rich")
	if err != nil || len(res) != 1 || res[0].URI != "file:///notes.txt" {
		t.Fatalf("resources = %+v, %v", res, err)
	}
	ps, err := r.ServerPrompts(t.Context(), "rich")
	if err != nil || len(ps) != 1 || ps[0].Name != "summarize" {
		t.Fatalf("prompts = %+v, %v", ps, err)
	}
	if res, err := r.ServerResources(t.Context(), "plain"); err != nil || len(res) != 0 {
		t.Fatalf("plain resources = %+v, %v", res, err)
	}
	// Cached: a new resource is not seen until the server says the list changed.
	srv.AddResource(mcp.NewResource("file:///more.txt", "more"), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return nil, nil
	})
	if res, _ := r.ServerResources(t.Context(), "rich"); len(res) != 1 {
		t.Fatalf("cache bypassed: %+v", res)
	}
	r.HandleNotification("rich", mcp.JSONRPCNotification{Notification: mcp.Notification{Method: string(mcp.MethodNotificationResourcesListChanged)}})
	if res, _ := r.ServerResources(t.Context(), "rich"); len(res) != 2 {
		t.Fatalf("after list_changed: %+v", res)
	}
	if ps, _ := r.ServerPrompts(t.Context(), "rich"); len(ps) != 1 {
		t.Fatalf("prompt cache dropped by a resources notification: %+v", ps)
	}
}

// TestCallRaw: CallRaw relays a session before 2026-07-28 without decoding
// and falls back to CallTool on newer ones; both give the same JSON, count
// in the metrics and keep the call timeout.
func TestCallRaw(t *testing.T) {
	cases := []struct {
		name    string
		tool    string
		args    string
		want    string // text of the first content item
		isError bool
		err     error
	}{
		{name: "echo", tool: "echo", args: `{"text":"a \"b\" ü"}`, want: `echo:a "b" ü`},
		{name: "no arguments", tool: "echo", want: "echo:"},
		{name: "tool error", tool: "fail", args: `{}`, want: "it failed", isError: true},
		{name: "timeout", tool: "slow", args: `{}`, err: ErrCallTimeout},
	}
	for _, version := range []string{mcp.ProtocolVersion20251125, mcp.LATEST_PROTOCOL_VERSION} {
		t.Run(version, func(t *testing.T) {
			r := New(Options{})
			s := &src{name: "alpha", timeout: 200 * time.Millisecond}
			s.cl.Store(inProcessVersion(t, version, "echo", "fail", "slow"))
			r.Add(s)
			if raw := s.cl.Load().ProtocolVersion() < mcp.ProtocolVersion20260728; raw != (version == mcp.ProtocolVersion20251125) {
				t.Fatalf("session on %s, want %s", s.cl.Load().ProtocolVersion(), version)
			}
			calls, errs := 0, 0
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					out, err := r.CallRaw(t.Context(), "alpha", tc.tool, json.RawMessage(tc.args), CallOptions{})
					calls++
					if tc.err != nil {
						errs++
						if !errors.Is(err, tc.err) || !strings.HasPrefix(err.Error(), "alpha: "+tc.tool+": ") {
							t.Fatalf("err = %v, want %v naming the server and tool", err, tc.err)
						}
						return
					}
					if err != nil {
						t.Fatal(err)
					}
					res, err := mcp.ParseCallToolResult(&out)
					if err != nil {
						t.Fatalf("result %s: %v", out, err)
					}
					if mcptest.Text(res) != tc.want || res.IsError != tc.isError {
						t.Errorf("result = %q (isError %v), want %q (isError %v)", mcptest.Text(res), res.IsError, tc.want, tc.isError)
					}
					if tc.isError {
						errs++
					}
				})
			}
			if m := r.Metrics()["alpha"]; m.Calls != int64(calls) || m.Errors != int64(errs) {
				t.Errorf("metrics = %+v, want %d calls, %d errors", m, calls, errs)
			}
		})
	}
	r := New(Options{})
	if _, err := r.CallRaw(t.Context(), "gamma", "echo", nil, CallOptions{}); !errors.Is(err, ErrUnknownTool) {
		t.Errorf("unknown server: %v", err)
	}
}

// stalling answers every call after its deadline with what a stdio
// server's reader saw: part of a message, never its end.
type stalling struct{ Client }

func (stalling) CallTool(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	<-ctx.Done()
	return nil, &wire.StallError{Err: ctx.Err(), Since: 2 * time.Second, Pending: 40}
}

func TestCallTimeoutSaysWhy(t *testing.T) {
	r := New(Options{})
	s := newSrc(t, "alpha", "slow")
	s.timeout = 50 * time.Millisecond
	r.Add(&stallSrc{src: s, cl: stalling{inProcess(t, "slow")}})
	_, err := r.Call(t.Context(), "alpha", "slow", nil, CallOptions{})
	if !errors.Is(err, ErrCallTimeout) || !strings.Contains(err.Error(), "no complete message after 2s, 40 bytes pending") {
		t.Fatalf("err = %v", err)
	}
}

type stallSrc struct {
	*src
	cl Client
}

func (s *stallSrc) Client() (Client, error) { return s.cl, nil }

// A tool whose input schema has no "type" (zod 4 under an older SDK sends
// {"$schema": …} alone) is offered as taking an object: clients refuse a
// whole listing for one such tool.
func TestSchemaWithoutTypeIsAnObject(t *testing.T) {
	srv := server.NewMCPServer("test", "1.0.0", server.WithToolCapabilities(true))
	srv.AddTool(mcp.NewToolWithRawSchema("bare", "", json.RawMessage(`{"$schema":"http://json-schema.org/draft-07/schema#"}`)),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("ok"), nil
		})
	s := &src{name: "old"}
	s.cl.Store(mcptest.Connect(t, srv))
	r := New(Options{})
	r.Add(s)
	tools, errs := r.Tools(t.Context())
	if len(errs) != 0 || len(tools) != 1 {
		t.Fatalf("tools %+v, errs %+v", tools, errs)
	}
	raw, err := tools[0].Schema()
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil || schema["type"] != "object" {
		t.Fatalf("schema = %s (%v), want type object", raw, err)
	}
}

// Progress gives a call its timeout again: a tool that keeps reporting
// runs past the timeout, one that goes quiet is still cut off.
func TestProgressResetsTheCallTimeout(t *testing.T) {
	srv := server.NewMCPServer("test", "1.0.0", server.WithToolCapabilities(true))
	srv.AddTool(mcp.NewTool("build", mcp.WithNumber("reports")), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		token := req.Params.Meta.ProgressToken
		for i := range int(req.GetFloat("reports", 0)) {
			select {
			case <-time.After(50 * time.Millisecond):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if token != nil {
				_ = server.ServerFromContext(ctx).SendNotificationToClient(ctx, "notifications/progress", map[string]any{"progressToken": token, "progress": i + 1})
			}
		}
		select { // then quiet for longer than the timeout
		case <-time.After(time.Duration(req.GetFloat("quiet", 0)) * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return mcp.NewToolResultText("built"), nil
	})
	s := &src{name: "ci", timeout: 200 * time.Millisecond}
	r := New(Options{})
	s.cl.Store(mcptest.Connect(t, srv, mcptest.OnNotification(func(n mcp.JSONRPCNotification) { r.HandleNotification("ci", n) })))
	r.Add(s)
	var reports atomic.Int32
	opts := CallOptions{OnProgress: func(Progress) { reports.Add(1) }}
	// 20 reports 50 ms apart: a second in all, five times the timeout.
	res, err := r.Call(t.Context(), "ci", "build", map[string]any{"reports": 20}, opts)
	if err != nil || reports.Load() < 10 { // the last may come after the result
		t.Fatalf("a call reporting progress: %v (%d reports)", err, reports.Load())
	}
	if text := res.Content[0].(mcp.TextContent).Text; text != "built" {
		t.Fatalf("result %q", text)
	}
	// Reports, then silence past the timeout: cut off.
	if _, err := r.Call(t.Context(), "ci", "build", map[string]any{"reports": 4, "quiet": 5000}, opts); !errors.Is(err, ErrCallTimeout) {
		t.Fatalf("a call gone quiet: %v", err)
	}
}
