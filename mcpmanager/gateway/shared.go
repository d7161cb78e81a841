package gateway

import (
	"context"
	"io"
	"strconv"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Call is one tool call the gateway routed, for Options.OnCall: the app
// that made it (AppOf), where it went, how long it took.
type Call struct {
	App, Server, Tool string
	Took              time.Duration
	Failed            bool
}

// ServeApp serves one attached app's stream — a 'switchboard serve'
// started by that app, relaying its stdio over the bridge's socket — as a
// session of its own, exactly as ServeStdio serves its one client: the
// app sees the same initialize result, tools, notifications and
// round trips, and a server's question goes to the app whose call caused
// it (origins.go) across every app attached. app names it in AppOf
// (the name 'serve --client NAME' was given; "" for its initialize
// clientInfo.name). It returns when the stream ends or ctx does.
func (g *Gateway) ServeApp(ctx context.Context, rw io.ReadWriter, app string) error {
	id := "app-" + strconv.FormatInt(g.sessions.Add(1), 10)
	return g.serveStream(ctx, rw, rw, &stdioSession{id: id, app: app, notes: make(chan mcp.JSONRPCNotification, 256)})
}

// AppOf names the app whose request ctx carries: the name ServeApp was
// given, else the client's initialize clientInfo.name; "" when unknown.
func AppOf(ctx context.Context) string {
	if app, ok := ctx.Value(appKey{}).(string); ok {
		return app // a relayed call's, named before it left the request (call.go)
	}
	sess := server.ClientSessionFromContext(ctx)
	if s, ok := sess.(*stdioSession); ok && s.app != "" {
		return s.app
	}
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.ClientInfo != nil && info.ClientInfo.Name != "" {
		return info.ClientInfo.Name // a 2026-07-28 request says who it is in its _meta
	}
	if ci, ok := sess.(server.SessionWithClientInfo); ok {
		return ci.GetClientInfo().Name
	}
	return ""
}

// appKey carries AppOf into a relayed call's context, which holds none of
// the request's values.
type appKey struct{}
