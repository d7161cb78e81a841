// Package mcptest is the module's test kit for MCP: it connects an mcp-go
// client to a server in process (as the app connects its built-ins), calls
// a tool and joins the text of its result, and waits until a condition
// holds within the test's own deadline.
//
// mcp-go's mcptest (github.com/mark3labs/mcp-go/mcptest) is the model; this
// one takes the *server.MCPServer the package under test already builds
// (a built-in's NewServer, a server a test fills with tools) instead of
// building one from a list of tools, and its waits report what they waited
// for. Every layer's tests may import it: it imports only mcp-go, and it
// lives under builtin/, the bottom of the engine (the manager imports the
// built-ins, never the other way), so the built-ins' own tests use it
// without reaching into mcpmanager/.
//
//	cl := mcptest.Connect(t, workspace.NewServer(w))  // closed when the test ends
//	res, text := mcptest.Call(t, cl, "list_files", map[string]any{"path": "."})
//	mcptest.Until(t, "the server to be ready", func() bool { return s.Ready() })
//
// See Example.
package mcptest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Option changes how Connect connects.
type Option func(*options)

type options struct {
	protocol string
	onNote   func(mcp.JSONRPCNotification)
	client   []client.ClientOption
}

// Protocol makes the client ask for revision v in initialize (the default is
// mcp.LATEST_PROTOCOL_VERSION).
func Protocol(v string) Option { return func(o *options) { o.protocol = v } }

// OnNotification hands every notification the server sends to f; it is set
// before the client starts, so none sent during initialize is missed.
func OnNotification(f func(mcp.JSONRPCNotification)) Option {
	return func(o *options) { o.onNote = f }
}

// ClientOptions passes options to the mcp-go client (handlers for sampling,
// elicitation and roots, capabilities).
func ClientOptions(opts ...client.ClientOption) Option {
	return func(o *options) { o.client = append(o.client, opts...) }
}

// Connect connects an in-process mcp-go client to srv and initializes it;
// the client is closed when the test ends. Any error fails tb.
func Connect(tb testing.TB, srv *server.MCPServer, opts ...Option) *client.Client {
	tb.Helper()
	cl, _ := ConnectResult(tb, srv, opts...)
	return cl
}

