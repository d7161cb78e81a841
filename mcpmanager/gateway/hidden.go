package gateway

import (
	"context"
	"slices"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The per-app choice (Options.Sees) holds for everything a server offers,
// not only its tools: an app's prompts/list, resources/list and
// resources/templates/list leave out what a server hidden from it offers,
// and its prompts/get and resources/read of one (a name or URI it kept
// from an earlier list, or built itself) are refused with a HiddenError
// naming the server, the app and where to choose, as its tools/call of a
// hidden tool is. Its skills too (skills.go): skills/list leaves them out,
// skills/get and the read of a skill's file are refused. Completion of a
// hidden server's prompt or template is refused too (complete.go);
// resource subscriptions are not offered by the gateway to any app.
//
// Only the router's servers are hidden: the skills on this computer are
// no server an app chooses.

// promptRoutes maps a published prompt name to its server, for the
// prompt filter, and to the server's own name for it (completion).
type promptRoutes struct {
	mu     sync.Mutex
	server map[string]string
	prompt map[string]string
}

func (p *promptRoutes) set(server, prompt map[string]string) {
	p.mu.Lock()
	p.server, p.prompt = server, prompt
	p.mu.Unlock()
}

// route is the server of a published prompt and its own name there.
func (p *promptRoutes) route(name string) (srv, prompt string, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	srv, ok = p.server[name]
	return srv, p.prompt[name], ok
}

func (p *promptRoutes) of(name string) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.server[name]
	return s, ok
}

// seer answers, for one request, whether its app sees a server, asking
// Options.Sees once per server.
type seer struct {
	g       *Gateway
	app     string
	servers []string // the router's; nil: not read yet
	seen    map[string]bool
}

// seer returns the request's seer, or nil when every app sees every
// server (no Options.Sees).
func (g *Gateway) seer(ctx context.Context) *seer {
	if g.sees == nil {
		return nil
	}
	return &seer{g: g, app: AppOf(ctx), seen: map[string]bool{}}
}

// hides reports whether srv is a router server hidden from the app.
func (s *seer) hides(srv string) bool {
	if s == nil {
		return false
	}
	if v, ok := s.seen[srv]; ok {
		return !v
	}
	if s.servers == nil {
		s.servers = s.g.reg.Servers()
	}
	v := !slices.Contains(s.servers, srv) || s.g.sees(s.app, srv)
	s.seen[srv] = v
	return !v
}

// refuse is the error for the app's request of a hidden server's name
// (a prompt's name or a resource's URI), nil when srv is not hidden.
func (g *Gateway) refuse(ctx context.Context, kind, name, srv string) error {
	s := g.seer(ctx)
	if !s.hides(srv) {
		return nil
	}
	return &HiddenError{Kind: kind, Name: name, Server: srv, App: s.app}
}

// resourceServer is the server a published resource URI (or template)
// belongs to: switchboard://SERVER/… or ui://SERVER/…; false for another
// URI (a local skill's).
func resourceServer(uri string) (string, bool) {
	if srv, _, ok := splitURI(uri); ok {
		return srv, true
	}
	if srv, _, ok := splitUIURI(uri); ok {
		return srv, true
	}
	return "", false
}

// hideContent adds the hooks that leave a hidden server's prompts,
// resources and resource templates out of an app's lists (their gets and
// reads are refused by their handlers: promptHandler, resourceHandler,
// uiHandler).
func (g *Gateway) hideContent(hooks *server.Hooks) {
	hooks.AddAfterListPrompts(func(ctx context.Context, _ any, _ *mcp.ListPromptsRequest, res *mcp.ListPromptsResult) {
		if s := g.seer(ctx); s != nil && res != nil {
			res.Prompts = slices.DeleteFunc(res.Prompts, func(p mcp.Prompt) bool {
				srv, ok := g.prompts.of(p.Name)
				return ok && s.hides(srv)
			})
		}
	})
	hooks.AddAfterListResources(func(ctx context.Context, _ any, _ *mcp.ListResourcesRequest, res *mcp.ListResourcesResult) {
		if s := g.seer(ctx); s != nil && res != nil {
			res.Resources = slices.DeleteFunc(res.Resources, func(r mcp.Resource) bool {
				srv, ok := resourceServer(r.URI)
				return ok && s.hides(srv)
			})
		}
	})
	hooks.AddAfterListResourceTemplates(func(ctx context.Context, _ any, _ *mcp.ListResourceTemplatesRequest, res *mcp.ListResourceTemplatesResult) {
		if s := g.seer(ctx); s != nil && res != nil {
			res.ResourceTemplates = slices.DeleteFunc(res.ResourceTemplates, func(t mcp.ResourceTemplate) bool {
				if t.URITemplate == nil || t.URITemplate.Template == nil {
					return false
				}
				srv, _, ok := splitURI(t.URITemplate.Raw())
				return ok && s.hides(srv)
			})
		}
	})
}
