package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/codemode"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/skills"
	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// StartupWait bounds how long tools/list waits, counted from New, for
// servers still starting (and a call of a tool not yet published for it
// to be). A variable so tests can shorten it.
var StartupWait = 10 * time.Second

// ContentWait bounds how long prompts/list, resources/list and
// resources/templates/list wait for servers still starting once a
// tools/list has been answered (before, they wait for every server, up to
// StartupWait, as a client that asks only for them needs): what is ready
// then is listed (the lists after it answer at once), and the rest
// reaches the client as prompts and resources list_changed when its
// server is up. Clients (Claude Code) ask the three lists with tools/list,
// which a server's tools from its last run answer at once (ToolsListed),
// and count the gateway connected only once all four are answered, so a
// server that takes long to start must not hold them. A variable so
// tests can change it.
var ContentWait = time.Second

// Options configure a Gateway.
type Options struct {
	// Version is the gateway's serverInfo.version.
	Version string
	// Settled, when set, blocks until every server behind the router is
	// ready or has given up, or ctx ends (mcpmanager.Manager.WaitSettled).
	// Without it, tools/list answers with what is ready.
	Settled func(ctx context.Context)
	// ToolsListed, when set, is what tools/list waits for instead of
	// Settled: it may return while servers are still starting, once the
	// router offers the tools of each of them (those it listed when it
	// last ran: mcpmanager.Manager.WaitListed). Skills still wait for
	// Settled (a call of a tool not yet published, for it to be): only
	// tools are known from before. The lists of prompts and resources
	// wait for Settled, ContentWait at most once tools/list is answered.
	ToolsListed func(ctx context.Context)
	// ToolsAnswered, when set, is called once, when the gateway has
	// answered a tools/list for the first time ('serve' starts the servers
	// it held back then: mcpmanager.Manager.HoldRecalled).
	ToolsAnswered func()
	// Skills, when set, are the servers' skills the gateway relays
	// (skills.go).
	Skills *skills.Catalog
	// OnCall, when set, is told of every tool call the gateway routes to
	// a server, naming the app that made it (shared.go): the one count of
	// calls ('serve --client' and the running Switchboard's attached apps
	// both count with it). A call that fails upstream is reported (Failed);
	// a call the gateway refuses itself — arguments that are not an object,
	// a tool not published or not offered, a server hidden from the app by
	// Sees, a tool still withheld — reaches no server and is not.
	OnCall func(Call)
	// Code offers code mode (CodeOnly, CodeBoth; CodeOff: the tools
	// only): list_functions, describe_function and run_script over every
	// tool the gateway would publish (codemode.go). CodeLimits bound each
	// script (zero: codemode's defaults); Decide, when set, decides each
	// call a script makes (nil: every call runs, as a direct call does).
	Code       string
	CodeLimits codemode.Limits
	Decide     DecideFunc
	// Sees, when set, chooses the servers each app sees (the per-app
	// choice of the Connected apps): the app is the one AppOf names, and
	// its lists leave out the tools, prompts, resources, templates and
	// skills of a server Sees refuses, and a call, get or read of one is
	// refused saying so (a tool error for a call; hidden.go). It is asked
	// at each list and call, so a new choice holds from the app's next
	// request; ChoiceChanged tells the app's sessions to list again now.
	// Nil: every app sees every server.
	Sees func(app, server string) bool
}

