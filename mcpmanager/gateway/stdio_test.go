package gateway

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
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
	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// upstream is an in-process MCP server behind a router, with tools that
// let a test see what reached it.
type upstream struct {
	started   chan struct{} // a "block" call began
	release   chan struct{} // ends "block" calls
	cancelled chan struct{} // a "block" call saw its context end
}

// newStdioGateway serves a gateway over pipes and returns the raw ends:
// write requests to in, read responses from out. Its one server, "up", is
// an mcp-go server over stdio pipes whose session runs on protocol version
// (before 2026-07-28 the router relays calls raw; from it on, typed). The
// session ends (and is checked to return nil) at cleanup.
func newStdioGateway(t *testing.T, version string) (up *upstream, in io.WriteCloser, out *bufio.Reader) {
	t.Helper()
	up = &upstream{started: make(chan struct{}, 8), release: make(chan struct{}), cancelled: make(chan struct{}, 8)}
	s := server.NewMCPServer("up", "1", server.WithToolCapabilities(true))
	s.AddTool(mcp.NewTool("echo", mcp.WithString("text")), func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(r.GetString("text", "")), nil
	})
	s.AddTool(mcp.NewTool("fail"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, errors.New("disk full")
	})
	s.AddTool(mcp.NewTool("meta"), func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var keys []string
		if r.Params.Meta != nil {
			for k := range r.Params.Meta.AdditionalFields {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		return mcp.NewToolResultText(strings.Join(keys, ",")), nil
	})
	s.AddTool(mcp.NewTool("progress"), func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		for i := 1; i <= 3; i++ {
			_ = server.ServerFromContext(ctx).SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress),
				map[string]any{"progressToken": r.Params.Meta.ProgressToken, "progress": i, "total": 3})
		}
		return mcp.NewToolResultText("done"), nil
	})
	s.AddTool(mcp.NewTool("token"), func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var token mcp.ProgressToken
		if r.Params.Meta != nil {
			token = r.Params.Meta.ProgressToken
		}
		return mcp.NewToolResultText(fmt.Sprint(token)), nil
	})
	s.AddTool(mcp.NewTool("block"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		up.started <- struct{}{}
		select {
		case <-up.release:
			return mcp.NewToolResultText("released"), nil
		case <-ctx.Done():
			up.cancelled <- struct{}{}
			return nil, ctx.Err()
		}
	})
	// The upstream over stdio pipes, as a supervised server is: cancelling
	// a call reaches it only as notifications/cancelled.
	upInR, upInW := io.Pipe()
	upOutR, upOutW := io.Pipe()
	upDone := make(chan struct{})
	go func() {
		defer close(upDone)
		_ = server.NewStdioServer(s).Listen(context.Background(), upInR, upOutW)
		upOutW.Close()
	}()
	reg := router.New(router.Options{})
	cl := client.NewClient(transport.NewIO(upOutR, upInW, nil))
	cl.OnNotification(func(n mcp.JSONRPCNotification) { reg.HandleNotification("up", n) })
	if err := cl.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = version
	res, err := cl.Initialize(t.Context(), init)
	if err != nil || res.ProtocolVersion != version {
		t.Fatalf("upstream initialize = %+v, %v; want protocol %s", res, err, version)
	}
	reg.Add(src{cl})
	g := New(reg, Options{Version: "test"})
	g.Refresh(t.Context())

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- g.ServeStdio(context.Background(), inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() {
		close(up.release)
		inW.Close()
		go io.Copy(io.Discard, outR) // let the last writes finish
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("ServeStdio at EOF = %v, want nil", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("ServeStdio did not return after its input closed")
		}
		cl.Close()
		upInW.Close()
		// A late answer (to a call cancelled above) may still be on its way
		// out, and the client no longer reads: closing the pipe's reading
		// end fails that write, so the upstream's Listen can return.
		upOutR.Close()
		<-upDone
	})
	return up, inW, bufio.NewReader(outR)
}

// upstreamVersions are the upstream sessions every gateway test runs on:
// relayed raw (before 2026-07-28) and typed (2026-07-28).
var upstreamVersions = []string{mcp.ProtocolVersion20251125, mcp.LATEST_PROTOCOL_VERSION}

