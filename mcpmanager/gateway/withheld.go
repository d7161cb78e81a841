package gateway

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/registry"
)

// withheld reports whether name was withheld by the registry's gate at the
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

// callWithheld answers a call of a withheld tool: with the reason as a
// tool error (so the caller's model reads why, not "unknown tool"), or, if
// the user trusted it since (from another process: 'switchboard tools
// trust'), with the call itself, and the tools are published again.
func (g *Gateway) callWithheld(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, bool) {
	if !g.withheld(name) {
		return nil, false
	}
	t, err := g.reg.Lookup(ctx, name)
	if err != nil {
		res, _ := json.Marshal(mcp.NewToolResultError(err.Error()))
		return res, true
	}
	g.reg.Invalidate(t.Server) // Watch republishes it
	res, err := g.reg.CallRaw(ctx, t.Server, t.Tool.Name, args, registry.CallOptions{})
	if err != nil {
		res, _ = json.Marshal(mcp.NewToolResultError(err.Error()))
	} else {
		res = relinkRaw(t.Server, res)
	}
	return res, true
}
