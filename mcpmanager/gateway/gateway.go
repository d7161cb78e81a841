// Package gateway re-exposes a registry as one MCP server, so any other MCP
// host can use every tool Switchboard manages (switchboard serve).
//
//	g := gateway.New(reg, "1.0.0")
//	g.Refresh(ctx)                      // after servers start or change
//	err := g.ServeStdio(ctx, os.Stdin, os.Stdout)
//
// Tools keep their namespaced names (server__tool), descriptions, schemas and
// annotations; calls are routed through the registry with its timeouts.
// ServeStdio is the stdio transport to use: it serves a plain tools/call
// without mcp-go's stdio server's extra goroutine hops and decodes (see
// BENCHMARKS.md); HTTPHandler serves Streamable HTTP.
package gateway

import (
	"context"
	"slices"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/registry"
)

// Gateway is an MCP server in front of a registry. Safe for concurrent use.
type Gateway struct {
	reg *registry.Registry
	srv *server.MCPServer

	mu     sync.Mutex
	listed map[string]registry.Tool
	errs   []registry.ServerError
}

// New builds the gateway server; call Refresh to publish the tools.
func New(reg *registry.Registry, version string) *Gateway {
	g := &Gateway{reg: reg, listed: map[string]registry.Tool{}}
	g.srv = server.NewMCPServer("switchboard", version,
		server.WithToolCapabilities(true),
		server.WithRecovery(),
		server.WithInstructions("Switchboard gathers the tools of several MCP servers. Each tool is named server__tool: the part before the double underscore is the server it belongs to."),
	)
	return g
}

// Server is the MCP server to serve over stdio or HTTP.
func (g *Gateway) Server() *server.MCPServer { return g.srv }

// Errors returns the servers that could not be listed at the last Refresh.
func (g *Gateway) Errors() []registry.ServerError {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.errs
}

// Refresh republishes the registry's tools; connected clients get
// notifications/tools/list_changed when the set changes.
func (g *Gateway) Refresh(ctx context.Context) {
	tools, errs := g.reg.Tools(ctx)
	g.mu.Lock()
	defer g.mu.Unlock()
	g.errs = errs
	next := make(map[string]registry.Tool, len(tools))
	st := make([]server.ServerTool, 0, len(tools))
	for _, t := range tools {
		next[t.Name] = t
		exposed := t.Tool
		exposed.Name = t.Name
		st = append(st, server.ServerTool{Tool: exposed, Handler: g.handler(t.Server, t.Tool.Name)})
	}
	if sameNames(next, g.listed) {
		return
	}
	g.listed = next
	g.srv.SetTools(st...)
}

func sameNames(a, b map[string]registry.Tool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			return false
		}
	}
	return true
}

func (g *Gateway) handler(srv, tool string) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var notify func(params map[string]any)
		if out := server.ServerFromContext(ctx); out != nil {
			notify = func(params map[string]any) {
				_ = out.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), params)
			}
		}
		upCtx, cancel := detach(ctx)
		defer cancel()
		res, err := g.reg.CallServer(upCtx, srv, tool, req.GetArguments(), callOptions(req.Params.Meta, notify))
		if err != nil {
			// The caller's model should see why, as a tool error, not a protocol failure.
			return mcp.NewToolResultError(err.Error()), nil
		}
		return res, nil
	}
}

// detach returns a context for the upstream call that ends with ctx but
// carries none of its values: the incoming request's (HTTP headers such as
// Mcp-Name, session data) must not leak into the upstream call.
func detach(ctx context.Context) (context.Context, context.CancelFunc) {
	upCtx, cancel := context.WithCancel(context.Background())
	stop := context.AfterFunc(ctx, cancel)
	return upCtx, func() {
		stop()
		cancel()
	}
}

// hopMeta are the _meta keys that describe the caller's own session with
// us (protocol 2026-07-28); the upstream session has its own.
var hopMeta = []string{mcp.MetaKeyProtocolVersion, mcp.MetaKeyClientInfo, mcp.MetaKeyClientCapabilities, mcp.MetaKeyLogLevel}

// callOptions passes the caller's _meta on, and relays the server's
// progress to notify under the caller's own progress token.
func callOptions(meta *mcp.Meta, notify func(params map[string]any)) registry.CallOptions {
	if meta == nil {
		return registry.CallOptions{}
	}
	fwd := &mcp.Meta{}
	for k, v := range meta.AdditionalFields {
		if !slices.Contains(hopMeta, k) {
			if fwd.AdditionalFields == nil {
				fwd.AdditionalFields = map[string]any{}
			}
			fwd.AdditionalFields[k] = v
		}
	}
	opts := registry.CallOptions{Meta: fwd}
	if token := meta.ProgressToken; token != nil && notify != nil {
		opts.OnProgress = func(p registry.Progress) {
			params := map[string]any{"progressToken": token, "progress": p.Progress}
			if p.Total > 0 {
				params["total"] = p.Total
			}
			if p.Message != "" {
				params["message"] = p.Message
			}
			notify(params)
		}
	}
	return opts
}

// route maps an exposed tool name to its server and the server's own name
// for it, as of the last Refresh.
func (g *Gateway) route(name string) (srv, tool string, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	t, ok := g.listed[name]
	return t.Server, t.Tool.Name, ok
}
