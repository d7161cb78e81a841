package gateway

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/apps"
)

// MCP Apps pass through serve: a listed tool keeps its _meta (ui
// included) with _meta.ui.resourceUri rewritten to UIURI, and that URI is
// published as a resource whose resources/read goes to the server that
// declared it. Another host renders the app through Switchboard.

// UIURI is the URI under which the gateway publishes server's app resource
// uri (a ui:// URI): ui://SERVER/REST, SERVER path-escaped. It stays a
// ui:// URI, as hosts require, and two servers' ui://get-time/app.html
// stay apart.
func UIURI(server, uri string) string {
	return "ui://" + url.PathEscape(server) + "/" + strings.TrimPrefix(uri, "ui://")
}

// splitUIURI is UIURI's inverse.
func splitUIURI(exposed string) (server, uri string, ok bool) {
	server, tail, ok := cutServer(exposed, "ui")
	if !ok || tail == "" {
		return "", "", false
	}
	return server, "ui://" + tail, true
}

// exposeToolMeta returns m with the app's resource URI (ui.resourceUri and
// the deprecated "ui/resourceUri") under UIURI; m itself is not changed.
func exposeToolMeta(srv string, m *mcp.Meta) *mcp.Meta {
	if m == nil || m.AdditionalFields == nil {
		return m
	}
	f := maps.Clone(m.AdditionalFields)
	changed := false
	if ui, ok := f["ui"].(map[string]any); ok {
		if u, ok := ui["resourceUri"].(string); ok && apps.IsUI(u) {
			ui = maps.Clone(ui)
			ui["resourceUri"] = UIURI(srv, u)
			f["ui"], changed = ui, true
		}
	}
	if u, ok := f["ui/resourceUri"].(string); ok && apps.IsUI(u) {
		f["ui/resourceUri"], changed = UIURI(srv, u), true
	}
	if !changed {
		return m
	}
	return &mcp.Meta{ProgressToken: m.ProgressToken, AdditionalFields: f}
}

// appResources are the app resources the listed tools name, as resources
// to publish (with their definitions for the change fingerprint).
func (g *Gateway) appResources(ctx context.Context) ([]server.ServerResource, []any) {
	tools, _ := g.reg.Tools(ctx)
	seen := map[string]mcp.Resource{}
	for _, t := range tools {
		u := apps.ToolUI(t.Tool).ResourceURI
		if u == "" {
			continue
		}
		exposed := UIURI(t.Server, u)
		if _, ok := seen[exposed]; !ok {
			seen[exposed] = mcp.NewResource(exposed, t.Server+" app "+strings.TrimPrefix(u, "ui://"), mcp.WithMIMEType(apps.MIMEType))
		}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var rs []server.ServerResource
	var defs []any
	for _, k := range keys {
		rs = append(rs, server.ServerResource{Resource: seen[k], Handler: g.uiHandler()})
		defs = append(defs, seen[k])
	}
	return rs, defs
}

// uiHandler routes resources/read of a UIURI to the server that declared
// it, and names the contents by the exposed URI again.
func (g *Gateway) uiHandler() server.ResourceHandlerFunc {
	return func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		srv, uri, ok := splitUIURI(req.Params.URI)
		if !ok {
			return nil, &apps.Error{Op: "read", URI: req.Params.URI, Err: apps.ErrNotUI}
		}
		if err := g.refuse(ctx, "resource", req.Params.URI, srv); err != nil {
			return nil, err
		}
		return g.readUpstream(ctx, srv, uri, func(c mcp.ResourceContents) mcp.ResourceContents {
			out, _ := rewrite(c, func(u string) string { return UIURI(srv, u) }).(mcp.ResourceContents)
			return out
		})
	}
}

// appOnlyFilter leaves out of a client's tools/list the tools only an app
// may call (_meta.ui.visibility ["app"]) unless the client declared the
// MCP Apps extension: a client without apps would offer them to its model.
func appOnlyFilter(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
	if withApps(ctx) {
		return tools
	}
	out := tools[:0:0]
	for _, t := range tools {
		if apps.ModelVisible(t) {
			out = append(out, t)
		}
	}
	return out
}

// offered reports whether the client behind ctx was offered t in its
// tools/list: the same filter decides, so a tool left out of a client's
// list is not run when that client calls it by name.
func offered(ctx context.Context, t mcp.Tool) bool {
	return withApps(ctx) || apps.ModelVisible(t)
}

// withApps reports whether the client behind ctx declared the MCP Apps
// extension.
func withApps(ctx context.Context) bool {
	_, ok := declared(ctx).Extensions[apps.Extension]
	return ok
}

// toolFilter is each tools/list's filter: app-only tools (appOnlyFilter),
// then the tools of the servers hidden from the app (Options.Sees).
func (g *Gateway) toolFilter(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
	tools = appOnlyFilter(ctx, tools)
	if g.sees == nil {
		return tools
	}
	servers := make([]string, len(tools)) // "" for a tool not published
	g.mu.Lock()
	for i, t := range tools {
		servers[i] = g.listed[t.Name].Server
	}
	g.mu.Unlock()
	// Sees may read config.json: asked outside the gateway's lock.
	app := AppOf(ctx)
	out := tools[:0:0]
	for i, t := range tools {
		if servers[i] == "" || g.sees(app, servers[i]) {
			out = append(out, t)
		}
	}
	return out
}

// hidden names the app behind ctx and reports whether it sees srv
// (Options.Sees; true without it).
func (g *Gateway) hidden(ctx context.Context, srv string) (app string, sees bool) {
	if g.sees == nil {
		return "", true
	}
	app = AppOf(ctx)
	return app, g.sees(app, srv)
}

// HiddenError is a request refused because its server is not among those
// chosen for the app that made it (Options.Sees): a tool's call, a
// prompt's get, a resource's read (hidden.go).
type HiddenError struct {
	// Kind is what Name names: "tool" (also when empty), "prompt",
	// "resource" or "skill"; Name is as the app knows it.
	Kind, Name, Server, App string
}

func (e *HiddenError) Error() string {
	app := cmp.Or(e.App, "this app")
	return fmt.Sprintf("%s %s is not available to %s: its server %s is not among the servers chosen for %s; choose it in Switchboard's Connected apps", cmp.Or(e.Kind, "tool"), e.Name, app, e.Server, app)
}

// Is makes errors.Is(err, ErrHidden) hold for a HiddenError.
func (e *HiddenError) Is(target error) bool { return target == ErrHidden }

// ErrHidden is what a HiddenError is.
var ErrHidden = errors.New("gateway: the server is hidden from this app")

// declared returns the capabilities the client behind ctx declared: a
// 2026-07-28 request's own (or its relayed call's), else its session's.
func declared(ctx context.Context) mcp.ClientCapabilities {
	if r := relayFrom(ctx); r != nil {
		return r.caps
	}
	if caps, modern := modernCaller(ctx); modern {
		return caps
	}
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		return s.GetClientCapabilities()
	}
	return mcp.ClientCapabilities{}
}
