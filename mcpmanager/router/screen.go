package router

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
)

// screenMemo is the gate's verdicts on one cached listing of a server.
type screenMemo struct {
	tools    []mcp.Tool // the listing (held: its address identifies it, and cannot be reused while held)
	version  uint64     // the gate's version the verdicts were given at
	verdicts []error
}

// sourceOf is the Source added under server's name, or nil. A function,
// not a method: the Router has methods enough.
func sourceOf(r *Router, server string) Source {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sources[server]
}

// screened is the gate's verdict on each of server's listed tools (nil:
// no gate, or every one offered). A VersionedGate's verdicts on a cached
// listing are kept until the listing or the gate's version changes.
func (r *Router) screened(server string, tools []mcp.Tool) []error {
	if r.gate == nil || len(tools) == 0 {
		return nil
	}
	vg, versioned := r.gate.(VersionedGate)
	if !versioned {
		return r.gate.Screen(server, tools)
	}
	version := vg.Version()
	r.mu.Lock()
	m, ok := r.screens[server]
	r.mu.Unlock()
	if ok && m.version == version && same(m.tools, tools) {
		return m.verdicts
	}
	verdicts := r.gate.Screen(server, tools)
	r.mu.Lock()
	r.screens[server] = screenMemo{tools: tools, version: version, verdicts: verdicts}
	r.mu.Unlock()
	return verdicts
}

// screenCall refuses a call of a tool src's entry leaves out (ToolFilter)
// and asks the gate about the others, as the server lists them now; a tool
// the server does not list is the server's to refuse. src is the server's
// Source, which a call has already looked up.
func (r *Router) screenCall(ctx context.Context, src Source, server, tool string) error {
	if filter, ok := src.(ToolFilter); ok && !filter.Offers(tool) {
		return fmt.Errorf("%w: %s: %q is left out by the server's entry (includeTools / excludeTools); edit the server to offer it", ErrUnknownTool, server, tool)
	}
	if r.gate == nil {
		return nil
	}
	tools, _, err := r.serverTools(ctx, server)
	if err != nil {
		return nil // the call itself says what is wrong with the server
	}
	for i, t := range tools {
		if t.Name == tool {
			if v := r.screened(server, tools); v != nil && v[i] != nil {
				// A kept verdict that withholds the tool is asked again: a
				// VersionedGate's version may lag a change another process
				// made a moment ago (the trust a user just gave).
				return r.gate.Screen(server, tools)[i]
			}
			return nil
		}
	}
	return nil
}