// caller is a real mcp-go client on the gateway's stdio.
func caller(t *testing.T, in io.WriteCloser, out *bufio.Reader) *client.Client {
	t.Helper()
	c := client.NewClient(transport.NewIO(out, in, nil))
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

func callReq(name string, args map[string]any) mcp.CallToolRequest {
	r := mcp.CallToolRequest{}
	r.Params.Name = name
	r.Params.Arguments = args
	return r
}

func TestServeStdioCalls(t *testing.T) {
	cases := []struct {
		name    string
		tool    string
		args    map[string]any
		meta    map[string]any
		want    string // text of the result
		isError bool
		rpcErr  bool // a JSON-RPC error, not a tool result
	}{
		{name: "echo through the fast path", tool: "up__echo", args: map[string]any{"text": "über ✓ \"q\"\n"}, want: "über ✓ \"q\"\n"},
		{name: "upstream error becomes a tool error", tool: "up__fail", isError: true, want: "disk full"},
		{name: "unknown tool answered by the MCP server", tool: "up__nope", rpcErr: true},
		{name: "caller's _meta passed on, its session's keys not", tool: "up__meta", meta: map[string]any{"example.com/trace": "t1"}, want: "example.com/trace"},
	}
	for _, version := range upstreamVersions {
		t.Run(version, func(t *testing.T) {
			_, in, out := newStdioGateway(t, version)
			c := caller(t, in, out)
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					req := callReq(tc.tool, tc.args)
					if tc.meta != nil {
						req.Params.Meta = &mcp.Meta{AdditionalFields: tc.meta}
					}
					res, err := c.CallTool(t.Context(), req)
					if tc.rpcErr {
						if err == nil {
							t.Fatalf("call %s = %+v, want a JSON-RPC error", tc.tool, res)
						}
						return
					}
					if err != nil {
						t.Fatal(err)
					}
					text := res.Content[0].(mcp.TextContent).Text
					if res.IsError != tc.isError || !strings.Contains(text, tc.want) {
						t.Errorf("call %s = %q (isError %v), want %q (isError %v)", tc.tool, text, res.IsError, tc.want, tc.isError)
					}
					// Our caller's session keys never reach a server; on
					// 2026-07-28 mcp-go adds the upstream session's own.
					if tc.meta != nil && version != mcp.LATEST_PROTOCOL_VERSION && text != tc.want {
						t.Errorf("upstream saw _meta keys %q, want only %q", text, tc.want)
					}
				})
			}
		})
	}
}

// TestServeStdioProgress: progress of an upstream call reaches the caller
// under the caller's own token.
func TestServeStdioProgress(t *testing.T) {
	for _, version := range upstreamVersions {
		t.Run(version, func(t *testing.T) {
			_, in, out := newStdioGateway(t, version)
			c := caller(t, in, out)
			var mu sync.Mutex
			var got []string
			three := make(chan struct{})
			c.OnNotification(func(n mcp.JSONRPCNotification) {
				if n.Method != string(mcp.MethodNotificationProgress) {
					return
				}
				mu.Lock()
				defer mu.Unlock()
				got = append(got, fmt.Sprintf("%v:%v/%v", n.Params.AdditionalFields["progressToken"], n.Params.AdditionalFields["progress"], n.Params.AdditionalFields["total"]))
				if len(got) == 3 {
					close(three)
				}
			})
			req := callReq("up__progress", nil)
			req.Params.Meta = &mcp.Meta{ProgressToken: "mine-7"}
			if res, err := c.CallTool(t.Context(), req); err != nil || res.IsError {
				t.Fatalf("call = %+v, %v", res, err)
			}
			select {
			case <-three:
			case <-time.After(5 * time.Second):
				t.Fatal("progress notifications did not arrive")
			}
			mu.Lock()
			defer mu.Unlock()
			if want := "mine-7:1/3 mine-7:2/3 mine-7:3/3"; strings.Join(got, " ") != want {
				t.Errorf("progress = %v, want %s", got, want)
			}
		})
	}
}

// TestServeStdioProgressTokenUpstream: the server sees the client's own
// progress token, as the client sent it, not one of the router's.
func TestServeStdioProgressTokenUpstream(t *testing.T) {
	for _, version := range upstreamVersions {
		t.Run(version, func(t *testing.T) {
			_, in, out := newStdioGateway(t, version)
			c := caller(t, in, out)
			req := callReq("up__token", nil)
			req.Params.Meta = &mcp.Meta{ProgressToken: "mine-7"}
			res, err := c.CallTool(t.Context(), req)
			if err != nil || mcptest.Text(res) != "mine-7" {
				t.Fatalf("token the server saw = %q, %v; want the client's mine-7", mcptest.Text(res), err)
			}
		})
	}
}

