package mcpmanager

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// modernHTTP runs the modern server over Streamable HTTP and returns its URL.
func modernHTTP(t *testing.T, bin string) string {
	t.Helper()
	cmd := exec.Command(bin, "-http", "127.0.0.1:0")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("modernserver -http: %v", err)
	}
	return strings.TrimSpace(strings.TrimPrefix(line, "listening on "))
}

// oldSSE is a server of revision 2024-11-05: HTTP+SSE, and initialize
// answered with that revision.
func oldSSE(t *testing.T) string {
	t.Helper()
	hooks := &server.Hooks{}
	hooks.AddAfterInitialize(func(_ context.Context, _ any, _ *mcp.InitializeRequest, res *mcp.InitializeResult) {
		res.ProtocolVersion = mcp.ProtocolVersion20241105
	})
	s := server.NewMCPServer("old", "0.1.0", server.WithHooks(hooks))
	s.AddTool(mcp.NewTool("greet", mcp.WithString("name")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("Hi " + req.GetString("name", "") + ", from 2024"), nil
	})
	srv := httptest.NewUnstartedServer(nil)
	sse := server.NewSSEServer(s, server.WithBaseURL("http://"+srv.Listener.Addr().String()))
	srv.Config.Handler = sse
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL + "/sse"
}

// modernManager runs the modern server over stdio ("modern") and HTTP
// ("web") beside more, with u answering, until they settled; ctx ends with
// the test, within a minute.
func modernManager(t *testing.T, u RequestHandler, more ...ServerConfig) (context.Context, *Manager) {
	t.Helper()
	bin := proctest.ModernServer(t)
	m := New(Options{})
	m.SetRequestHandler(u)
	m.Apply(append([]ServerConfig{
		{Name: "modern", Command: bin},
		{Name: "web", Remote: &supervisor.Remote{URL: modernHTTP(t, bin)}},
	}, more...))
	t.Cleanup(func() { m.Close(context.Background()) })
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	t.Cleanup(cancel)
	m.WaitSettled(ctx)
	return ctx, m
}

// formUser fills in a server's form: the name given, the rest defaults.
type formUser struct {
	mu    sync.Mutex
	asked []string // "server: message"
}

func (u *formUser) CreateMessage(context.Context, string, mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return nil, errors.New("no model")
}

func (u *formUser) Elicit(_ context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	u.mu.Lock()
	u.asked = append(u.asked, server+": "+req.Params.Message)
	u.mu.Unlock()
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"name": "Ada"}}}, nil
}

