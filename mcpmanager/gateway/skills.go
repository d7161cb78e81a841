package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/skills"
)

// skillRelay is the gateway's relay of its servers' skills (the skills
// extension): what it declares, lists and routes. A value type over the
// gateway, which keeps the catalog and the routes.
type skillRelay struct{ g *Gateway }

// skillsOf is g's skill relay.
func skillsOf(g *Gateway) skillRelay { return skillRelay{g} }

// The skills extension (io.modelcontextprotocol/skills) relayed: the
// gateway declares it while one of its servers does (or may: while servers
// are still starting, since initialize is answered at once and a 2025
// client hears the capabilities only then), answers skills/list
// with every such server's skills, skills/get with one, and a
// resources/read of a skill's file from the server that listed it, its
// content as the server sent it (the client verifies it against the
// digest and size the server listed, which the gateway passes on
// unchanged).
//
// A skill keeps its URI when no other server lists the same one; two
// servers' skill://pdf/SKILL.md become skill://SERVER/pdf/SKILL.md each
// (another scheme: switchboard://SERVER/URI, as resources), so the final
// segment of its path is still its name.

// skillRoutes maps a published skill directory to the server and its own
// directory, for skills/get and resources/read.
type skillRoutes struct {
	mu   sync.Mutex
	dirs map[string]skillRoute // by published directory URI
}

type skillRoute struct {
	server, dir string // the server's own directory URI
}

// skillsOffered reports whether a server behind the gateway declares the
// extension.
func (x skillRelay) skillsOffered() bool {
	g := x.g
	if g.skills == nil {
		return false
	}
	for _, s := range g.skills.Servers() { // the local skills' sources too
		if g.skills.Offers(s) {
			return true
		}
	}
	return false
}

// withSkills adds the extension to capabilities when a server offers it,
// or may once it has started.
func (x skillRelay) withSkills(caps *mcp.ServerCapabilities) {
	g := x.g
	if g.skills == nil || g.started.Load() && !skillsOf(g).skillsOffered() {
		return
	}
	ext := make(map[string]any, len(caps.Extensions)+1)
	for k, v := range caps.Extensions {
		ext[k] = v
	}
	ext[skills.Extension] = map[string]any{}
	caps.Extensions = ext
}

// publish is the URI a skill's uri is published under.
func publish(server, uri string, shared bool) string {
	if !shared {
		return uri
	}
	if rest, ok := strings.CutPrefix(uri, "skill://"); ok {
		return "skill://" + url.PathEscape(server) + "/" + rest
	}
	return ExposedURI(server, uri)
}

// listSkills lists every server's skills as entries, recording their routes.
func (x skillRelay) listSkills(ctx context.Context) []map[string]any {
	g := x.g
	g.awaitStartup(ctx)
	return skillsOf(g).listSkillsNow(ctx)
}

// listSkillsNow lists without waiting for the servers to start (a refresh
// in progress, which startup waits for, lists too).
func (x skillRelay) listSkillsNow(ctx context.Context) []map[string]any {
	g := x.g
	all, _ := g.skills.All(ctx) // a server that fails to list only loses its skills
	count := map[string]int{}
	for _, sk := range all {
		count[sk.URI]++
	}
	routes := map[string]skillRoute{}
	entries := make([]map[string]any, 0, len(all))
	for _, sk := range all {
		shared := count[sk.URI] > 1
		uri := publish(sk.Server, sk.URI, shared)
		routes[strings.TrimSuffix(uri, "/SKILL.md")] = skillRoute{server: sk.Server, dir: sk.Dir()}
		entries = append(entries, entry(sk, func(u string) string { return publish(sk.Server, u, shared) }))
	}
	g.skillRoutes.mu.Lock()
	g.skillRoutes.dirs = routes
	g.skillRoutes.mu.Unlock()
	return entries
}