// TestServeStdioConcurrentAndCancel: a call waiting on its server does not
// hold up the next one, and the caller cancelling it reaches the server
// (over stdio, only as notifications/cancelled).
func TestServeStdioConcurrentAndCancel(t *testing.T) {
	for _, version := range upstreamVersions {
		t.Run(version, func(t *testing.T) {
			up, in, out := newStdioGateway(t, version)
			c := caller(t, in, out)
			ctx, cancel := context.WithCancel(t.Context())
			blocked := make(chan error, 1)
			go func() {
				_, err := c.CallTool(ctx, callReq("up__block", nil))
				blocked <- err
			}()
			select {
			case <-up.started:
			case <-time.After(5 * time.Second):
				t.Fatal("blocking call never reached the server")
			}
			res, err := c.CallTool(t.Context(), callReq("up__echo", map[string]any{"text": "meanwhile"}))
			if err != nil || res.Content[0].(mcp.TextContent).Text != "meanwhile" {
				t.Fatalf("call next to a blocked one = %+v, %v", res, err)
			}
			cancel() // the client sends notifications/cancelled
			select {
			case <-up.cancelled:
			case <-time.After(5 * time.Second): // far below the router's call timeout
				t.Fatal("cancelling the caller's request did not cancel the server's call")
			}
			if err := <-blocked; !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled call = %v, want context.Canceled", err)
			}
		})
	}
}

// TestServeStdioPassesTheTurn: the worker handling a call reads the next
// message itself only when nothing waits: a message already read in
// behind a call that blocks is handled at once, however long PassAfter,
// and one that comes later once PassAfter is over.
func TestServeStdioPassesTheTurn(t *testing.T) {
	const (
		block = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"up__block","arguments":{}}}` + "\n"
		echo  = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"up__echo","arguments":{"text":"meanwhile"}}}` + "\n"
	)
	for _, tc := range []struct {
		name      string
		passAfter time.Duration
		together  bool
	}{
		{"sent together, PassAfter an hour", time.Hour, true},
		{"sent after the call began, PassAfter 10 ms", 10 * time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := PassAfter
			PassAfter = tc.passAfter
			t.Cleanup(func() { PassAfter = old })
			up, in, out := newStdioGateway(t, mcp.ProtocolVersion20251125)
			send := func(s string) {
				t.Helper()
				if _, err := io.WriteString(in, s); err != nil {
					t.Fatal(err)
				}
			}
			if tc.together {
				send(block + echo)
			} else {
				send(block)
				select {
				case <-up.started:
				case <-time.After(5 * time.Second):
					t.Fatal("blocking call never reached the server")
				}
				send(echo)
			}
			answer := make(chan string, 1)
			go func() {
				line, _ := out.ReadString('\n')
				answer <- line
			}()
			select {
			case line := <-answer:
				if !strings.Contains(line, `"id":2`) || !strings.Contains(line, "meanwhile") {
					t.Fatalf("first answer = %s, want the echo's while the other call blocks", line)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the message after a blocked call was not handled")
			}
		})
	}
}

// TestServeStdioWire checks answers on the wire for messages a client
// library would not send.
func TestServeStdioWire(t *testing.T) {
	cases := []struct {
		name string
		line string
		want func(map[string]any) bool
	}{
		{"string id echoed as is", `{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"name":"up__echo","arguments":{"text":"x"}}}`,
			func(m map[string]any) bool { return m["id"] == "a-1" && m["result"] != nil }},
		{"2026-07-28 request without client capabilities refused", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"up__echo","arguments":{}}}`,
			func(m map[string]any) bool { return m["id"] == float64(2) && m["error"] != nil }},
		{"wrong jsonrpc version refused", `{"jsonrpc":"1.0","id":3,"method":"tools/call","params":{"name":"up__echo","arguments":{}}}`,
			func(m map[string]any) bool { return m["id"] == float64(3) && m["error"] != nil }},
		{"garbage is a parse error", `{not json`,
			func(m map[string]any) bool {
				e, _ := m["error"].(map[string]any)
				return e != nil && e["code"] == float64(mcp.PARSE_ERROR)
			}},
		{"ping answered", `{"jsonrpc":"2.0","id":4,"method":"ping"}`,
			func(m map[string]any) bool { return m["id"] == float64(4) && m["result"] != nil }},
	}
	_, in, out := newStdioGateway(t, mcp.ProtocolVersion20251125)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := io.WriteString(in, tc.line+"\n"); err != nil {
				t.Fatal(err)
			}
			line, err := out.ReadBytes('\n')
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(line, &m); err != nil || !tc.want(m) {
				t.Errorf("answer to %s = %s (%v)", tc.line, line, err)
			}
		})
	}
}

// TestServeStdioEnds: ServeStdio returns on a line over
// wire.MaxMessageBytes and when its context ends, with nothing left
// running.
func TestServeStdioEnds(t *testing.T) {
	old := wire.MaxMessageBytes
	wire.MaxMessageBytes = 1 << 17
	t.Cleanup(func() { wire.MaxMessageBytes = old })
	cases := []struct {
		name  string
		input func(w io.Writer, cancel context.CancelFunc)
		want  error
	}{
		{"line too long", func(w io.Writer, _ context.CancelFunc) {
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"`+strings.Repeat("x", 1<<18))
		}, wire.ErrTooLarge},
		{"context ends", func(_ io.Writer, cancel context.CancelFunc) { cancel() }, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := New(router.New(router.Options{}), Options{Version: "test"})
			inR, inW := io.Pipe()
			t.Cleanup(func() { inW.Close() })
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- g.ServeStdio(ctx, inR, io.Discard) }()
			go tc.input(inW, cancel)
			select {
			case err := <-done:
				if !errors.Is(err, tc.want) && !(tc.want == nil && err == nil) {
					t.Errorf("ServeStdio = %v, want %v", err, tc.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("ServeStdio did not return")
			}
		})
	}
}