// Gateway is an MCP server in front of a router. Safe for concurrent use.
type Gateway struct {
	reg           *router.Router
	srv           *server.MCPServer
	settled       func(ctx context.Context)
	toolsListed   func(ctx context.Context) // Options.ToolsListed, or settled
	startBy       time.Time                 // end of the start-up wait
	started       atomic.Bool               // the start-up wait is over
	toolsStarted  atomic.Bool               // tools/list's start-up wait is over
	listsStarted  atomic.Bool               // the prompts' and resources' lists' start-up wait is over
	toolsAnswered chan struct{}             // closed once a tools/list has been answered

	refreshMu sync.Mutex // one Refresh at a time, so an older list never replaces a newer one
	// content is each server's prompts and resources as last listed
	// (listContent; under refreshMu), offered while the server restarts.
	content map[string]serverContent

	origins     origins                       // clients' requests running upstream, for the servers' questions (origins.go)
	skills      *skills.Catalog               // nil: no skills relayed
	skillRoutes skillRoutes                   // the published skills' servers (skills.go)
	relays      relays                        // calls of 2026-07-28 clients waiting for an answer (relay.go)
	onCall      func(Call)                    // Options.OnCall
	sees        func(app, server string) bool // Options.Sees
	prompts     promptRoutes                  // the published prompts' servers, for Sees (hidden.go)
	apps        appSessions                   // the sessions by app, for a new choice's list_changed (appsessions.go)
	sessions    atomic.Int64                  // ServeApp's session ids
	serverInfo  []byte                        // the gateway's mcp.Implementation, for 2026-07-28 results (stampModern)
	code        atomic.Pointer[CodeMode]      // Options.Code, CodeLimits, Decide; SetCode swaps it

	mu        sync.Mutex
	published []byte                 // fingerprint of the published definitions and routes
	listed    map[string]router.Tool // by exposed name, as published
	fns       []codemode.Function    // code mode: the functions scripts call, in the router's order
	byFn      map[string]router.Tool // their tools, by server NUL tool
	errs      []router.ServerError
	// fingerprints of the published prompts, and resources with templates
	publishedPrompts, publishedResources []byte
}

// New builds the gateway server; Refresh or Watch publishes the tools.
func New(reg *router.Router, opts Options) *Gateway {
	g := &Gateway{reg: reg, settled: opts.Settled, skills: opts.Skills, onCall: opts.OnCall, sees: opts.Sees, startBy: time.Now().Add(StartupWait), listed: map[string]router.Tool{},
		toolsAnswered: make(chan struct{})}
	g.toolsListed = opts.ToolsListed
	if g.toolsListed == nil {
		g.toolsListed = opts.Settled
	}
	g.code.Store(&CodeMode{Mode: opts.Code, Limits: opts.CodeLimits, Decide: opts.Decide})
	g.serverInfo, _ = json.Marshal(mcp.Implementation{Name: "switchboard", Version: opts.Version})
	if g.settled == nil {
		g.started.Store(true)
		g.toolsStarted.Store(true)
		g.listsStarted.Store(true)
	}
	hooks := &server.Hooks{}
	hooks.AddBeforeListTools(func(ctx context.Context, _ any, _ *mcp.ListToolsRequest) { g.awaitTools(ctx) })
	var answered sync.Once
	hooks.AddAfterListTools(func(context.Context, any, *mcp.ListToolsRequest, *mcp.ListToolsResult) {
		answered.Do(func() {
			close(g.toolsAnswered)
			if opts.ToolsAnswered != nil {
				opts.ToolsAnswered()
			}
		})
	})
	// The skills extension is declared while a server offers it.
	hooks.AddAfterInitialize(func(_ context.Context, _ any, _ *mcp.InitializeRequest, res *mcp.InitializeResult) {
		skillsOf(g).withSkills(&res.Capabilities)
	})
	hooks.AddAfterDiscover(func(_ context.Context, _ any, _ *mcp.DiscoverRequest, res *mcp.DiscoverResult) {
		skillsOf(g).withSkills(&res.Capabilities)
	})
	// The lists of prompts and resources wait for the start-up, but
	// ContentWait at most once tools/list is answered (a no-op after); a
	// get of a prompt not published yet, and a read, wait for the
	// start-up, as a call of a tool not published yet does.
	hooks.AddBeforeListPrompts(func(ctx context.Context, _ any, _ *mcp.ListPromptsRequest) { awaitLists(ctx, g) })
	hooks.AddBeforeGetPrompt(func(ctx context.Context, _ any, req *mcp.GetPromptRequest) {
		if _, ok := g.prompts.of(req.Params.Name); !ok {
			g.awaitStartup(ctx)
		}
	})
	hooks.AddBeforeListResources(func(ctx context.Context, _ any, _ *mcp.ListResourcesRequest) { awaitLists(ctx, g) })
	hooks.AddBeforeListResourceTemplates(func(ctx context.Context, _ any, _ *mcp.ListResourceTemplatesRequest) { awaitLists(ctx, g) })
	hooks.AddBeforeReadResource(func(ctx context.Context, _ any, _ *mcp.ReadResourceRequest) { g.awaitStartup(ctx) })
	g.hideContent(hooks)   // a server hidden from an app: its prompts and resources too (hidden.go)
	g.trackSessions(hooks) // (appsessions.go)
	hooks.AddBeforeCallTool(func(ctx context.Context, _ any, req *mcp.CallToolRequest) {
		awaitTool(ctx, g, req.Params.Name) // its server may be about to start
	})
	g.srv = server.NewMCPServer("switchboard", opts.Version,
		server.WithToolCapabilities(true),
		server.WithPromptCapabilities(true),
		server.WithResourceCapabilities(false, true),
		server.WithRecovery(),
		server.WithHooks(hooks),
		server.WithToolFilter(g.toolFilter),
		server.WithCompletions(), // relayed to the prompt's or template's server (complete.go)
		server.WithPromptCompletionProvider(completer{g}),
		server.WithResourceCompletionProvider(completer{g}),
		server.WithInstructions("Switchboard gathers the tools of several MCP servers. Each tool is named server__tool: the part before the double underscore is the server it belongs to."),
	)
	return g
}