// entry is sk as skills/list carries it, its URIs published with pub.
func entry(sk skills.Skill, pub func(string) string) map[string]any {
	e := map[string]any{"uri": pub(sk.URI), "frontmatter": sk.Frontmatter}
	if sk.Dynamic {
		e["resources"] = "dynamic"
		return e
	}
	files := make([]map[string]any, 0, len(sk.Files))
	for _, f := range sk.Files {
		files = append(files, map[string]any{"uri": pub(f.URI), "digest": f.Digest, "size": f.Size})
	}
	e["resources"] = files
	return e
}

// routeSkill finds the server and own URI of a published skill URI (its
// SKILL.md or a file in its directory), listing the skills once when it is
// not known yet.
func (x skillRelay) routeSkill(ctx context.Context, uri string) (server, own string, ok bool) {
	g := x.g
	find := func() (string, string, bool) {
		g.skillRoutes.mu.Lock()
		defer g.skillRoutes.mu.Unlock()
		for dir, r := range g.skillRoutes.dirs {
			// A path that could leave the skill's directory is never
			// passed on (skills.CheckPath).
			if rest, ok := strings.CutPrefix(uri, dir+"/"); ok && skills.CheckPath(rest) == nil {
				return r.server, r.dir + "/" + rest, true
			}
		}
		return "", "", false
	}
	if s, o, ok := find(); ok {
		return s, o, true
	}
	if !strings.HasPrefix(uri, "skill://") && !strings.HasPrefix(uri, URIScheme+"://") || !skillsOf(g).skillsOffered() {
		return "", "", false
	}
	skillsOf(g).listSkills(ctx)
	return find()
}

// skillRequest is the part of a request the relay looks at.
type skillRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		URI string `json:"uri"`
	} `json:"params"`
}

// answerSkills answers a request of the extension, or a resources/read of
// a skill's file, and returns the JSON-RPC response; nil when the request
// is not one (mcp-go's server answers it then).
func (x skillRelay) answerSkills(ctx context.Context, body []byte) any {
	g := x.g
	if g.skills == nil || !bytes.Contains(body, []byte(`"method"`)) {
		return nil
	}
	var req skillRequest
	if json.Unmarshal(body, &req) != nil || len(req.ID) == 0 {
		return nil
	}
	reply := func(result any) any {
		return map[string]any{"jsonrpc": mcp.JSONRPC_VERSION, "id": req.ID, "result": result}
	}
	fail := func(code int, msg string) any {
		return map[string]any{"jsonrpc": mcp.JSONRPC_VERSION, "id": req.ID, "error": map[string]any{"code": code, "message": msg}}
	}
	switch req.Method {
	case "skills/list":
		entries := skillsOf(g).listSkills(ctx)
		if s := g.seer(ctx); s != nil { // a hidden server's skills are left out (hidden.go)
			entries = slices.DeleteFunc(entries, func(e map[string]any) bool {
				uri, _ := e["uri"].(string)
				srv, _ := skillsOf(g).routeSkillKnown(uri)
				return s.hides(srv)
			})
		}
		return reply(map[string]any{"skills": entries, "resultType": "complete", "ttlMs": 0, "cacheScope": "private"})
	case "skills/get":
		server, own, ok := skillsOf(g).routeSkill(ctx, req.Params.URI)
		if !ok || !strings.HasSuffix(req.Params.URI, "/SKILL.md") {
			return fail(mcp.INVALID_PARAMS, "unknown skill: "+req.Params.URI)
		}
		if err := g.refuse(ctx, "skill", req.Params.URI, server); err != nil {
			return fail(mcp.INVALID_PARAMS, err.Error())
		}
		upCtx, done := g.upstream(ctx, server)
		sk, err := g.skills.Get(upCtx, server, own)
		done()
		if err != nil {
			return fail(mcp.INVALID_PARAMS, err.Error())
		}
		pubDir := strings.TrimSuffix(req.Params.URI, "/SKILL.md")
		pub := func(u string) string { return pubDir + strings.TrimPrefix(u, sk.Dir()) }
		return reply(map[string]any{"skill": entry(sk, pub), "resultType": "complete", "ttlMs": 0, "cacheScope": "private"})
	case string(mcp.MethodResourcesRead):
		server, own, ok := skillsOf(g).routeSkill(ctx, req.Params.URI)
		if !ok {
			return nil
		}
		if err := g.refuse(ctx, "resource", req.Params.URI, server); err != nil {
			return fail(mcp.INVALID_PARAMS, err.Error())
		}
		upCtx, done := g.upstream(ctx, server)
		raw, err := g.skills.ReadRaw(upCtx, server, own)
		done()
		if err != nil {
			var rpc *skills.RPCError
			if errors.As(err, &rpc) {
				return fail(rpc.Code, rpc.Message)
			}
			return fail(mcp.INTERNAL_ERROR, err.Error())
		}
		return reply(renameContents(raw, own, req.Params.URI))
	}
	return nil
}

