package gateway

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/apps"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// TestBearerScheme: the scheme of "Authorization: Bearer <token>" is
// case-insensitive; the token is not.
func TestBearerScheme(t *testing.T) {
	const token = "0123abcd"
	cases := []struct {
		header string
		want   bool
	}{
		{"Bearer 0123abcd", true},
		{"bearer 0123abcd", true},
		{"BEARER 0123abcd", true},
		{"Bearer  0123abcd", true},
		{"Bearer 0123ABCD", false},
		{"Basic 0123abcd", false},
		{"Bearer0123abcd", false},
		{"0123abcd", false},
		{"Bearer ", false},
		{"", false},
	}
	for _, c := range cases {
		if got := bearer(c.header, token); got != c.want {
			t.Errorf("%q: %v, want %v", c.header, got, c.want)
		}
	}
	if bearer("Bearer ", "") {
		t.Error("an empty token matched")
	}
}

// hostileUp is an upstream server for the hostile-client tests: echo,
// slow (answers when its call is cancelled, and says so on cancelled) and
// an app-only tool.
func hostileUp(t *testing.T) (*Gateway, chan string, chan string) {
	t.Helper()
	cancelled, started := make(chan string, 16), make(chan string, 16)
	up := server.NewMCPServer("up", "1", server.WithToolCapabilities(true))
	up.AddTool(mcp.NewTool("echo", mcp.WithString("text")), func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(r.GetString("text", "")), nil
	})
	up.AddTool(mcp.NewTool("slow", mcp.WithString("tag")), func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		started <- r.GetString("tag", "")
		<-ctx.Done()
		cancelled <- r.GetString("tag", "")
		return mcp.NewToolResultText("cancelled"), nil
	})
	appOnly := mcp.NewTool("panel")
	appOnly.Meta = &mcp.Meta{AdditionalFields: map[string]any{"ui": map[string]any{"resourceUri": "ui://up/panel.html", "visibility": []any{"app"}}}}
	up.AddTool(appOnly, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("for the app"), nil
	})
	reg := router.New(router.Options{})
	reg.Add(src{inProcessUp(t, up, nil)})
	g := New(reg, Options{Version: "test"})
	g.Refresh(t.Context())
	return g, started, cancelled
}

// rawSession serves g over stdio pipes and returns a writer of raw lines
// and a reader of the answers; it ends with the test.
func rawSession(t *testing.T, g *Gateway) (send func(string), out *bufio.Reader, outR *io.PipeReader) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = g.ServeStdio(ctx, inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		outR.Close()
		<-served
	})
	send = func(line string) {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Errorf("send: %v", err)
		}
	}
	return send, bufio.NewReader(outR), outR
}

// answer reads lines until the answer to id.
func answer(t *testing.T, out *bufio.Reader, id string) map[string]any {
	t.Helper()
	for {
		line, err := out.ReadBytes('\n')
		if err != nil {
			t.Fatalf("reading the answer to %s: %v", id, err)
		}
		var m map[string]any
		if json.Unmarshal(line, &m) == nil && fmt.Sprint(m["id"]) == id {
			return m
		}
	}
}

const initLine = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","clientInfo":{"name":"hostile","version":"1"},"capabilities":%s}}`

func toolNames(m map[string]any) []string {
	var names []string
	res, _ := m["result"].(map[string]any)
	tools, _ := res["tools"].([]any)
	for _, x := range tools {
		names = append(names, x.(map[string]any)["name"].(string))
	}
	return names
}

// TestAppOnlyToolsNeedTheExtension: a tool only an app may call is not
// listed to a client that did not declare MCP Apps, and calling it by name
// does not run it either.
func TestAppOnlyToolsNeedTheExtension(t *testing.T) {
	g, _, _ := hostileUp(t)
	for _, c := range []struct {
		caps  string
		panel bool
	}{{`{}`, false}, {`{"extensions":{"` + apps.Extension + `":{"mimeTypes":["text/html;profile=mcp-app"]}}}`, true}} {
		t.Run(fmt.Sprint(c.panel), func(t *testing.T) {
			send, out, _ := rawSession(t, g)
			send(fmt.Sprintf(initLine, c.caps))
			answer(t, out, "init")
			send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
			names := toolNames(answer(t, out, "1"))
			if slices.Contains(names, "up__panel") != c.panel || !slices.Contains(names, "up__echo") {
				t.Errorf("capabilities %s: tools %v; want up__panel listed: %v", c.caps, names, c.panel)
			}
			send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"up__panel","arguments":{}}}`)
			m := answer(t, out, "2")
			text, _ := resultText(m)
			if ran := text == "for the app"; ran != c.panel {
				t.Errorf("capabilities %s: calling up__panel answered %v; want it run: %v", c.caps, m, c.panel)
			}
			if e, _ := m["error"].(map[string]any); !c.panel && (e == nil || !strings.Contains(fmt.Sprint(e["message"]), "not found")) {
				t.Errorf("capabilities %s: calling up__panel answered %v; want the error for a tool not listed", c.caps, m)
			}
		})
	}
}

// TestArgumentsMustBeAnObject: arguments that are not an object are
// refused with what they were, over the fast path and the general one.
func TestArgumentsMustBeAnObject(t *testing.T) {
	g, _, _ := hostileUp(t)
	send, out, _ := rawSession(t, g)
	send(fmt.Sprintf(initLine, `{}`))
	answer(t, out, "init")
	for i, args := range []string{`[1,2]`, `"text"`, `42`} {
		id := fmt.Sprint(i + 1)
		send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"up__echo","arguments":` + args + `}}`)
		m := answer(t, out, id)
		res, _ := m["result"].(map[string]any)
		raw, _ := json.Marshal(m)
		if res == nil || res["isError"] != true || !strings.Contains(string(raw), "arguments must be a JSON object") {
			t.Errorf("arguments %s: %s", args, raw)
		}
	}
}