// TestServeStdioEndsWhenClientStopsReading: a client that closes stdin
// and no longer reads stdout (waiting for the server to exit, as the MCP
// stdio shutdown goes) does not hold ServeStdio in a write its pipe will
// never take: it returns after DrainTimeout.
func TestServeStdioEndsWhenClientStopsReading(t *testing.T) {
	old := DrainTimeout
	DrainTimeout = 50 * time.Millisecond
	t.Cleanup(func() { DrainTimeout = old })
	g := New(router.New(router.Options{}), Options{Version: "test"})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe() // never read until the end
	t.Cleanup(func() { outR.Close() })
	done := make(chan error, 1)
	go func() { done <- g.ServeStdio(t.Context(), inR, outW) }()
	if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeStdio = %v, want nil at the end of input", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio did not return while its answer waited in a pipe nobody reads")
	}
}

// panicky is a source whose Client panics once armed.
type panicky struct {
	src
	armed atomic.Bool
}

func (p *panicky) Client() (router.Client, error) {
	if p.armed.Load() {
		panic("source broke")
	}
	return p.src.Client()
}

// TestServeStdioSurvivesPanic: a handler that panics gets its request an
// internal error, and the session goes on.
func TestServeStdioSurvivesPanic(t *testing.T) {
	s := server.NewMCPServer("up", "1", server.WithToolCapabilities(true))
	s.AddTool(mcp.NewTool("echo"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("x"), nil
	})
	cl := mcptest.Connect(t, s)
	p := &panicky{src: src{cl}}
	reg := router.New(router.Options{})
	reg.Add(p)
	g := New(reg, Options{Version: "test"})
	g.Refresh(t.Context())
	p.armed.Store(true)

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- g.ServeStdio(t.Context(), inR, outW) }()
	out := bufio.NewReader(outR)
	for _, tc := range []struct{ line, want string }{
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"up__echo","arguments":{}}}`, `"id":7,"error":{"code":-32603`},
		{`{"jsonrpc":"2.0","id":8,"method":"ping"}`, `"id":8,"result"`},
	} {
		if _, err := io.WriteString(inW, tc.line+"\n"); err != nil {
			t.Fatal(err)
		}
		got, err := out.ReadString('\n')
		if err != nil || !strings.Contains(got, tc.want) {
			t.Errorf("answer to %s = %s (%v), want it to contain %s", tc.line, got, err, tc.want)
		}
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Errorf("ServeStdio = %v", err)
	}
}

// TestServeStdioModernCall: a 2026-07-28 client's plain tools/call is
// answered on the fast path as mcp-go's server would answer it: the
// result, with resultType and the gateway's serverInfo in _meta.
func TestServeStdioModernCall(t *testing.T) {
	for _, version := range upstreamVersions {
		t.Run(version, func(t *testing.T) {
			_, in, out := newStdioGateway(t, version)
			line := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}},"name":"up__echo","arguments":{"text":"über"}}}` + "\n"
			if _, err := io.WriteString(in, line); err != nil {
				t.Fatal(err)
			}
			answer := answerWithin(t, out, "7")
			if text, isErr := resultText(answer); isErr || text != "über" {
				t.Fatalf("answer = %v, want the text über", answer)
			}
			res := answer["result"].(map[string]any)
			meta, _ := res["_meta"].(map[string]any)
			info, _ := meta[mcp.MetaKeyServerInfo].(map[string]any)
			if res["resultType"] != "complete" || info["name"] == nil {
				t.Errorf("result = %v, want resultType complete and a serverInfo in _meta", res)
			}
		})
	}
}