// Errors returns the servers whose tools could not be listed (or were
// left out in part) at the last Refresh.
func (g *Gateway) Errors() []router.ServerError {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.errs
}

// awaitStartup waits, the first time(s) it is called within StartupWait
// of New, for the servers to settle, then publishes what is ready.
func (g *Gateway) awaitStartup(ctx context.Context) {
	g.await(ctx, g.settled, &g.started)
}

// awaitTool is awaitStartup for a call of a tool not published yet: it
// ends as soon as the tool is published (its server came up while others
// still start), not when every server has settled. A function: its one
// caller is the tools/call hook.
func awaitTool(ctx context.Context, g *Gateway, name string) {
	routed := func() bool { _, _, ok := g.route(name); return ok }
	if routed() || g.started.Load() {
		return
	}
	changes, stop := g.reg.Subscribe()
	defer stop()
	// Ready since the last publication, before this subscription heard of it?
	if g.Refresh(ctx); routed() {
		return
	}
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	settled := make(chan struct{})
	go func() {
		defer close(settled)
		g.awaitStartup(wctx)
	}()
	for {
		select {
		case <-settled:
			return
		case <-changes:
			if g.Refresh(ctx); routed() {
				return
			}
		}
	}
}

// awaitTools is awaitStartup for tools/list: it waits for ToolsListed.
func (g *Gateway) awaitTools(ctx context.Context) {
	if !g.started.Load() {
		g.await(ctx, g.toolsListed, &g.toolsStarted)
	}
}

// awaitLists is awaitStartup for the lists of prompts, resources and
// templates: it waits for the servers to settle, as before StartupWait
// ends, but ContentWait at most once a tools/list has been answered (the
// client has its tools). A function: its callers are the hooks of those
// lists.
func awaitLists(ctx context.Context, g *Gateway) {
	if g.started.Load() || g.listsStarted.Load() {
		return
	}
	wait := func(wctx context.Context) {
		wctx, cancel := context.WithCancel(wctx)
		defer cancel()
		go func() {
			select {
			case <-g.toolsAnswered:
			case <-wctx.Done():
				return
			}
			t := time.NewTimer(ContentWait)
			defer t.Stop()
			select {
			case <-t.C:
				cancel()
			case <-wctx.Done():
			}
		}()
		g.settled(wctx)
	}
	g.await(ctx, wait, &g.listsStarted)
}

func (g *Gateway) await(ctx context.Context, wait func(context.Context), over *atomic.Bool) {
	if over.Load() {
		return
	}
	wctx, cancel := context.WithDeadline(ctx, g.startBy)
	wait(wctx)
	done := ctx.Err() == nil // settled, or the wait ran out: either way it is over
	cancel()
	if done {
		g.Refresh(ctx)
		over.Store(true)
	}
}

// Watch keeps the published tools current until ctx ends: it publishes
// once, then again whenever the router signals a change (a server added,
// removed, restarted or ready, or a server's list_changed). Refresh sends
// clients notifications/tools/list_changed only when the definitions
// differ.
func (g *Gateway) Watch(ctx context.Context) {
	changes, stop := g.reg.Subscribe()
	defer stop()
	g.Refresh(ctx)
	for {
		select {
		case <-ctx.Done():
			return
		case <-changes:
			g.Refresh(ctx)
		}
	}
}

