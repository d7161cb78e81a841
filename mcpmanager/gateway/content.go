package gateway

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/yosida95/uritemplate/v3"

	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// URIScheme is the scheme of every resource URI the gateway publishes:
// switchboard://SERVER/ORIGINAL, where SERVER is the configured server
// name (path-escaped) and ORIGINAL the server's own URI, kept as it is. Two
// servers may both have file:///README.md; the prefix keeps them apart and
// says where a resources/read goes, for templates too (a URI a client built
// from a published template starts with the same prefix).
const URIScheme = "switchboard"

// ExposedURI is the URI under which the gateway publishes server's resource
// uri (and the template under which it publishes a URI template).
func ExposedURI(server, uri string) string {
	return URIScheme + "://" + url.PathEscape(server) + "/" + uri
}

// splitURI is ExposedURI's inverse.
func splitURI(exposed string) (server, uri string, ok bool) { return cutServer(exposed, URIScheme) }

// cutServer splits SCHEME://SERVER/REST (SERVER path-escaped, as
// ExposedURI and UIURI write it) into the server and REST.
func cutServer(exposed, scheme string) (server, rest string, ok bool) {
	after, ok := strings.CutPrefix(exposed, scheme+"://")
	if !ok {
		return "", "", false
	}
	esc, rest, ok := strings.Cut(after, "/")
	if !ok {
		return "", "", false
	}
	server, err := url.PathUnescape(esc)
	if err != nil || server == "" {
		return "", "", false
	}
	return server, rest, true
}

// maxPromptName is the longest name promptNames gives: the 64 characters
// of router.Namespace's names, which clients offer as commands.
const maxPromptName = 64

// promptNames gives every prompt a name unique across servers:
// server__prompt (router.Namespace), and for names two prompts would
// share, each of them with _ and 6 hex digits of a hash of its own server
// and prompt name, so a server added later cannot take another's name.
// The suffix fits within maxPromptName: the shared name is cut first.
func promptNames(servers []string, prompts map[string][]mcp.Prompt) map[[2]string]string {
	base := map[string]int{}
	for _, s := range servers {
		for _, p := range prompts[s] {
			base[router.Namespace(s, p.Name)]++
		}
	}
	out := map[[2]string]string{}
	for _, s := range servers {
		for _, p := range prompts[s] {
			n := router.Namespace(s, p.Name)
			if base[n] > 1 {
				sum := sha256.Sum256([]byte(s + "\x00" + p.Name))
				suffix := "_" + hex.EncodeToString(sum[:])[:6]
				n = n[:min(len(n), maxPromptName-len(suffix))] + suffix // Namespace's names are ASCII
			}
			out[[2]string{s, p.Name}] = n
		}
	}
	return out
}

// serverContent is what one server offers besides tools.
type serverContent struct {
	prompts   []mcp.Prompt
	resources []mcp.Resource
	templates []mcp.ResourceTemplate
}