// ConnectResult is Connect, also returning the server's initialize result
// (its name, instructions and capabilities), for tests of those.
func ConnectResult(tb testing.TB, srv *server.MCPServer, opts ...Option) (*client.Client, *mcp.InitializeResult) {
	tb.Helper()
	o := options{protocol: mcp.LATEST_PROTOCOL_VERSION}
	for _, opt := range opts {
		opt(&o)
	}
	cl, err := client.NewInProcessClientWithOptions(srv, o.client...)
	if err != nil {
		tb.Fatalf("mcptest: in-process client: %v", err)
	}
	if o.onNote != nil {
		cl.OnNotification(o.onNote)
	}
	// Closed before the other cleanups registered so far run, and after
	// those the test registers later (cleanups run last-in first-out).
	tb.Cleanup(func() { cl.Close() })
	if err := cl.Start(tb.Context()); err != nil {
		tb.Fatalf("mcptest: start: %v", err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = o.protocol
	res, err := cl.Initialize(tb.Context(), init)
	if err != nil {
		tb.Fatalf("mcptest: initialize: %v", err)
	}
	return cl, res
}

// Caller is what calls a tool: an mcp-go client, or anything that calls
// through one.
type Caller interface {
	CallTool(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error)
}

// Call calls tool with args and returns the result and its text (Text). A
// protocol error fails tb: a tool reports its own failures with isError,
// which the caller checks.
func Call(tb testing.TB, c Caller, tool string, args map[string]any) (*mcp.CallToolResult, string) {
	tb.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	return CallRequest(tb, c, req)
}

// CallRequest is Call for a request the test builds itself (with _meta, a
// task, …).
func CallRequest(tb testing.TB, c Caller, req mcp.CallToolRequest) (*mcp.CallToolResult, string) {
	tb.Helper()
	res, err := c.CallTool(tb.Context(), req)
	if err != nil {
		tb.Fatalf("mcptest: call %s: protocol error %v (a tool reports its failures with isError)", req.Params.Name, err)
	}
	return res, Text(res)
}

// Text joins the text content of res, one line between parts; images,
// audio and resources are left out. A nil result has no text.
func Text(res *mcp.CallToolResult) string {
	if res == nil {
		return ""
	}
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Content is the first part of res of type T (mcp.ImageContent,
// mcp.AudioContent, mcp.EmbeddedResource, …), and whether there is one.
func Content[T mcp.Content](res *mcp.CallToolResult) (T, bool) {
	var zero T
	if res == nil {
		return zero, false
	}
	for _, c := range res.Content {
		if v, ok := c.(T); ok {
			return v, true
		}
	}
	return zero, false
}

// pollEvery is how often Until looks again. The conditions it polls are
// state a test cannot subscribe to (a status, a file, a process); a test
// that can wait on a channel or an event should.
const pollEvery = 10 * time.Millisecond

// reserve is the part of the test's time left when Until gives up, so the
// test fails with what it waited for instead of the test binary's panic at
// its -timeout, which names no condition.
const reserve = 5 * time.Second

// Until waits until cond holds, looking every 10 ms, and fails tb with
// "waited for WHAT" when the test's deadline (go test -timeout, less a few
// seconds to report) comes first or the test's context ends. It does not
// sleep a fixed time: it returns as soon as cond holds.
func Until(tb testing.TB, what string, cond func() bool) {
	tb.Helper()
	UntilNil(tb, what, func() error {
		if cond() {
			return nil
		}
		return errNotYet
	})
}

// errNotYet is Until's condition not holding; it has nothing more to say.
var errNotYet = fmt.Errorf("not yet")

// UntilNil is Until for a condition that says why it does not hold yet: it
// waits until check returns nil and fails tb with WHAT and check's last
// error.
func UntilNil(tb testing.TB, what string, check func() error) {
	tb.Helper()
	ctx, cancel := context.WithCancel(tb.Context())
	defer cancel()
	if d, ok := deadline(tb); ok {
		ctx, cancel = context.WithDeadline(ctx, d)
		defer cancel()
	}
	if err := poll(ctx, check); err != nil {
		tb.Fatalf("waited for %s: %v", what, err)
	}
}

// Within is UntilNil bounded by d as well, for a wait whose length the test
// asserts ("stops within 5 s").
func Within(tb testing.TB, d time.Duration, what string, check func() error) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(tb.Context(), d)
	defer cancel()
	if err := poll(ctx, check); err != nil {
		tb.Fatalf("waited %v for %s: %v", d, what, err)
	}
}

// poll runs check until it returns nil or ctx ends; then it returns check's
// last error with the reason ctx ended.
func poll(ctx context.Context, check func() error) error {
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for {
		err := check()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			// One last look: the condition may have come true while waiting.
			if last := check(); last == nil {
				return nil
			} else if last != errNotYet {
				err = last
			}
			if err == errNotYet {
				return fmt.Errorf("%v", context.Cause(ctx))
			}
			return fmt.Errorf("%w (%v)", err, context.Cause(ctx))
		case <-tick.C:
		}
	}
}

// deadline is when Until gives up: the test binary's deadline less reserve
// (less half the time left when that is shorter). A benchmark or fuzz
// target has no deadline; its context alone ends the wait.
func deadline(tb testing.TB) (time.Time, bool) {
	t, ok := tb.(interface{ Deadline() (time.Time, bool) })
	if !ok {
		return time.Time{}, false
	}
	d, ok := t.Deadline()
	if !ok {
		return time.Time{}, false
	}
	return d.Add(-min(reserve, time.Until(d)/2)), true
}