// Refresh republishes the router's tools; connected clients get
// notifications/tools/list_changed when the published definitions change:
// names, descriptions, input and output schemas, annotations, or the
// server and tool a name is routed to.
func (g *Gateway) Refresh(ctx context.Context) {
	g.refreshMu.Lock()
	defer g.refreshMu.Unlock()
	tools, errs := g.reg.Tools(ctx)
	if ctx.Err() != nil {
		return // a listing cut short is no reason to unpublish tools
	}
	errs = append(errs, g.publishContent(ctx)...)
	next := make(map[string]router.Tool, len(tools))
	st := make([]server.ServerTool, 0, len(tools))
	type route struct {
		Server, Tool string
		Def          mcp.Tool
	}
	routes := make([]route, 0, len(tools))
	for _, t := range tools {
		exposed := t.Tool
		exposed.Name = t.Name
		exposed.Meta = exposeToolMeta(t.Server, t.Tool.Meta) // an MCP App's ui:// URI, routed back (apps.go)
		// A tool its server runs as a task (execution.taskSupport) is run
		// as one upstream by the router, and the gateway answers the call
		// when the task ends: the gateway takes no task-augmented calls and
		// declares no tasks capability, so it advertises no task support.
		exposed.Execution = nil
		// mcp-go's SetTools panics on a tool it would refuse: leave it out.
		if err := mcp.ValidateParamHeaderAnnotations(&exposed); err != nil {
			errs = append(errs, router.ServerError{Server: t.Server, Err: fmt.Sprintf("%s: tool %q left out: %v", t.Server, t.Tool.Name, err)})
			continue
		}
		next[t.Name] = t
		st = append(st, server.ServerTool{Tool: exposed, Handler: g.handler()})
		routes = append(routes, route{t.Server, t.Tool.Name, exposed})
	}
	// The code mode is part of what is published: a new one publishes
	// (SetCode) even when the tools are the same.
	mode := g.code.Load().Mode
	fp, err := json.Marshal(struct {
		Routes []route
		Code   string
	}{routes, mode})
	if err != nil {
		fp = nil // never equal to a published fingerprint: publish
	}
	var fns []codemode.Function
	var byFn map[string]router.Tool
	if mode != CodeOff {
		// Scripts call what would be published; the client sees code
		// mode's three tools instead of (CodeOnly) or besides them.
		var published []router.Tool
		for _, t := range tools {
			if _, ok := next[t.Name]; ok {
				published = append(published, t)
			}
		}
		fns, byFn = codeFunctions(published)
		codeTools := scripts{g}.tools(fns)
		if mode == CodeOnly {
			st, next = nil, map[string]router.Tool{}
		}
		st = append(st, codeTools...)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.errs = errs
	g.fns, g.byFn = fns, byFn
	if fp != nil && bytes.Equal(fp, g.published) {
		return
	}
	g.published, g.listed = fp, next
	g.srv.SetTools(st...)
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

// callOptions passes the caller's _meta on, but for the keys that
// describe the caller's own session with us (wire.SessionMeta: the
// upstream session has its own), its progress token included (the server
// sees the client's, unless another call on it holds the same: see
// router.CallOptions), and relays the server's progress to notify under
// the caller's own progress token.
func callOptions(meta *mcp.Meta, notify func(params map[string]any)) router.CallOptions {
	if meta == nil {
		return router.CallOptions{}
	}
	fwd := &mcp.Meta{ProgressToken: meta.ProgressToken}
	for k, v := range meta.AdditionalFields {
		if !slices.Contains(wire.SessionMeta, k) {
			if fwd.AdditionalFields == nil {
				fwd.AdditionalFields = map[string]any{}
			}
			fwd.AdditionalFields[k] = v
		}
	}
	opts := router.CallOptions{Meta: fwd}
	if token := meta.ProgressToken; token != nil && notify != nil {
		opts.OnProgress = func(p router.Progress) {
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
	t, ok := g.listedTool(name)
	return t.Server, t.Tool.Name, ok
}

// listedTool is the tool published under an exposed name at the last
// Refresh.
func (g *Gateway) listedTool(name string) (router.Tool, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	t, ok := g.listed[name]
	return t, ok
}