// TestProtocolEras runs servers of three revisions side by side, each
// reached the way its revision says, and calls a tool on each: a
// 2026-07-28 server that refuses initialize, over stdio and over
// Streamable HTTP, whose form comes as an input_required result; a
// 2025-11-25 one (server-everything, over stdio); a 2024-11-05 one over
// HTTP+SSE.
func TestProtocolEras(t *testing.T) {
	u := &formUser{}
	ctx, m := modernManager(t, u,
		ServerConfig{Name: "everything", Command: proctest.NPM(t, "mcp-server-everything")},
		ServerConfig{Name: "old", Remote: &supervisor.Remote{URL: oldSSE(t)}})

	want := map[string]string{"modern": "2026-07-28", "web": "2026-07-28", "everything": "2025-11-25", "old": "2024-11-05"}
	for _, st := range m.Status() {
		if w, ok := want[st.Name]; ok && (st.State != supervisor.Ready || st.Protocol != w) {
			t.Errorf("%s: %s %q, protocol %q; want ready on %s", st.Name, st.State, st.Error, st.Protocol, w)
		}
	}

	for _, c := range []struct {
		server, tool string
		args         map[string]any
		want         string
	}{
		{"modern", "greet", map[string]any{"name": "Ada"}, "Hello, Ada!"},
		{"modern", "book_table", nil, "Booked a table for 2 under Ada."},
		{"web", "greet", map[string]any{"name": "Bo"}, "Hello, Bo!"},
		{"web", "book_table", nil, "Booked a table for 2 under Ada."},
		{"everything", "echo", map[string]any{"message": "hi"}, "Echo: hi"},
		{"old", "greet", map[string]any{"name": "Cy"}, "Hi Cy, from 2024"},
	} {
		res, err := m.Router().Call(ctx, c.server, c.tool, c.args, router.CallOptions{})
		if err != nil {
			t.Errorf("%s %s: %v", c.server, c.tool, err)
			continue
		}
		if got := mcptest.Text(res); got != c.want || res.IsError {
			t.Errorf("%s %s = %q (error %v), want %q", c.server, c.tool, got, res.IsError, c.want)
		}
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if strings.Join(u.asked, "|") != "modern: Who is the table for?|web: Who is the table for?" {
		t.Errorf("the user was asked %q", u.asked)
	}
}

// TestExtensionTasks: a 2026-07-28 server that turns a call into a task
// (the io.modelcontextprotocol/tasks extension), over stdio and HTTP. The
// call waits for the task and gets its result; its states reach OnTask
// (the task card, 'tools call'); the question the task asks on the way
// goes to the user, and the answer back with tasks/update.
func TestExtensionTasks(t *testing.T) {
	u := &formUser{}
	ctx, m := modernManager(t, u)
	for _, server := range []string{"modern", "web"} {
		var mu sync.Mutex
		var states []string
		res, err := m.Router().Call(ctx, server, "prepare_report", nil, router.CallOptions{OnTask: func(u router.TaskUpdate) {
			mu.Lock()
			defer mu.Unlock()
			states = append(states, u.Status)
		}})
		if err != nil {
			t.Fatalf("%s: %v", server, err)
		}
		if got := mcptest.Text(res); got != "Report ready: 3 sections, with the appendix." {
			t.Errorf("%s: result %q", server, got)
		}
		mu.Lock()
		if strings.Join(states, ",") != "working,input_required,completed" {
			t.Errorf("%s: task states %v", server, states)
		}
		mu.Unlock()
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if strings.Join(u.asked, "|") != "modern: Include the appendix in the report?|web: Include the appendix in the report?" {
		t.Errorf("the user was asked %q", u.asked)
	}
}

// TestModernListenAndRounds: a 2026-07-28 server's list change reaches the
// router on its subscriptions/listen stream (no polling, no restart), and
// a server that keeps asking for input is stopped after MaxInputRounds with
// an error saying so.
func TestModernListenAndRounds(t *testing.T) {
	ctx, m := modernManager(t, &formUser{})
	for _, server := range []string{"modern", "web"} {
		if _, err := m.Router().ServerTools(ctx, server); err != nil { // cached now
			t.Fatal(err)
		}
		if _, err := m.Router().Call(ctx, server, "grow", nil, router.CallOptions{}); err != nil {
			t.Fatalf("%s grow: %v", server, err)
		}
		for {
			tools, err := m.Router().ServerTools(ctx, server)
			if err != nil {
				t.Fatal(err)
			}
			if slices.ContainsFunc(tools, func(tl mcp.Tool) bool { return tl.Name == "extra" }) {
				break
			}
			select {
			case <-ctx.Done():
				t.Fatalf("%s: the added tool never showed: no list change arrived", server)
			case <-time.After(20 * time.Millisecond):
			}
		}

		_, err := m.Router().Call(ctx, server, "keep_asking", nil, router.CallOptions{})
		if err == nil || !strings.Contains(err.Error(), "asked for input 8 times") {
			t.Errorf("%s keep_asking: %v, want the rounds bound named", server, err)
		}
	}
}

// heldUser holds each form until release is closed, then declines it.
type heldUser struct {
	asked   chan struct{}
	release chan struct{}
}

func (u *heldUser) CreateMessage(context.Context, string, mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return nil, errors.New("no model")
}

func (u *heldUser) Elicit(ctx context.Context, _ string, _ mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	u.asked <- struct{}{}
	select {
	case <-u.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}, nil
}

// TestExtensionTaskCancelled: the task card's Cancel (router.CancelTask)
// reaches a 2026-07-28 server's task with tasks/cancel, and the call ends
// saying the task was cancelled.
func TestExtensionTaskCancelled(t *testing.T) {
	u := &heldUser{asked: make(chan struct{}, 1), release: make(chan struct{})}
	ctx, m := modernManager(t, u)
	ids := make(chan string, 8)
	type result struct {
		res *mcp.CallToolResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := m.Router().Call(ctx, "modern", "prepare_report", nil, router.CallOptions{OnTask: func(u router.TaskUpdate) { ids <- u.ID }})
		done <- result{res, err}
	}()
	id := <-ids
	<-u.asked // the task waits for the user's answer now
	if err := m.Router().CancelTask(ctx, "modern", id); err != nil {
		t.Fatalf("cancel: %v", err)
	}
	close(u.release)
	r := <-done
	if r.err != nil || !r.res.IsError || !strings.Contains(mcptest.Text(r.res), "cancelled") {
		t.Fatalf("call after cancel = %+v, %v; want a tool error saying the task was cancelled", r.res, r.err)
	}
}

// modelUser is formUser with a model: a sampling request gets "In short."
type modelUser struct{ formUser }

func (u *modelUser) CreateMessage(context.Context, string, mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return &mcp.CreateMessageResult{Model: "m", SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("In short.")}}, nil
}

// TestModernCallsRelayedRaw: a call the proxy relays (CallRaw) to a
// 2026-07-28 server over stdio goes out with its arguments as they came
// and the _meta mcp-go gives its own requests (the same protocol version,
// client identity and capabilities as a typed call's, the caller's other
// keys beside them, a caller's own session keys replaced); the input the
// server asks for on the way (a form, the model, the roots), a task the
// call becomes and the bound on rounds are dealt with as for a typed call.
// Over Streamable HTTP the call goes through mcp-go.
func TestModernCallsRelayedRaw(t *testing.T) {
	bin := proctest.ModernServer(t)
	root := t.TempDir()
	u := &modelUser{}
	m := New(Options{})
	m.SetRequestHandler(u)
	m.Apply([]ServerConfig{
		{Name: "modern", Command: bin, Roots: []string{root}},
		{Name: "web", Remote: &supervisor.Remote{URL: modernHTTP(t, bin)}, Roots: []string{root}},
	})
	t.Cleanup(func() { m.Close(context.Background()) })
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	t.Cleanup(cancel)
	m.WaitSettled(ctx)
	r := m.Router()

	text := func(raw json.RawMessage) string {
		t.Helper()
		res, err := mcp.ParseCallToolResult(&raw)
		if err != nil {
			t.Fatalf("result %s: %v", raw, err)
		}
		return mcptest.Text(res)
	}
	type request struct {
		Meta      map[string]any `json:"meta"`
		Arguments string         `json:"arguments"`
	}
	const args = `{"b":1,"a":1.50}`
	opts := func() router.CallOptions {
		return router.CallOptions{Meta: &mcp.Meta{AdditionalFields: map[string]any{
			"x-trace": "t1", mcp.MetaKeyClientInfo: map[string]any{"name": "downstream", "version": "9"},
		}}}
	}
	for _, server := range []string{"modern", "web"} {
		r.Invalidate(server)
		if _, err := r.ServerTools(ctx, server); err != nil { // a request of mcp-go's
			t.Fatal(err)
		}
		typed, err := r.Call(ctx, server, "request", map[string]any{"b": 1, "a": 1.5}, opts())
		if err != nil {
			t.Fatalf("%s: %v", server, err)
		}
		var want request
		if err := json.Unmarshal([]byte(mcptest.Text(typed)), &want); err != nil {
			t.Fatal(err)
		}
		res, err := r.CallRaw(ctx, server, "request", json.RawMessage(args), opts())
		if err != nil {
			t.Fatalf("%s raw: %v", server, err)
		}
		var got request
		if err := json.Unmarshal([]byte(text(res)), &got); err != nil {
			t.Fatal(err)
		}
		info, _ := got.Meta[mcp.MetaKeyClientInfo].(map[string]any)
		if got.Meta[mcp.MetaKeyProtocolVersion] != "2026-07-28" || got.Meta[mcp.MetaKeyClientCapabilities] == nil ||
			info["name"] != supervisor.DefaultClientInfo.Name || got.Meta["x-trace"] != "t1" {
			t.Errorf("%s: the relayed call's _meta = %v, want the session's and the caller's x-trace", server, got.Meta)
		}
		// Each call has a progress token of its own (the router's).
		if got.Meta["progressToken"] == nil || want.Meta["progressToken"] == nil {
			t.Errorf("%s: progress tokens %v and %v, want one on each call", server, got.Meta["progressToken"], want.Meta["progressToken"])
		}
		delete(got.Meta, "progressToken")
		delete(want.Meta, "progressToken")
		if !reflect.DeepEqual(got.Meta, want.Meta) {
			t.Errorf("%s: the relayed call's _meta\n%v\nwant the typed call's\n%v", server, got.Meta, want.Meta)
		}
		wantArgs := args // as they came
		if server == "web" {
			wantArgs = `{"a":1.5,"b":1}` // through mcp-go
		}
		if got.Arguments != wantArgs || want.Arguments != `{"a":1.5,"b":1}` {
			t.Errorf("%s: arguments relayed %s, typed %s; want %s and mcp-go's encoding", server, got.Arguments, want.Arguments, wantArgs)
		}

		for _, c := range []struct{ tool, want string }{
			{"book_table", "Booked a table for 2 under Ada."},
			{"summarize", "In short."},
			{"list_roots", supervisor.FileURI(root)},
			{"prepare_report", "Report ready: 3 sections, with the appendix."},
		} {
			var states []string
			var mu sync.Mutex
			res, err := r.CallRaw(ctx, server, c.tool, json.RawMessage(`{"text":"a long text"}`), router.CallOptions{OnTask: func(u router.TaskUpdate) {
				mu.Lock()
				defer mu.Unlock()
				states = append(states, u.Status)
			}})
			if err != nil {
				t.Errorf("%s %s: %v", server, c.tool, err)
				continue
			}
			if got := text(res); got != c.want {
				t.Errorf("%s %s = %q, want %q", server, c.tool, got, c.want)
			}
			mu.Lock()
			if c.tool == "prepare_report" && strings.Join(states, ",") != "working,input_required,completed" {
				t.Errorf("%s: task states %v", server, states)
			}
			mu.Unlock()
		}
		_, err = r.CallRaw(ctx, server, "keep_asking", nil, router.CallOptions{})
		if err == nil || !strings.Contains(err.Error(), "asked for input 8 times") {
			t.Errorf("%s keep_asking: %v, want the rounds bound named", server, err)
		}
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	var want []string
	for _, server := range []string{"modern", "web"} {
		want = append(want, server+": Who is the table for?", server+": Include the appendix in the report?")
		for range supervisor.MaxInputRounds - 1 { // the last round's question is not put
			want = append(want, server+": One more thing?")
		}
	}
	if !slices.Equal(u.asked, want) {
		t.Errorf("the user was asked\n%q\nwant\n%q", u.asked, want)
	}
}