// TestReusedIDKeepsTheFirstCall: a second call under the id of a call
// still running is refused, and cancelling that id still reaches the first.
func TestReusedIDKeepsTheFirstCall(t *testing.T) {
	g, started, cancelled := hostileUp(t)
	send, out, _ := rawSession(t, g)
	send(fmt.Sprintf(initLine, `{}`))
	answer(t, out, "init")
	send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"up__slow","arguments":{"tag":"first"}}}`)
	if tag := <-started; tag != "first" {
		t.Fatalf("started %q", tag)
	}
	send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"up__slow","arguments":{"tag":"second"}}}`)
	m := answer(t, out, "7")
	if e, _ := m["error"].(map[string]any); e == nil || !strings.Contains(fmt.Sprint(e["message"]), "in use by a call still running") {
		t.Fatalf("the second call under id 7: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`)
	select {
	case tag := <-cancelled:
		if tag != "first" {
			t.Fatalf("cancelled %q, want the first call", tag)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the first call under id 7 was orphaned: cancelling its id did not reach it")
	}
}

// TestStdioBackpressure: a client that sends calls and never reads the
// answers is held back after MaxInflight of them, instead of the gateway
// reading (and holding) everything it sends; once it reads, every call is
// answered.
func TestStdioBackpressure(t *testing.T) {
	old := MaxInflight
	MaxInflight = 4
	t.Cleanup(func() { MaxInflight = old })
	g, _, _ := hostileUp(t)
	send, out, _ := rawSession(t, g)
	send(fmt.Sprintf(initLine, `{}`))
	answer(t, out, "init")              // from here on, nothing is read until the end
	big := strings.Repeat("x", 128<<10) // two answers fill a pipe
	const calls = 200
	var sent atomic.Int32
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range calls {
			send(`{"jsonrpc":"2.0","id":` + fmt.Sprint(i+100) + `,"method":"tools/call","params":{"name":"up__echo","arguments":{"text":"` + big + `"}}}`)
			sent.Add(1)
		}
	}()
	select {
	case <-done:
		t.Fatalf("all %d calls were read while no answer was: the gateway holds them all", calls)
	case <-time.After(2 * time.Second):
	}
	if n := sent.Load(); n > 4+2 {
		t.Fatalf("%d calls were read while no answer was; want at most MaxInflight (4) and the one being read", n)
	}
	answered := map[string]bool{}
	for len(answered) < calls {
		line, err := out.ReadBytes('\n')
		if err != nil {
			t.Fatalf("after %d answers: %v", len(answered), err)
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(line, &m) != nil || m.Result == nil {
			t.Fatalf("not an answer: %.200s", line)
		}
		answered[string(m.ID)] = true
	}
	<-done
}

// TestHTTPBodyLimit: a POST longer than one message may be
// (wire.MaxMessageBytes) is refused with 413 — at once when it says so,
// while it is read when it does not — and never held whole; one within it
// is served, also past mcp-go's own default bound (4 MiB since 1.6).
func TestHTTPBodyLimit(t *testing.T) {
	old := wire.MaxMessageBytes
	t.Cleanup(func() { wire.MaxMessageBytes = old })
	for _, tc := range []struct {
		name       string
		limit, pad int
		want       int
	}{
		{"over the limit", 1 << 20, 2 << 20, http.StatusRequestEntityTooLarge},
		{"within it, past mcp-go's default", 8 << 20, 5 << 20, http.StatusOK},
	} {
		wire.MaxMessageBytes = tc.limit
		g, _, _ := hostileUp(t)
		token := NewToken()
		srv := httptest.NewServer(g.HTTPHandler(token))
		t.Cleanup(srv.Close)
		body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},` +
			`"clientInfo":{"name":"pad","version":"1"},"pad":"` + strings.Repeat("x", tc.pad) + `"}}`
		for _, chunked := range []bool{false, true} {
			var r io.Reader = strings.NewReader(body)
			if chunked {
				r = io.MultiReader(r) // no length known: sent chunked
			}
			req, _ := http.NewRequest("POST", srv.URL+"/mcp", r)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Authorization", "Bearer "+token)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			msg, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tc.want || tc.want != http.StatusOK && !strings.Contains(string(msg), fmt.Sprintf("%d-byte limit", tc.limit)) {
				t.Errorf("%s, chunked %v: %d %.300s", tc.name, chunked, res.StatusCode, msg)
			}
		}
	}
}