// renameContents gives a relayed resources/read result's contents the
// URI the client asked for.
func renameContents(raw json.RawMessage, own, published string) any {
	var res map[string]any
	if json.Unmarshal(raw, &res) != nil {
		return raw
	}
	if cs, ok := res["contents"].([]any); ok {
		for _, c := range cs {
			if m, ok := c.(map[string]any); ok && m["uri"] == own {
				m["uri"] = published
			}
		}
	}
	return res
}

// skillResources are the SKILL.md files of the skills whose sessions are
// no router server's (the skills on this computer: a server's own
// resources/list already lists its skills' files), as resources named and
// described by their frontmatter, so a client that browses resources finds
// them. Reading one goes through the skills relay (answerSkills).
func (x skillRelay) skillResources(ctx context.Context) ([]server.ServerResource, []any) {
	g := x.g
	if g.skills == nil {
		return nil, nil
	}
	servers := g.reg.Servers()
	var local []string
	for _, s := range g.skills.Servers() {
		if !slices.Contains(servers, s) && g.skills.Offers(s) {
			local = append(local, s)
		}
	}
	if len(local) == 0 {
		return nil, nil
	}
	var rs []server.ServerResource
	var defs []any
	for _, e := range skillsOf(g).listSkillsNow(ctx) {
		uri, _ := e["uri"].(string)
		fm, _ := e["frontmatter"].(map[string]any)
		name, _ := fm["name"].(string)
		desc, _ := fm["description"].(string)
		if r, _ := skillsOf(g).routeSkillKnown(uri); !slices.Contains(local, r) {
			continue
		}
		res := mcp.NewResource(uri, name, mcp.WithResourceDescription(desc), mcp.WithMIMEType("text/markdown"))
		rs = append(rs, server.ServerResource{Resource: res, Handler: skillsOf(g).skillFileHandler()})
		defs = append(defs, res)
	}
	return rs, defs
}

// routeSkillKnown is the server of a published skill URI among the routes
// recorded by the last listing.
func (x skillRelay) routeSkillKnown(uri string) (string, bool) {
	g := x.g
	g.skillRoutes.mu.Lock()
	defer g.skillRoutes.mu.Unlock()
	r, ok := g.skillRoutes.dirs[strings.TrimSuffix(uri, "/SKILL.md")]
	return r.server, ok
}

// skillFileHandler reads a published skill file through the catalog (the
// relay answers such reads before mcp-go does; this is its fallback).
func (x skillRelay) skillFileHandler() server.ResourceHandlerFunc {
	g := x.g
	return func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		srv, own, ok := skillsOf(g).routeSkill(ctx, req.Params.URI)
		if !ok {
			return nil, fmt.Errorf("gateway: %q is no skill file Switchboard published", req.Params.URI)
		}
		raw, err := g.skills.ReadRaw(ctx, srv, own)
		if err != nil {
			return nil, err
		}
		var res mcp.ReadResourceResult
		if err := json.Unmarshal(raw, &res); err != nil {
			return nil, err
		}
		for i, c := range res.Contents {
			if t, ok := c.(mcp.TextResourceContents); ok {
				t.URI = req.Params.URI
				res.Contents[i] = t
			}
		}
		return res.Contents, nil
	}
}
