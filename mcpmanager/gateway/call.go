package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// callTool is tools/call, whichever transport the request came on: the
// stdio fast path (fastCall) and the MCP server's handler (HTTP, and what
// stdio leaves to it) both call it, so a client sees the same result for
// the same call over either. It routes the exposed name (a withheld tool
// the user trusted since is called, one still withheld answers why),
// refuses a tool the client's tools/list left out (offered) or whose
// server is hidden from its app (Options.Sees, as a tool error), lets
// the router check the arguments, retry after URL elicitations and check
// the structured output, turns an error into a tool error (the caller's
// model should read why, not a protocol failure), and rewrites resource
// links to URIs the gateway serves.
//
// It reports false, with nothing done, for a name that is neither
// published nor withheld, or not offered to this client: the MCP server
// answers that one (after the start-up wait, it may be about to be
// published; its tool filter refuses what it did not list).
func (g *Gateway) callTool(ctx context.Context, name string, args json.RawMessage, meta *mcp.Meta, notify func(params map[string]any)) (json.RawMessage, bool) {
	if a := bytes.TrimSpace(args); len(a) > 0 && a[0] != '{' && string(a) != "null" {
		return errorResult(fmt.Errorf("tools/call %s: arguments must be a JSON object (name → value), not %s", name, jsonKind(a))), true
	}
	t, ok := g.listedTool(name)
	if !ok {
		if !g.withheld(name) {
			return nil, false
		}
		var err error
		if t, err = g.reg.Lookup(ctx, name); err != nil {
			return errorResult(err), true
		}
		g.reg.Invalidate(t.Server) // trusted since: Watch republishes it
	}
	if !offered(ctx, t.Tool) {
		return nil, false // as for a name never listed: this client was not offered it
	}
	srv, tool := t.Server, t.Tool.Name
	if app, ok := g.hidden(ctx, srv); !ok {
		return errorResult(&HiddenError{Name: name, Server: srv, App: app}), true
	}
	upCtx, done := g.upstream(ctx, srv) // its server's questions go back to this client
	defer done()
	start := time.Now()
	res, err := g.reg.CallRaw(upCtx, srv, tool, args, callOptions(meta, notify))
	if g.onCall != nil {
		g.onCall(Call{App: AppOf(ctx), Server: srv, Tool: tool, Took: time.Since(start), Failed: err != nil})
	}
	if err != nil {
		return errorResult(err), true
	}
	return relink(srv, res), true
}

// modernCall is callTool for a 2026-07-28 client (its request's protocol
// info in ctx): questions of the server go back to the client as
// input_required results (relay.go). Both transports' calls of a published
// tool take it: the MCP server's handler and the stdio fast path, which
// gives a reply (see relayedCall).
func (g *Gateway) modernCall(ctx context.Context, c modernRequest) (res json.RawMessage, replied bool) {
	app := AppOf(ctx)
	return g.relayedCall(ctx, c.name, c.state, c.responses, c.caps, c.reply, func(upCtx context.Context) json.RawMessage {
		res, found := g.callTool(context.WithValue(upCtx, appKey{}, app), c.name, c.args, c.meta, c.notify)
		if !found {
			return errorResult(fmt.Errorf("tool %q: %w", c.name, server.ErrToolNotFound))
		}
		return res
	})
}

// modernRequest is a tools/call of a 2026-07-28 client.
type modernRequest struct {
	name, state string // state and responses: a retry's
	responses   mcp.InputResponses
	caps        mcp.ClientCapabilities // what the client declared
	args        json.RawMessage
	meta        *mcp.Meta
	notify      func(params map[string]any)
	reply       func(json.RawMessage) // nil: the handler's answer is its return
}

// withheld reports whether name was withheld by the router's gate at the
// last Refresh (a tool whose definition changed since the user trusted it).
func (g *Gateway) withheld(name string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, e := range g.errs {
		if e.Tool == name {
			return true
		}
	}
	return false
}

// errorResult is err as a tool error result.
func errorResult(err error) json.RawMessage {
	res, _ := json.Marshal(mcp.NewToolResultError(err.Error()))
	return res
}

// handler is the MCP server's tools/call handler for every published tool:
// callTool with the request as mcp-go decoded it.
func (g *Gateway) handler() server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		notify := progressTo(ctx)
		args := req.Params.RawArguments // the bytes that came, when they came over a wire
		if args == nil {
			var err error
			if args, err = json.Marshal(req.Params.Arguments); err != nil {
				return mcp.NewToolResultError(fmt.Sprintf("gateway: encode arguments: %v", err)), nil
			}
		}
		var raw json.RawMessage
		ok := true
		if caps, modern := modernCaller(ctx); modern {
			raw, _ = g.modernCall(ctx, modernRequest{name: req.Params.Name, state: req.Params.RequestState, responses: req.Params.InputResponses,
				caps: caps, args: args, meta: req.Params.Meta, notify: notify})
		} else {
			raw, ok = g.callTool(ctx, req.Params.Name, args, req.Params.Meta, notify)
		}
		if !ok { // unpublished since mcp-go found it
			return nil, fmt.Errorf("tool %q: %w", req.Params.Name, server.ErrToolNotFound)
		}
		res, err := mcp.ParseCallToolResult(&raw)
		if err != nil {
			return mcp.NewToolResultError(fmt.Sprintf("gateway: the server's result: %v", err)), nil
		}
		return res, nil
	}
}

// progressTo is how a call the MCP server's handler runs reports progress
// to its client: on a stdio session, written at once, as the fast path
// does (stdio.go), so that every report is out before the result, which
// is written when the handler returns; the session's notification queue,
// drained by another goroutine, could let the last one come after it, and
// a client drops progress that follows its result. Elsewhere (HTTP), the
// MCP server sends it on the request's stream. nil: no client to tell.
func progressTo(ctx context.Context) func(params map[string]any) {
	if s, ok := server.ClientSessionFromContext(ctx).(*stdioSession); ok {
		if w, ok := s.w.Load().(*wire.Writer); ok {
			return progressWriter(w)
		}
	}
	out := server.ServerFromContext(ctx)
	if out == nil {
		return nil
	}
	return func(params map[string]any) {
		_ = out.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), params)
	}
}

// jsonKind names the kind of the JSON value that starts raw.
func jsonKind(raw []byte) string {
	switch raw[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case '{':
		return "an object"
	}
	if raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9' {
		return "a number"
	}
	return "JSON"
}