// listContent lists every server's prompts, resources and resource
// templates in parallel (g.refreshMu is held). A server that fails is left
// out and reported; one that is restarting keeps what it last listed, as
// its tools stay listed (router), so a crash does not unpublish them and
// publish them again, a list_changed each time.
func (g *Gateway) listContent(ctx context.Context) (map[string]serverContent, []router.ServerError) {
	servers := g.reg.Servers()
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		out  = map[string]serverContent{}
		errs []router.ServerError
	)
	for _, s := range servers {
		wg.Go(func() {
			var c serverContent
			var err error
			if c.prompts, err = g.reg.ServerPrompts(ctx, s); err == nil {
				if c.resources, err = g.reg.ServerResources(ctx, s); err == nil {
					c.templates, err = g.reg.ServerResourceTemplates(ctx, s)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if last, ok := g.content[s]; ok && router.Restarting(err) {
				c, err = last, nil
			}
			if err != nil {
				errs = append(errs, router.ServerError{Server: s, Err: fmt.Sprintf("%s: prompts and resources left out: %v", s, err)})
				return
			}
			out[s] = c
		})
	}
	wg.Wait()
	if ctx.Err() == nil {
		g.content = out
	}
	return out, errs
}

// publishContent republishes prompts, resources and resource templates
// (g.refreshMu is held). mcp-go sends notifications/prompts/list_changed
// or notifications/resources/list_changed when a list is set, so each is
// set only when what it publishes differs.
func (g *Gateway) publishContent(ctx context.Context) []router.ServerError {
	content, errs := g.listContent(ctx)
	if ctx.Err() != nil {
		return nil // a listing cut short is no reason to unpublish
	}
	servers := make([]string, 0, len(content))
	prompts := map[string][]mcp.Prompt{}
	for s, c := range content {
		servers = append(servers, s)
		prompts[s] = c.prompts
	}
	sort.Strings(servers)

	names := promptNames(servers, prompts)
	var sp []server.ServerPrompt
	var rs []server.ServerResource
	var ts []server.ServerResourceTemplate
	type pRoute struct {
		Server, Prompt string
		Def            mcp.Prompt
	}
	var pRoutes []pRoute
	var rDefs []any
	promptServer := map[string]string{} // for the per-app choice (hidden.go)
	promptName := map[string]string{}   // the server's own name, for completion
	for _, s := range servers {
		c := content[s]
		for _, p := range c.prompts {
			exposed := p
			exposed.Name = names[[2]string{s, p.Name}]
			sp = append(sp, server.ServerPrompt{Prompt: exposed, Handler: g.promptHandler(s, p.Name)})
			pRoutes = append(pRoutes, pRoute{s, p.Name, exposed})
			promptServer[exposed.Name] = s
			promptName[exposed.Name] = p.Name
		}
		for _, r := range c.resources {
			exposed := r
			exposed.URI = ExposedURI(s, r.URI)
			rs = append(rs, server.ServerResource{Resource: exposed, Handler: g.resourceHandler()})
			rDefs = append(rDefs, exposed)
		}
		for _, t := range c.templates {
			if t.URITemplate == nil || t.URITemplate.Template == nil {
				continue
			}
			tmpl, err := uritemplate.New(ExposedURI(s, t.URITemplate.Raw()))
			if err != nil {
				errs = append(errs, router.ServerError{Server: s, Err: fmt.Sprintf("%s: resource template %q left out: %v", s, t.URITemplate.Raw(), err)})
				continue
			}
			exposed := t
			exposed.URITemplate = &mcp.URITemplate{Template: tmpl}
			ts = append(ts, server.ServerResourceTemplate{Template: exposed, Handler: server.ResourceTemplateHandlerFunc(g.resourceHandler())})
			rDefs = append(rDefs, exposed)
		}
	}
	uiRes, uiDefs := g.appResources(ctx) // MCP Apps' ui:// resources (apps.go)
	rs, rDefs = append(rs, uiRes...), append(rDefs, uiDefs...)
	skRes, skDefs := skillsOf(g).skillResources(ctx) // the local skills' SKILL.md files (skills.go)
	rs, rDefs = append(rs, skRes...), append(rDefs, skDefs...)
	pfp, perr := json.Marshal(pRoutes)
	rfp, rerr := json.Marshal(rDefs)

	g.mu.Lock()
	setPrompts := perr != nil || string(pfp) != string(g.publishedPrompts)
	setResources := rerr != nil || string(rfp) != string(g.publishedResources)
	g.publishedPrompts, g.publishedResources = pfp, rfp
	g.mu.Unlock()
	if setPrompts {
		g.prompts.set(promptServer, promptName)
		g.srv.SetPrompts(sp...)
	}
	if setResources {
		g.srv.SetResourceTemplates(ts...)
		g.srv.SetResources(rs...)
	}
	return errs
}

// promptHandler routes prompts/get to server's prompt.
func (g *Gateway) promptHandler(srv, prompt string) server.PromptHandlerFunc {
	return func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		if err := g.refuse(ctx, "prompt", req.Params.Name, srv); err != nil {
			return nil, err
		}
		upCtx, done := g.upstream(ctx, srv)
		defer done()
		res, err := g.reg.GetPrompt(upCtx, srv, prompt, req.Params.Arguments)
		if err != nil {
			return nil, err
		}
		for i, m := range res.Messages {
			res.Messages[i].Content = exposeContent(srv, m.Content)
		}
		return res, nil
	}
}

// resourceHandler routes resources/read of an exposed URI to its server,
// and gives the contents the exposed URIs back.
func (g *Gateway) resourceHandler() server.ResourceHandlerFunc {
	return func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		srv, uri, ok := splitURI(req.Params.URI)
		if !ok {
			return nil, fmt.Errorf("gateway: %q is not a resource Switchboard published (%s://SERVER/URI)", req.Params.URI, URIScheme)
		}
		if err := g.refuse(ctx, "resource", req.Params.URI, srv); err != nil {
			return nil, err
		}
		return g.readUpstream(ctx, srv, uri, func(c mcp.ResourceContents) mcp.ResourceContents { return exposeContents(srv, c) })
	}
}

// readUpstream reads uri of server srv for a client of the gateway (past
// the client's own cancellation, see detach) and names each part of the
// contents as the client knows it (rename).
func (g *Gateway) readUpstream(ctx context.Context, srv, uri string, rename func(mcp.ResourceContents) mcp.ResourceContents) ([]mcp.ResourceContents, error) {
	upCtx, done := g.upstream(ctx, srv)
	defer done()
	res, err := g.reg.ReadResource(upCtx, srv, uri)
	if err != nil {
		return nil, err
	}
	out := make([]mcp.ResourceContents, 0, len(res.Contents))
	for _, c := range res.Contents {
		out = append(out, rename(c))
	}
	return out, nil
}