// TestStampModern: what a 2026-07-28 result lacks is added, what it has is
// kept, and its other members are passed on as they came.
func TestStampModern(t *testing.T) {
	g := &Gateway{serverInfo: []byte(`{"name":"switchboard","version":"t"}`)}
	cases := []struct{ name, in, want string }{
		{"bare result", `{"content":[{"type":"text","text":"x"}],"isError":false}`,
			`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"switchboard","version":"t"}},"resultType":"complete","content":[{"type":"text","text":"x"}],"isError":false}`},
		{"_meta of its own kept", `{"_meta":{"a":1},"content":[]}`,
			`{"_meta":{"a":1,"io.modelcontextprotocol/serverInfo":{"name":"switchboard","version":"t"}},"resultType":"complete","content":[]}`},
		{"nested _meta of its own kept", `{"_meta":{"a":{"b":[1]} } ,"content":[]}`,
			`{"_meta":{"a":{"b":[1]} ,"io.modelcontextprotocol/serverInfo":{"name":"switchboard","version":"t"}},"resultType":"complete","content":[]}`},
		{"an empty _meta", `{"_meta":{ },"content":[]}`,
			`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"switchboard","version":"t"}},"resultType":"complete","content":[]}`},
		{"a _meta that is no object replaced", `{"_meta":7,"content":[]}`,
			`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"switchboard","version":"t"}},"resultType":"complete","content":[]}`},
		{"stamped but untyped", `{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"up"}},"content":[]}`,
			`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"up"}},"resultType":"complete","content":[]}`},
		{"input_required kept", `{"resultType":"input_required","requestState":"s"}`,
			`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"switchboard","version":"t"}},"resultType":"input_required","requestState":"s"}`},
		{"stamped already: the same bytes", `{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"up"}},"content":[]}`,
			`{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"up"}},"content":[]}`},
		{"not an object", `[1]`, `[1]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(stampModern(json.RawMessage(tc.in), g.serverInfo)); got != tc.want || !json.Valid([]byte(got)) {
				t.Errorf("stampModern(%s)\n= %s\nwant %s", tc.in, got, tc.want)
			}
		})
	}
}

// TestMetaCache: a stream's calls that repeat the same _meta but for the
// progress token decode it once; another _meta is decoded anew; a
// 2026-07-28 one carries its protocol info, a call's own copy.
func TestMetaCache(t *testing.T) {
	const modern = `"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}`
	var c metaCache
	f1, i1, tok1, err := c.decode([]byte(`{"progressToken":1,` + modern + `}`))
	if err != nil || tok1 != float64(1) || i1 == nil || i1.ProtocolVersion != "2026-07-28" || i1.ClientInfo.Name != "c" || i1.ClientCapabilities.Elicitation == nil {
		t.Fatalf("first decode: %v %+v %v %v", f1, i1, tok1, err)
	}
	if _, ok := f1["progressToken"]; ok || len(f1) != 3 {
		t.Errorf("fields %v, want the three but the token", f1)
	}
	f2, i2, tok2, err := c.decode([]byte(`{` + modern + `,"progressToken":"b"}`))
	if err != nil || tok2 != "b" || reflect.ValueOf(f2).UnsafePointer() != reflect.ValueOf(f1).UnsafePointer() || i2 == i1 || *i2 != *i1 {
		t.Errorf("the same _meta again: fields decoded anew %v, token %v, info %p %p", reflect.ValueOf(f2).UnsafePointer() != reflect.ValueOf(f1).UnsafePointer(), tok2, i1, i2)
	}
	f3, i3, tok3, err := c.decode([]byte(`{"io.modelcontextprotocol/protocolVersion":"2025-11-25","x":2}`))
	if err != nil || i3 != nil || tok3 != nil || f3["x"] != float64(2) {
		t.Errorf("another _meta: %v %+v %v %v", f3, i3, tok3, err)
	}
	if f, i, tok, err := c.decode(nil); f != nil || i != nil || tok != nil || err != nil {
		t.Errorf("no _meta: %v %v %v %v", f, i, tok, err)
	}
	if _, _, _, err := c.decode([]byte(`7`)); err == nil {
		t.Error("a _meta that is no object decoded")
	}
}
