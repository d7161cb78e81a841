// Package router is the one tool registry: it lists the tools of every
// connected server under exposed names unique across the registry
// (server__tool, see Namespace and Tools), caches the lists, and routes
// calls with timeouts, cancellation and per-server metrics. A listing with
// some servers failing returns the rest plus per-server errors; a list that
// failed (an error, or no answer within ListTimeout) is asked again at the
// next listing, and Subscribe's channel says when to list again (after
// RelistWait, doubling to RelistMaxWait while it fails), while a list that
// only went stale (its ttlMs) is kept until one comes (relist.go).
//
// Calls name the server and the server's own tool name, as a listed Tool
// carries them; an exposed name that comes from outside (a command line, a
// client of the gateway) is looked up once with Lookup.
//
// See Example for listing, Call, Lookup and CallRaw (the relay's call:
// JSON in, JSON out), and ExampleRouter_Subscribe for the signal that
// the tool lists may have changed.
//
// Every request it runs on a server is counted for its caller (the party
// its context names, WithParty): a server's question (sampling,
// elicitation) is that party's, or nobody's when it cannot be told (Tie,
// Tying; parties.go).
//
// With Options.Redact, secrets are masked in everything a server says
// before the router hands it out (see Redactor).
//
// A Router is safe for concurrent use.
package router

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/plain"
	"github.com/switchboard-app/switchboard/mcpmanager/wire"
	"golang.org/x/sync/singleflight"
)

// Defaults and limits; variables so tests can shorten them.
var (
	// DefaultCallTimeout is how long a call may go without a result or a
	// progress report (each report starts it again, up to the task limit).
	DefaultCallTimeout = 60 * time.Second
	ListTimeout        = 30 * time.Second
	// ProgressGrace is how long progress of a finished call is still relayed.
	ProgressGrace = 2 * time.Second
	// MaxListPages bounds one paginated listing: a server whose nextCursor
	// never ends (empty pages forever) would otherwise be asked thousands
	// of times a second until ListTimeout.
	MaxListPages = 100
)

// Sentinel errors.
var (
	// ErrUnknownTool: no server or tool has that name.
	ErrUnknownTool = errors.New("unknown tool")
	// ErrCallTimeout: the server did not answer within its call timeout.
	ErrCallTimeout = errors.New("tool call timed out")
	// ErrPagination: a server's list never ends (a cursor came back, or
	// more than MaxListPages pages).
	ErrPagination = errors.New("the server's list does not end")
	// ErrUnsupported: the server's session cannot do what was asked.
	ErrUnsupported = errors.New("the server's connection does not support this")
	// ErrArguments: a call's arguments are not a JSON object.
	ErrArguments = errors.New("arguments must be a JSON object")
)

// Client is the part of an MCP session the registry uses. *client.Client of
// mcp-go satisfies it; it must be safe for concurrent use.
type Client interface {
	ListTools(ctx context.Context, req mcp.ListToolsRequest) (*mcp.ListToolsResult, error)
	ListResources(ctx context.Context, req mcp.ListResourcesRequest) (*mcp.ListResourcesResult, error)
	ListPrompts(ctx context.Context, req mcp.ListPromptsRequest) (*mcp.ListPromptsResult, error)
	CallTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error)
}

// Source is one server. Client returns the current session or an error
// saying why there is none; a new session (after a restart) invalidates the
// cached tool list.
type Source interface {
	Name() string
	Client() (Client, error)
	// CallTimeout is the server's per-call limit; 0 means DefaultCallTimeout.
	CallTimeout() time.Duration
}

// ToolFilter is a Source that offers only some of its server's tools (its
// entry's includeTools and excludeTools): a tool it does not offer is left
// out of every listing and a call to it is refused, as if the server did
// not have it. Offers must be safe for concurrent use, and its answers
// must not change while the Source is added.
type ToolFilter interface {
	Offers(tool string) bool
}

// Recaller is a Source that knows its server's tools before the server is
// up: those it listed the last time it ran with the same entry. While the
// server starts for the first time, listings offer them and a call of one
// waits for the server, so a client that lists once, soon after it starts
// 'switchboard serve' (Codex gives its servers a second), is not left
// without a slow server's tools. Its methods must be safe for concurrent
// use.
type Recaller interface {
	// Recall is the tools known from before while the server is starting
	// for the first time, and nil otherwise: ready, failed, stopped, or
	// nothing known. The same slice each time (a listing is kept by it).
	Recall() []mcp.Tool
	// AwaitStart returns once the server's first start has ended, ready
	// or not, or ctx has.
	AwaitStart(ctx context.Context)
	// Remember is given each listing of the server's tools the router
	// fetches, as the server sent it. It must not modify or keep a
	// reference into tools' elements' maps beyond the call.
	Remember(tools []mcp.Tool)
}

// Tool is one exposed tool. Server and Tool.Name say where a call goes;
// Name is only what a model or client sees.
type Tool struct {
	Name   string   `json:"name"`   // exposed name: server__tool, unique in the registry
	Server string   `json:"server"` // configured server name
	Tool   mcp.Tool `json:"tool"`   // as the server lists it
}

// Schema is the tool's input schema as JSON: as the server sent it when
// it was kept raw, else the parsed one encoded again.
func (t Tool) Schema() (json.RawMessage, error) {
	if len(t.Tool.RawInputSchema) > 0 {
		return t.Tool.RawInputSchema, nil
	}
	return json.Marshal(t.Tool.InputSchema)
}

// ServerError is a problem with a server's tools: they could not be
// listed, or the list was wrong in part (a tool name given twice) and that
// part was left out, or the Gate withheld one tool (then Tool is its
// exposed name).
type ServerError struct {
	Server string `json:"server"`
	Tool   string `json:"tool,omitempty"`
	Err    string `json:"error"`
}

// Gate screens what servers list before anyone is offered it (the pins of
// trusted tool definitions). Screen gets one server's tools and returns,
// for each, nil to offer it or the reason it is withheld; a withheld tool
// is left out of Tools (reported in its errs), Lookup returns the reason,
// and a call to it fails with it. It must be safe for concurrent use.
type Gate interface {
	Screen(server string, tools []mcp.Tool) []error
}

// VersionedGate is a Gate whose verdicts change only when Version does (a
// trust, a rejection, its file rewritten by another process). The registry
// then keeps the verdicts on a cached listing instead of asking again at
// every Tools and call: screening hashes every definition, which took
// 13 ms of a chat step with 320 tools (BENCHMARKS.md). Version must be
// cheap and safe for concurrent use. It may lag a change made by another
// process for a moment (a file watch's event on its way): a call the kept
// verdict would refuse is screened again before it is refused.
type VersionedGate interface {
	Gate
	Version() uint64
}

// Metrics counts one server's calls.
type Metrics struct {
	Calls    int64         `json:"calls"`
	Errors   int64         `json:"errors"`
	P50      time.Duration `json:"p50"`
	P95      time.Duration `json:"p95"`
	LastUsed time.Time     `json:"lastUsed"`
}

// Progress is one notifications/progress update of a call.
type Progress struct {
	Progress float64
	Total    float64 // 0 when unknown
	Message  string
}

// CallOptions tune one call.
type CallOptions struct {
	// Meta is passed to the server. Its progressToken is the one the
	// server sees, unless another call in flight on the server holds the
	// same; without one the registry sends its own (see callMeta). Either
	// way the server's progress reaches OnProgress and gives the call its
	// timeout again.
	Meta *mcp.Meta
	// OnProgress receives the server's progress notifications for this call.
	// It runs on the session's reader goroutine and must not block.
	OnProgress func(Progress)
	// OnTask receives the state of a call that runs as a task (see
	// TaskPolicy), at its creation and each change, its status message
	// masked (Options.Redact). It must not block.
	OnTask func(TaskUpdate)
}

// Options configure a Router.
type Options struct {
	// Gate, when set, screens every listing and call.
	Gate Gate
	// Redact, when set, masks secrets in everything the servers send
	// (see Redactor); the Gate screens the masked listing.
	Redact Redactor
	// OwnData reports the servers whose call results are the user's own
	// data, which Redact leaves as they are (their errors and listings are
	// still masked): the built-ins, whose results are the user's files and
	// stores. A model that read a file with a masked key in it and wrote
	// the file back would write the mask over the user's key.
	OwnData func(server string) bool
}

// Router routes tool calls to servers.
type Router struct {
	gate     Gate
	redact   Redactor // nil: nothing is masked
	ownData  func(server string) bool
	mu       sync.Mutex
	sources  map[string]Source
	cache    map[string]cached
	gen      map[string]uint64 // per server, counts invalidations: a list fetched across one is not cached
	metrics  map[string]*metrics
	subs     map[chan struct{}]struct{} // Subscribe's channels
	progress sync.Map                   // progressKey → *func(Progress)
	tasks    atomic.Pointer[TaskPolicy] // nil: DefaultTaskPolicy
	tokens   atomic.Int64
	rawIDs   atomic.Int64 // ids of relayed calls (CallRaw)
	urls     urlWaits     // URL elicitations calls wait on (-32042)
	// listing joins concurrent cache misses of one list (a cold cache
	// under 1,000 calls in flight asked each server 1,000 times).
	listing singleflight.Group
	screens map[string]screenMemo // by server: the gate's verdicts on its cached listing
	// ran is each server's last listing from a session, kept across its
	// restarts (see restartedTools); a new Source forgets it.
	ran     map[string][]mcp.Tool
	deduped map[string]dedupeMemo // by server: its cached listing, each name once
	// relists are the lists that failed, by relistKey, each with its
	// signal to list again (relist.go); nil until one fails.
	relists map[string]*relist
	// merged is the last merge of every server's listing (listing.go),
	// and mergeVersion counts merges: a merge's version is its own.
	merged       *mergedListing
	mergeVersion uint64
	// parties are the requests running on each server, by whom they are
	// for: whose a server's question is (parties.go).
	parties parties
}

// cached holds one session's lists; a nil slice means "not listed yet".
type cached struct {
	client    Client
	tools     []mcp.Tool
	resources []mcp.Resource
	prompts   []mcp.Prompt
	// until is when each list goes stale (zero: when the server says it
	// changed, or the session ends), from the list's ttlMs (2026-07-28).
	toolsUntil, resourcesUntil, promptsUntil time.Time
}

// ZeroTTLRefresh is how long a list whose server says ttlMs 0 ("stale at
// once") and announces no changes of it is kept: long enough that the steps
// of one chat turn do not each list the server's tools again. A variable so
// tests can shorten it.
var ZeroTTLRefresh = 5 * time.Second

// staleAt is when a list fetched now goes stale: ttlMs from now; for ttlMs
// 0, at the server's next change notice when it announces them
// (listChanged: the notice is what counts), else after ZeroTTLRefresh; for
// a list without ttlMs (servers before 2026-07-28), never by itself.
func staleAt(ttlMs *int64, listChanged bool) time.Time {
	switch {
	case ttlMs == nil || *ttlMs < 0:
		return time.Time{}
	case *ttlMs > 0:
		return now().Add(time.Duration(*ttlMs) * time.Millisecond)
	case listChanged:
		return time.Time{}
	}
	return now().Add(ZeroTTLRefresh)
}

// fresh reports whether a cached list is still good.
func fresh[T any](list []T, until time.Time) bool {
	return list != nil && (until.IsZero() || now().Before(until))
}

// now is the clock of the lists' ttlMs; tests move it.
var now = time.Now

// New returns an empty router.
func New(opts Options) *Router {
	return &Router{gate: opts.Gate, redact: opts.Redact, ownData: opts.OwnData, sources: map[string]Source{}, cache: map[string]cached{}, gen: map[string]uint64{}, screens: map[string]screenMemo{}, ran: map[string][]mcp.Tool{}, deduped: map[string]dedupeMemo{}, metrics: map[string]*metrics{}, subs: map[chan struct{}]struct{}{}}
}

// Add registers (or replaces) a source. Subscribers are told.
func (r *Router) Add(s Source) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sources[s.Name()] = s
	delete(r.cache, s.Name())
	delete(r.ran, s.Name())
	delete(r.screens, s.Name())
	delete(r.deduped, s.Name())
	r.gen[s.Name()]++
	r.changedLocked()
}

// Remove forgets a source. Subscribers are told.
func (r *Router) Remove(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.sources, name)
	delete(r.cache, name)
	delete(r.ran, name)
	delete(r.screens, name)
	delete(r.deduped, name)
	r.gen[name]++
	r.changedLocked()
}

// Invalidate drops every cached list of server and tells subscribers. The
// owner of the sessions calls it when server's session changes (it became
// ready, restarted or stopped), so that listeners such as the gateway
// list again.
func (r *Router) Invalidate(server string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.cache, server)
	delete(r.screens, server)
	delete(r.deduped, server)
	r.gen[server]++
	r.changedLocked()
}

// invalidate drops one cached list of server (on a */list_changed notification).
func (r *Router) invalidate(server string, slot func(*cached)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c, ok := r.cache[server]; ok {
		slot(&c)
		r.cache[server] = c
	}
	r.gen[server]++
	r.changedLocked()
}

// Subscribe returns a channel that receives a value whenever the tool
// lists may have changed: a server was added, removed or invalidated, or
// said notifications/tools/list_changed (or resources, prompts), or a list
// failed a while ago and may come now (relistLater). Signals coalesce:
// the channel holds at most one, so a slow reader lists once for many
// changes, and a sender never blocks. Listing again and comparing is
// the reader's job: a signal does not promise a difference. stop ends the
// subscription; the channel is not closed.
func (r *Router) Subscribe() (changes <-chan struct{}, stop func()) {
	ch := make(chan struct{}, 1)
	r.mu.Lock()
	r.subs[ch] = struct{}{}
	r.mu.Unlock()
	return ch, func() {
		r.mu.Lock()
		delete(r.subs, ch)
		r.mu.Unlock()
	}
}

// changedLocked signals every subscriber; r.mu is held.
func (r *Router) changedLocked() {
	for ch := range r.subs {
		select {
		case ch <- struct{}{}:
		default: // one is pending already
		}
	}
}

// Servers returns the registered source names, sorted.
func (r *Router) Servers() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	names := make([]string, 0, len(r.sources))
	for n := range r.sources {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// session returns a server's source and its current client.
func (r *Router) session(server string) (Source, Client, error) {
	r.mu.Lock()
	src, ok := r.sources[server]
	r.mu.Unlock()
	if !ok {
		return nil, nil, fmt.Errorf("%w: no server named %q", ErrUnknownTool, server)
	}
	cl, err := src.Client()
	if err != nil {
		return nil, nil, err
	}
	return src, cl, nil
}

// maxListed bounds the items of a paginated listing, against servers that
// never stop.
const maxListed = 10000

// listed returns server's cached entry for its current session, filling the
// missing list with fetch (which pages through the server's cursor).
func listed[T any](ctx context.Context, r *Router, server string, slot func(*cached) (*[]T, *time.Time),
	changes func(mcp.ServerCapabilities) bool,
	fetch func(ctx context.Context, cl Client, cursor mcp.Cursor) ([]T, mcp.PaginatedResult, error),
	fetched func(src Source, items []T)) ([]T, error) {
	src, cl, err := r.session(server)
	if err != nil {
		return nil, redactErr(r.redact, err) // a server's exit may quote what it was started with
	}
	r.mu.Lock()
	c := r.cache[server]
	if c.client != cl {
		c = cached{client: cl}
	}
	if got, until := slot(&c); fresh(*got, *until) {
		r.mu.Unlock()
		return *got, nil
	}
	gen := r.gen[server]
	r.mu.Unlock()
	// One fetch per list, session and generation, whoever asks: callers
	// wait for it under their own context; it runs under none of theirs
	// (one caller giving up must not fail the others), bounded by
	// ListTimeout, and caches before it ends; a caller that missed the
	// cache just before that looks again inside (never a second fetch).
	key := fmt.Sprintf("%s\x00%s\x00%d\x00%p", server, reflect.TypeFor[T](), gen, cl)
	ch := r.listing.DoChan(key, func() (any, error) {
		r.mu.Lock()
		if c := r.cache[server]; c.client == cl {
			if got, until := slot(&c); fresh(*got, *until) {
				r.mu.Unlock()
				return *got, nil // the fetch before ended between our look and this one
			}
		}
		r.mu.Unlock()
		items, ttl, err := fetchAll(context.WithoutCancel(ctx), server, cl, fetch)
		if err != nil {
			return listFailed(r, server, cl, slot, err) // relist.go
		}
		relisted(r, relistKey[T](server))
		items = redactList(r.redact, items) // before it is cached, kept (fetched) or screened
		if fetched != nil {
			fetched(src, items)
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.gen[server] != gen {
			return items, nil // the list changed while it was fetched: the next listing asks again
		}
		c := r.cache[server]
		if c.client != cl {
			c = cached{client: cl}
		}
		list, until := slot(&c)
		*list = items
		var caps mcp.ServerCapabilities
		if sc, ok := cl.(interface{ GetServerCapabilities() mcp.ServerCapabilities }); ok {
			caps = sc.GetServerCapabilities()
		}
		*until = staleAt(ttl, changes(caps))
		r.cache[server] = c
		return items, nil
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			return nil, res.Err
		}
		return res.Val.([]T), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// fetchAll pages through one list of server's (see listed).
// The list's ttlMs is the smallest of its pages'.
func fetchAll[T any](ctx context.Context, server string, cl Client,
	fetch func(ctx context.Context, cl Client, cursor mcp.Cursor) ([]T, mcp.PaginatedResult, error)) ([]T, *int64, error) {
	ctx, cancel := context.WithTimeout(ctx, ListTimeout)
	defer cancel()
	items := []T{}
	var cursor mcp.Cursor
	var ttl *int64
	seen := map[mcp.Cursor]bool{}
	for pages := 1; ; pages++ {
		page, pr, err := fetch(ctx, cl, cursor)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", server, err)
		}
		if pr.TTLMs != nil && (ttl == nil || *pr.TTLMs < *ttl) {
			ttl = pr.TTLMs
		}
		next := pr.NextCursor
		items = append(items, page...)
		if next == "" || len(items) > maxListed {
			break
		}
		switch {
		case seen[next]:
			return nil, nil, fmt.Errorf("%s: %w: it returned the cursor %q a second time; stopped after %d pages (the server has a pagination bug: tell its author)", server, ErrPagination, plain.Clip(string(next), 40), pages)
		case pages >= MaxListPages:
			return nil, nil, fmt.Errorf("%s: %w: still a nextCursor after %d pages (%d items); stopped listing (the server has a pagination bug: tell its author)", server, ErrPagination, pages, len(items))
		}
		seen[next] = true
		cursor = next
	}
	return items, ttl, nil
}

// truncate cuts s to n bytes for an error message.

// ServerTools lists one server's tools (cached until the session changes or
// the server says tools/list_changed). A tool name the server lists twice
// is kept once, the first; Tools reports it.
func (r *Router) ServerTools(ctx context.Context, server string) ([]mcp.Tool, error) {
	tools, _, err := r.serverTools(ctx, server)
	return tools, err
}

// ListedTools is the server's tools as it lists them, each name once,
// with those its entry leaves out (ToolFilter) still in: what a person
// choosing which to leave out chooses from. A function, not a method,
// as listingOf: the Router has methods enough.
func ListedTools(ctx context.Context, r *Router, server string) ([]mcp.Tool, error) {
	listed, err := r.listTools(ctx, server)
	if err != nil {
		return nil, err
	}
	tools, _ := dedupe(listed)
	return tools, nil
}

// serverTools is ServerTools plus the names the server listed more than
// once. Every call asks for it (the gate's verdict, the task policy): a
// cached listing is deduplicated once, not at each.
func (r *Router) serverTools(ctx context.Context, server string) ([]mcp.Tool, []string, error) {
	listed, err := r.listTools(ctx, server)
	if err != nil {
		return nil, nil, err
	}
	r.mu.Lock()
	m, ok := r.deduped[server]
	filter, _ := r.sources[server].(ToolFilter)
	r.mu.Unlock()
	if ok && same(m.of, listed) {
		return m.tools, m.dups, nil
	}
	tools, dups := dedupe(listed)
	if filter != nil {
		tools = offered(tools, filter)
	}
	r.mu.Lock()
	r.deduped[server] = dedupeMemo{of: listed, tools: tools, dups: dups}
	r.mu.Unlock()
	return tools, dups, nil
}

// offered is tools without those filter does not offer; tools itself is
// not modified (it may be the cached listing).
func offered(tools []mcp.Tool, filter ToolFilter) []mcp.Tool {
	i := slices.IndexFunc(tools, func(t mcp.Tool) bool { return !filter.Offers(t.Name) })
	if i < 0 {
		return tools
	}
	out := slices.Clone(tools[:i])
	for _, t := range tools[i+1:] {
		if filter.Offers(t.Name) {
			out = append(out, t)
		}
	}
	return out
}

// dedupeMemo is dedupe's answer for one cached listing.
type dedupeMemo struct {
	of    []mcp.Tool // the listing (held: its address identifies it, and cannot be reused while held)
	tools []mcp.Tool
	dups  []string
}

// dedupe keeps the first tool of each name, and returns the names seen
// more than once. tools is not modified.
func dedupe(tools []mcp.Tool) ([]mcp.Tool, []string) {
	seen := make(map[string]bool, len(tools))
	var dups []string
	for _, t := range tools {
		if seen[t.Name] && !slices.Contains(dups, t.Name) {
			dups = append(dups, t.Name)
		}
		seen[t.Name] = true
	}
	if dups == nil {
		return tools, nil
	}
	out := make([]mcp.Tool, 0, len(seen))
	for _, t := range tools {
		if seen[t.Name] {
			out = append(out, t)
			delete(seen, t.Name)
		}
	}
	return out, dups
}

// listTools is the server's tools as it lists them (cached), or, while it
// starts for the first time, those it listed when it last ran (Recaller),
// or, while it restarts, those its last session listed (restartedTools).
func (r *Router) listTools(ctx context.Context, server string) ([]mcp.Tool, error) {
	tools, err := fetchTools(ctx, r, server)
	if err == nil {
		r.mu.Lock()
		if _, ok := r.sources[server]; ok {
			r.ran[server] = tools // for its restarts (restartedTools)
		}
		r.mu.Unlock()
		return tools, nil
	}
	if rc, ok := sourceOf(r, server).(Recaller); ok {
		if known := rc.Recall(); known != nil {
			return objectSchemas(known), nil
		}
	}
	if known := restartedTools(r, server, err); known != nil {
		return known, nil
	}
	return nil, err
}

// fetchTools is the server's own listing (cached). A function, not a
// method, as listingOf.
func fetchTools(ctx context.Context, r *Router, server string) ([]mcp.Tool, error) {
	return listed(ctx, r, server, func(c *cached) (*[]mcp.Tool, *time.Time) { return &c.tools, &c.toolsUntil },
		func(caps mcp.ServerCapabilities) bool { return caps.Tools != nil && caps.Tools.ListChanged },
		func(ctx context.Context, cl Client, cursor mcp.Cursor) ([]mcp.Tool, mcp.PaginatedResult, error) {
			req := mcp.ListToolsRequest{}
			req.Params.Cursor = cursor
			res, err := cl.ListTools(ctx, req)
			if err != nil {
				return nil, mcp.PaginatedResult{}, fmt.Errorf("list tools: %w", err)
			}
			encodeSchemas(res.Tools)
			return res.Tools, res.PaginatedResult, nil
		},
		func(src Source, tools []mcp.Tool) {
			if rc, ok := src.(Recaller); ok {
				rc.Remember(tools)
			}
		})
}

// encodeSchemas encodes each tool's input schema once, when it is listed
// (typed "object" when the server left "type" out), and keeps only the
// encoding (mcp.Tool marshals RawInputSchema as is):
// every model step offers every active tool's schema, and encoding 300 of
// them again per step took most of the step's time (BENCHMARKS.md).
func encodeSchemas(tools []mcp.Tool) {
	for i := range tools {
		t := &tools[i]
		if t.RawInputSchema != nil {
			continue
		}
		if t.InputSchema.Type == "" {
			// MCP requires an object schema, and clients refuse a whole
			// listing for one tool without "type" (Claude Code: every
			// server's tools behind serve). Servers built on zod 4 with an
			// older SDK send {"$schema": …} alone: a tool taking any object.
			t.InputSchema.Type = "object"
		}
		if raw, err := json.Marshal(t.InputSchema); err == nil {
			t.RawInputSchema, t.InputSchema = raw, mcp.ToolInputSchema{}
		}
	}
}

// objectSchemas is tools with each input schema kept raw typed as MCP
// requires (wire.ObjectSchema): listings remembered from before the
// supervisor repaired them.
func objectSchemas(tools []mcp.Tool) []mcp.Tool {
	var out []mcp.Tool
	for i, t := range tools {
		raw, changed := wire.ObjectSchema(t.RawInputSchema)
		if t.RawInputSchema == nil || !changed {
			continue
		}
		if out == nil {
			out = slices.Clone(tools) // the source's own slice stays as it is
		}
		out[i].RawInputSchema = raw
	}
	if out == nil {
		return tools
	}
	return out
}

// ServerResources lists one server's resources (cached); a server without
// the resources capability has none.
func (r *Router) ServerResources(ctx context.Context, server string) ([]mcp.Resource, error) {
	return listed(ctx, r, server, func(c *cached) (*[]mcp.Resource, *time.Time) { return &c.resources, &c.resourcesUntil },
		func(caps mcp.ServerCapabilities) bool { return caps.Resources != nil && caps.Resources.ListChanged },
		func(ctx context.Context, cl Client, cursor mcp.Cursor) ([]mcp.Resource, mcp.PaginatedResult, error) {
			req := mcp.ListResourcesRequest{}
			req.Params.Cursor = cursor
			res, err := cl.ListResources(ctx, req)
			if isMethodNotFound(err) {
				return nil, mcp.PaginatedResult{}, nil
			}
			if err != nil {
				return nil, mcp.PaginatedResult{}, fmt.Errorf("list resources: %w", err)
			}
			return res.Resources, res.PaginatedResult, nil
		}, nil)
}

// ServerPrompts lists one server's prompts (cached); a server without the
// prompts capability has none.
func (r *Router) ServerPrompts(ctx context.Context, server string) ([]mcp.Prompt, error) {
	return listed(ctx, r, server, func(c *cached) (*[]mcp.Prompt, *time.Time) { return &c.prompts, &c.promptsUntil },
		func(caps mcp.ServerCapabilities) bool { return caps.Prompts != nil && caps.Prompts.ListChanged },
		func(ctx context.Context, cl Client, cursor mcp.Cursor) ([]mcp.Prompt, mcp.PaginatedResult, error) {
			req := mcp.ListPromptsRequest{}
			req.Params.Cursor = cursor
			res, err := cl.ListPrompts(ctx, req)
			if isMethodNotFound(err) {
				return nil, mcp.PaginatedResult{}, nil
			}
			if err != nil {
				return nil, mcp.PaginatedResult{}, fmt.Errorf("list prompts: %w", err)
			}
			return res.Prompts, res.PaginatedResult, nil
		}, nil)
}

func isMethodNotFound(err error) bool {
	return err != nil && (errors.Is(err, mcp.ErrMethodNotFound) || strings.Contains(err.Error(), "Method not found") || strings.Contains(err.Error(), "method not found"))
}

// Tools lists every server's tools in parallel, under exposed names unique
// across the registry (see uniqueNames), sorted by them. Servers that fail
// are reported in errs, as are tool names a server lists twice (the first
// is kept); the others' tools are returned.
func (r *Router) Tools(ctx context.Context) (tools []Tool, errs []ServerError) {
	tools, errs, _ = r.SharedTools(ctx)
	return slices.Clone(tools), errs // the caller's own: it may sort or change it
}

// SharedTools is Tools without the copy, for a caller that lists at every
// step (the chat engine): while no server's cached list, session or the
// gate's verdicts change, it returns the same slice and the same version,
// so what the caller derives from a listing can be kept by its version.
// The slice is shared: read it, never modify it. A version is never
// given to two different listings; a listing with a failed server gets a
// new one each time.
func (r *Router) SharedTools(ctx context.Context) (tools []Tool, errs []ServerError, version uint64) {
	tools, failed, version := listingOf(ctx, r)
	for _, f := range failed {
		errs = append(errs, ServerError{Server: f.server, Tool: f.tool, Err: redactText(r.redact, f.err.Error())})
	}
	return tools, errs, version
}

// serverFailure is one entry of Tools' errs, with the error itself.
type serverFailure struct {
	server string
	tool   string // exposed name of a tool the gate withheld
	def    Tool   // that tool
	err    error
	listed bool // the list came, with a fault (a duplicate name)
}

// listingOf lists every server (each from its cache while fresh) and
// merges the lists, or returns the merge of the last listing when every
// server's list and verdicts are the very ones it was made of.
// It is shared (see SharedTools). A function, not a method: the Router
// has methods enough.
func listingOf(ctx context.Context, r *Router) (tools []Tool, failed []serverFailure, version uint64) {
	servers := r.Servers()
	results := make([]serverListing, len(servers))
	var wg sync.WaitGroup
	for i, s := range servers {
		wg.Go(func() {
			t, dups, err := r.serverTools(ctx, s)
			results[i] = serverListing{tools: t, dups: dups, err: err}
			if err == nil {
				results[i].verdicts = r.screened(s, t)
			}
		})
	}
	wg.Wait()
	r.mu.Lock()
	m := r.merged
	r.mu.Unlock()
	if m != nil && m.of(servers, results) {
		return m.tools, m.failed, m.version
	}
	tools, failed = merge(servers, results)
	m = &mergedListing{servers: servers, lists: results, tools: slices.Clip(tools), failed: failed}
	r.mu.Lock()
	r.mergeVersion++
	m.version = r.mergeVersion
	if m.cacheable() {
		r.merged = m
	}
	r.mu.Unlock()
	return m.tools, m.failed, m.version
}

// merge puts the servers' listings together under unique exposed names,
// sorted by them, leaving out what the gate withheld.
func merge(servers []string, results []serverListing) (tools []Tool, failed []serverFailure) {
	n := 0
	for _, res := range results {
		n += len(res.tools)
	}
	// A Tool is large: grown by appending, 320 of them were copied over
	// and over at every listing (a chat lists them at every turn).
	tools = make([]Tool, 0, n)
	withheld := make([]error, 0, n) // beside tools
	for i, res := range results {
		s := servers[i]
		if res.err != nil {
			failed = append(failed, serverFailure{server: s, err: res.err})
			continue
		}
		for _, d := range res.dups {
			failed = append(failed, serverFailure{server: s, listed: true, err: fmt.Errorf(
				"%s: lists the tool %q more than once; only the first is used (the server has a bug: tell its author)", s, d)})
		}
		for k, t := range res.tools {
			tools = append(tools, Tool{Server: s, Tool: t})
			if res.verdicts != nil {
				withheld = append(withheld, res.verdicts[k])
			} else {
				withheld = append(withheld, nil)
			}
		}
	}
	uniqueNames(tools) // withheld tools included: the others' names do not depend on a verdict
	var kept []Tool    // nil when no server lists a tool, as before
	if len(tools) > 0 {
		kept = make([]Tool, 0, len(tools))
	}
	for i, t := range tools {
		if err := withheld[i]; err != nil {
			failed = append(failed, serverFailure{server: t.Server, tool: t.Name, def: t, err: err, listed: true})
			continue
		}
		kept = append(kept, t)
	}
	tools = kept
	slices.SortFunc(tools, func(a, b Tool) int { return strings.Compare(a.Name, b.Name) })
	return tools, failed
}

// Lookup finds the tool an exposed name stands for, as Tools names it. It
// is for names that come from outside (a command line, a gateway client);
// code that has a Tool calls with its Server and Tool.Name instead.
func (r *Router) Lookup(ctx context.Context, name string) (Tool, error) {
	tools, failed, _ := listingOf(ctx, r)
	for _, t := range tools {
		if t.Name == name {
			return t, nil
		}
	}
	for _, f := range failed {
		if f.tool == name {
			// Withheld on a kept verdict: asked again, as a call is
			// (screenCall), since the gate's version may lag the trust
			// another process gave a moment ago.
			if r.screenCall(ctx, sourceOf(r, f.server), f.server, f.def.Tool.Name) == nil {
				return f.def, nil
			}
			return Tool{}, redactErr(r.redact, f.err) // withheld: say why
		}
	}
	for _, f := range failed {
		// "unknown tool" would hide the real reason: a server the name
		// may belong to is not running.
		if !f.listed && strings.HasPrefix(name, Prefix(f.server)) {
			return Tool{}, redactErr(r.redact, f.err)
		}
	}
	return Tool{}, fmt.Errorf("%w %q: run 'switchboard tools list' to see the available names", ErrUnknownTool, name)
}

// Call runs tool (the server's own name for it) on server. It gives up
// after the server's call timeout; cancelling ctx cancels the call on the
// server too (notifications/cancelled). opts.Meta is passed through, and
// opts.OnProgress gets the server's progress. A call failing with -32042
// (URL elicitation required) is retried after the user visited the URLs
// when SetURLElicitor set someone to ask. A result whose structuredContent
// does not match the tool's outputSchema comes back as an error result
// saying so (see CheckOutput).
func (r *Router) Call(ctx context.Context, server, tool string, args map[string]any, opts CallOptions) (*mcp.CallToolResult, error) {
	ctx, done := begin(ctx, r, server, true) // its server's questions are its caller's (parties.go)
	defer done()
	opts.OnTask = redactTasks(r.redact, opts.OnTask)
	if tc, ok := r.asTask(ctx, server, tool); ok {
		res, err := r.callTask(ctx, tc, server, tool, args, opts)
		if err == nil {
			outputs{r.ServerTools}.check(ctx, server, tool, res)
		}
		return redactResult(resultRedactor(r, server), res), redactErr(r.redact, err)
	}
	var res *mcp.CallToolResult
	err := r.retryURL(ctx, server, func() error {
		return r.call(ctx, server, tool, opts, func(ctx context.Context, cl Client, meta *mcp.Meta) (bool, error) {
			var err error
			res, err = typedCall(ctx, r, cl, tool, args, meta)
			return res != nil && res.IsError, err
		})
	})
	if err == nil {
		outputs{r.ServerTools}.check(ctx, server, tool, res)
	}
	return redactResult(resultRedactor(r, server), res), redactErr(r.redact, err)
}

// RawClient is a Client that can carry a tools/call without decoding it:
// the registry sends on its transport. *client.Client satisfies it.
type RawClient interface {
	GetTransport() transport.Interface
	ProtocolVersion() string
}

// CallRaw is Call for a caller that relays the result as it is (the
// gateway): args is the JSON of the arguments object, and the result is the
// server's JSON, undecoded. Decoding a result into mcp-go's types and
// encoding it again was most of what relaying a large result cost.
//
// It does what Call does around the call: arguments that are not a JSON
// object (or absent) are refused before any server sees them, -32042 is
// retried after the URL elicitations, and a result whose structuredContent
// does not match the tool's outputSchema becomes an error result. Only a
// tool that declares an outputSchema has its result decoded for that.
//
// A session of revision 2026-07-28 or later is relayed raw when its
// transport is a ModernSender that knows the session's request _meta (the
// supervisor's stdio transport, once mcp-go has sent a request): there
// mcp-go's CallTool would encode and decode the arguments three times
// over for that _meta. Other modern sessions (Streamable HTTP, whose
// requests also carry headers mcp-go derives from them), and clients that
// are not RawClients, go through CallTool and their result is encoded
// again.
func (r *Router) CallRaw(ctx context.Context, server, tool string, args json.RawMessage, opts CallOptions) (json.RawMessage, error) {
	if err := checkArgs(args); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", server, tool, err)
	}
	ctx, done := begin(ctx, r, server, true) // its server's questions are its caller's (parties.go)
	defer done()
	opts.OnTask = redactTasks(r.redact, opts.OnTask)
	if tc, ok := r.asTask(ctx, server, tool); ok {
		m, err := argsMap(args)
		if err != nil {
			return nil, err
		}
		res, err := r.callTask(ctx, tc, server, tool, m, opts)
		if err != nil {
			return nil, redactErr(r.redact, err)
		}
		outputs{r.ServerTools}.check(ctx, server, tool, res)
		return json.Marshal(redactResult(resultRedactor(r, server), res))
	}
	var out json.RawMessage
	err := r.retryURL(ctx, server, func() error {
		return r.call(ctx, server, tool, opts, func(ctx context.Context, cl Client, meta *mcp.Meta) (bool, error) {
			rc, ok := cl.(RawClient)
			var session []byte // the modern session's _meta members
			if ok && mcp.IsModernProtocol(rc.ProtocolVersion()) {
				ms, modern := rc.GetTransport().(ModernSender)
				if modern {
					session = ms.SessionMeta()
				}
				ok = session != nil
			}
			if !ok {
				m, err := argsMap(args)
				if err != nil {
					return false, err
				}
				res, err := callTyped(ctx, cl, tool, m, meta)
				if err != nil {
					return false, err
				}
				out, err = json.Marshal(res)
				return res.IsError, err
			}
			var err error
			out, err = r.sendRaw(ctx, rc.GetTransport(), rc.ProtocolVersion(), tool, args, meta, session)
			return err == nil && toolError(out), err
		})
	})
	if err != nil {
		return nil, redactErr(r.redact, err)
	}
	return redactJSON(resultRedactor(r, server), outputs{r.ServerTools}.checkRaw(ctx, server, tool, out)), nil
}

// checkArgs refuses arguments that are not a JSON object (absent and null
// stand for none): a server handed an array or a string answers in its own
// words, or runs the tool with no arguments at all. args is valid JSON (the
// caller parsed the message it came in), so its first byte tells; a 5 MB
// object relayed raw is not decoded for this.
func checkArgs(args json.RawMessage) error {
	t := bytes.TrimLeft(args, " \t\r\n")
	if len(t) == 0 || t[0] == '{' || string(t) == "null" {
		return nil
	}
	return fmt.Errorf("%w, not %s", ErrArguments, plain.Clip(string(t), 40))
}

// argsMap decodes arguments that passed checkArgs, for a typed call.
func argsMap(args json.RawMessage) (map[string]any, error) {
	var m map[string]any
	if len(args) == 0 {
		return nil, nil
	}
	if err := json.Unmarshal(args, &m); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrArguments, err)
	}
	return m, nil
}

func callTyped(ctx context.Context, cl Client, tool string, args map[string]any, meta *mcp.Meta) (*mcp.CallToolResult, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	if args == nil {
		args = map[string]any{} // servers on the TypeScript SDK reject a missing arguments object
	}
	req.Params.Arguments = args
	req.Params.Meta = meta
	return cl.CallTool(ctx, req)
}

// RawSender is a transport that sends params that are already JSON as
// they are (the stdio transport, wire.Transport): a relayed call's
// arguments are not encoded again. It must be safe for concurrent use.
type RawSender interface {
	SendRaw(ctx context.Context, id mcp.RequestId, method string, params []byte) (*transport.JSONRPCResponse, error)
}

// ModernSender is a RawSender for a session of revision 2026-07-28 or
// later. SessionMeta returns the members of _meta that every request of
// the session carries (wire.SessionMeta's keys, as mcp-go's client writes
// them: `"key":value,...`), or nil while they are not known. Given a
// tools/call whose _meta has them, SendRaw does what mcp-go's CallTool does
// around the request: it follows a task the call became, answers the
// server's input_required results with the session's handlers and sends
// the call again with the answers, and returns the final result. Both
// methods are safe for concurrent use.
type ModernSender interface {
	RawSender
	SessionMeta() []byte
}

// rawParamsJSON is rawParams as JSON, args copied as they are: they are
// valid JSON (the caller parsed the message they came in). session, when
// not nil, are the _meta members of a modern session (ModernSender); they
// win over meta's keys of the same names, as mcp-go's do.
func rawParamsJSON(meta *mcp.Meta, tool string, args json.RawMessage, session []byte) ([]byte, error) {
	name, err := json.Marshal(tool)
	if err != nil {
		return nil, err
	}
	var m []byte
	if meta != nil && (meta.ProgressToken != nil || len(meta.AdditionalFields) > 0) {
		if session != nil && slices.ContainsFunc(wire.SessionMeta, func(k string) bool { _, ok := meta.AdditionalFields[k]; return ok }) {
			c := *meta
			c.AdditionalFields = maps.Clone(meta.AdditionalFields)
			for _, k := range wire.SessionMeta {
				delete(c.AdditionalFields, k)
			}
			meta = &c
		}
		if m, err = json.Marshal(meta); err != nil {
			return nil, fmt.Errorf("encode _meta: %w", err)
		}
	}
	b := make([]byte, 0, len(args)+len(name)+len(session)+len(m)+64)
	b = append(b, '{')
	switch {
	case session != nil:
		b = append(append(b, `"_meta":{`...), session...)
		if len(m) > 2 { // more than {}
			b = append(append(b, ','), m[1:]...)
		} else {
			b = append(b, '}')
		}
		b = append(b, ',')
	case meta != nil:
		if m == nil {
			m = []byte("{}")
		}
		b = append(append(append(b, `"_meta":`...), m...), ',')
	}
	b = append(append(append(b, `"name":`...), name...), `,"arguments":`...)
	b = append(append(b, args...), '}')
	return b, nil
}

// rawParams are the params of a relayed tools/call.
type rawParams struct {
	Meta      *mcp.Meta       `json:"_meta,omitempty"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// sendRaw sends tools/call on tr, a session of protocol version, as
// mcp-go's client would, and a notifications/cancelled when ctx ends
// first (see cancelRaw). Its ids are strings, apart from the client's
// numbers. session are the _meta members of a modern session (tr is then
// a ModernSender), else nil.
func (r *Router) sendRaw(ctx context.Context, tr transport.Interface, version, tool string, args json.RawMessage, meta *mcp.Meta, session []byte) (json.RawMessage, error) {
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}") // servers on the TypeScript SDK reject a missing arguments object
	}
	id := mcp.NewRequestId(fmt.Sprintf("switchboard-call-%d", r.rawIDs.Add(1)))
	var res *transport.JSONRPCResponse
	var err error
	if rs, ok := tr.(RawSender); ok {
		var params []byte
		if params, err = rawParamsJSON(meta, tool, args, session); err != nil {
			return nil, err
		}
		res, err = rs.SendRaw(ctx, id, string(mcp.MethodToolsCall), params)
	} else {
		res, err = tr.SendRequest(ctx, transport.JSONRPCRequest{
			JSONRPC: mcp.JSONRPC_VERSION, ID: id, Method: string(mcp.MethodToolsCall),
			Params: rawParams{Meta: meta, Name: tool, Arguments: args},
		})
	}
	if err != nil {
		if ctx.Err() != nil {
			cancelRaw(ctx, tr, version, id)
		}
		return nil, err
	}
	if res.Error != nil {
		return nil, res.Error.AsError()
	}
	return res.Result, nil
}

// CancelNotifyTimeout bounds sending notifications/cancelled for a call
// whose caller gave up. A variable so tests can shorten it.
var CancelNotifyTimeout = 5 * time.Second

// CancelRaw tells the server to stop the relayed request id, whose ctx
// ended, off the caller's path and best effort: cancelRaw for a session
// whose protocol version tr tells (a ProtocolVersion method), or else one
// taken to be before 2026-07-28.
func CancelRaw(ctx context.Context, tr transport.Interface, id mcp.RequestId) {
	version := ""
	if v, ok := tr.(interface{ ProtocolVersion() string }); ok {
		version = v.ProtocolVersion()
	}
	cancelRaw(ctx, tr, version, id)
}

// cancelRaw sends notifications/cancelled for request id on tr, a session
// of protocol version, unless it is an HTTP session of 2026-07-28 or
// later, where ending the request's stream is the cancellation. Before
// that revision the spec has the client send it over HTTP too (a
// disconnection is not to be taken as one), which mcp-go's client does
// not: a 2025 server behind Streamable HTTP or SSE kept working on a call
// nobody waited for.
func cancelRaw(ctx context.Context, tr transport.Interface, version string, id mcp.RequestId) {
	if _, http := tr.(transport.HTTPConnection); http && mcp.IsModernProtocol(version) {
		return
	}
	n := mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION, Notification: mcp.Notification{
		Method: string(mcp.MethodNotificationCancelled),
		Params: mcp.NotificationParams{AdditionalFields: map[string]any{"requestId": id, "reason": ctx.Err().Error()}},
	}}
	go func() {
		nctx, cancel := context.WithTimeout(context.Background(), CancelNotifyTimeout)
		defer cancel()
		_ = tr.SendNotification(nctx, n)
	}()
}

// legacyHTTP reports whether cl is a session over HTTP (Streamable HTTP
// or SSE) before 2026-07-28: there mcp-go's client sends no
// notifications/cancelled for a call whose caller gave up, so a call is
// sent on the transport by the router (sendRaw), which does.
func legacyHTTP(cl Client) (RawClient, bool) {
	rc, ok := cl.(RawClient)
	if !ok || mcp.IsModernProtocol(rc.ProtocolVersion()) {
		return nil, false
	}
	_, http := rc.GetTransport().(transport.HTTPConnection)
	return rc, http
}

// typedCall is callTyped through the router's own sending on a legacy
// HTTP session (legacyHTTP). A function, not a method: the Router has
// methods enough.
func typedCall(ctx context.Context, r *Router, cl Client, tool string, args map[string]any, meta *mcp.Meta) (*mcp.CallToolResult, error) {
	rc, ok := legacyHTTP(cl)
	if !ok {
		return callTyped(ctx, cl, tool, args, meta)
	}
	b, err := json.Marshal(args)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrArguments, err)
	}
	raw, err := r.sendRaw(ctx, rc.GetTransport(), rc.ProtocolVersion(), tool, b, meta, nil)
	if err != nil {
		return nil, err
	}
	return mcp.ParseCallToolResult(&raw)
}

// callMeta is the _meta a call sends, always with a progress token: a
// server following the spec reports progress only under one, and without
// reports a long tool was cut at its call timeout (chat and 'tools call'
// gave none). The token is the caller's own (opts.Meta's: the gateway
// relays its client's, which the server should see as the client sent
// it), or, when the caller gave none or another call in flight on the
// same server holds the same one (two clients numbering their tokens
// alike), one of the router's, unique per call. The server's progress
// under it goes to onProgress (nil: none) until release runs and
// ProgressGrace has passed (servers may write progress after the result:
// mcp-go queues notifications separately).
func (r *Router) callMeta(server string, opts *mcp.Meta, onProgress func(Progress)) (meta *mcp.Meta, release func()) {
	if onProgress == nil {
		onProgress = func(Progress) {}
	}
	handler := &onProgress // a pointer: release deletes its own entry only, and funcs do not compare
	var key string
	if opts != nil && opts.ProgressToken != nil {
		key = progressKey(server, opts.ProgressToken)
		if _, taken := r.progress.LoadOrStore(key, handler); !taken {
			meta = opts
		}
	}
	if meta == nil {
		for {
			token := fmt.Sprintf("switchboard-%d", r.tokens.Add(1))
			key = progressKey(server, token)
			if _, taken := r.progress.LoadOrStore(key, handler); !taken {
				meta = &mcp.Meta{ProgressToken: token}
				break
			}
		}
		if opts != nil {
			meta.AdditionalFields = opts.AdditionalFields
		}
	}
	return meta, func() {
		time.AfterFunc(ProgressGrace, func() { r.progress.CompareAndDelete(key, handler) })
	}
}

// progressKey is where a call's progress handler is kept: by server, as
// two servers' tokens may be alike, and by the token's JSON type and
// value, as a notification may carry a number decoded as float64,
// json.Number or an int (an in-process server's).
func progressKey(server string, token any) string {
	switch t := token.(type) {
	case string:
		return server + "\x00s" + t
	case float64, float32, int, int64, json.Number:
		return server + "\x00n" + strconv.FormatFloat(number(t), 'g', -1, 64)
	}
	return server + "\x00?" + fmt.Sprint(token)
}

// toolError reports whether a raw result is a tool error, for the metrics
// only: decoding a large result to find out would cost more than the call.
// Inside a JSON string the quotes would be escaped, so text content cannot
// match.
func toolError(raw json.RawMessage) bool {
	isError := false
	_ = wire.Walk(raw, false, func(key, value []byte) { // the result came in a message wire.Parse validated
		if string(key) == `"isError"` {
			isError = string(value) == "true"
		}
	})
	return isError
}

// call is what Call and CallRaw share: the session, the server's
// timeout, our own progress token, the metrics and the error wording. do
// makes the call and reports whether the result is a tool error.
func (r *Router) call(ctx context.Context, server, tool string, opts CallOptions, do func(ctx context.Context, cl Client, meta *mcp.Meta) (isError bool, err error)) error {
	src, cl, err := r.session(server)
	if err != nil {
		src, cl, err = startedSession(ctx, r, server, tool, err)
	}
	if err != nil {
		return err
	}
	if err := r.screenCall(ctx, src, server, tool); err != nil {
		r.record(server, 0, true)
		return err
	}
	timeout := src.CallTimeout()
	if timeout <= 0 {
		timeout = DefaultCallTimeout
	}
	if extensionTasks(cl) {
		// The server may turn any call into a task (revision 2026-07-28's
		// tasks extension, followed by the supervisor): a task is bounded
		// by the task limit, not the tool timeout, as below 2026-07-28.
		timeout = max(timeout, r.taskLimit())
	}
	cctx, cancel := context.WithCancelCause(wire.WithTaskUpdates(ctx, opts.OnTask))
	defer cancel(nil)
	deadline := time.AfterFunc(timeout, func() { cancel(ErrCallTimeout) })
	defer deadline.Stop()
	// A server that reports progress is working: each report gives the
	// call its timeout again, up to the task limit in all (MCP's
	// resetTimeoutOnProgress with a maxTotalTimeout). A long build or test
	// run is not cut off at a minute while it says how far it is, whoever
	// called.
	limit := time.Now().Add(max(timeout, r.taskLimit()))
	meta, release := r.callMeta(server, opts.Meta, func(p Progress) {
		if rest := time.Until(limit); rest > 0 && cctx.Err() == nil {
			deadline.Reset(min(timeout, rest))
		}
		if opts.OnProgress != nil {
			opts.OnProgress(p)
		}
	})
	defer release()
	start := time.Now()
	isError, err := do(cctx, cl, meta)
	took := time.Since(start)
	if err != nil {
		if errors.Is(context.Cause(cctx), ErrCallTimeout) && ctx.Err() == nil {
			// Say why: a stdio server's reader knows what it was in the middle of.
			why := ""
			var se *wire.StallError
			if errors.As(err, &se) {
				why = " (" + se.Detail() + ")"
			}
			err = fmt.Errorf("%s: %s: %w after %s without a result or progress%s", server, tool, ErrCallTimeout, timeout, why)
		} else {
			err = fmt.Errorf("%s: %s: %w", server, tool, err)
		}
	}
	r.record(server, took, err != nil || isError)
	return err
}

// startedSession is the session of a server whose tools were offered
// from before it started (Recaller), or from before it restarted
// (restartedTools): a call of one waits for the server's first start to
// end, or for it to be back from its restart, at most its call timeout,
// and then takes its session, or fails as a call of a server without one
// does. Any other server's err is returned as it is. A function, not a
// method, as listingOf.
func startedSession(ctx context.Context, r *Router, server, tool string, err error) (Source, Client, error) {
	src := sourceOf(r, server)
	if src == nil {
		return nil, nil, err
	}
	wait := cmp.Or(src.CallTimeout(), DefaultCallTimeout)
	if rc, ok := src.(Recaller); ok && rc.Recall() != nil {
		wctx, cancel := context.WithTimeout(ctx, wait)
		rc.AwaitStart(wctx)
		cancel()
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		return r.session(server)
	}
	known := restartedTools(r, server, err)
	if !slices.ContainsFunc(known, func(t mcp.Tool) bool { return t.Name == tool }) {
		return nil, nil, err
	}
	// The supervisor brings a crashed server back within a second or two
	// (its backoff): a call made meanwhile, such as a chat's next step,
	// waits for it instead of failing with the crash. Each change of the
	// server's state reaches the router (Invalidate), so the wait wakes
	// on those, not on a clock.
	changes, stop := r.Subscribe()
	defer stop()
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	for {
		src, cl, err := r.session(server)
		if err == nil || !Restarting(err) {
			return src, cl, err // back, or given up (its error says why)
		}
		select {
		case <-changes:
		case <-wctx.Done():
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			return nil, nil, fmt.Errorf("%s: the server is restarting and was not back within %s; try again once it is ready (its status and log say why it stopped): %w", server, wait, err)
		}
	}
}

// restartedTools is what server's last session listed, while err (from
// its Source's Client) says the server is restarting: offered meanwhile,
// so that its tools are not withdrawn from clients (and published again a
// second later) for a restart, and a call of one waits for it
// (startedSession). nil when it is not restarting (failed for good,
// stopped, disabled) or never listed. A function, not a method, as
// listingOf.
func restartedTools(r *Router, server string, err error) []mcp.Tool {
	if !Restarting(err) {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ran[server]
}

// Restarting reports whether err, a Source's Client error, says the
// server is restarting after a run ended (the supervisor's NotReadyError
// in its state "restarting", through its Restarting method): expected
// back by itself, so what it offered stays offered meanwhile. In any other
// state (starting for the first time, given up in error, stopped, needing
// a login) it is not.
func Restarting(err error) bool {
	var r interface{ Restarting() bool }
	return errors.As(err, &r) && r.Restarting()
}

// HandleNotification takes a server's notifications: */list_changed drops
// the cached list and tells subscribers, progress goes to the call that
// asked for it.
func (r *Router) HandleNotification(server string, n mcp.JSONRPCNotification) {
	switch n.Method {
	case string(mcp.MethodNotificationToolsListChanged):
		r.invalidate(server, func(c *cached) { c.tools = nil })
	case string(mcp.MethodNotificationResourcesListChanged):
		r.invalidate(server, func(c *cached) { c.resources = nil })
	case string(mcp.MethodNotificationPromptsListChanged):
		r.invalidate(server, func(c *cached) { c.prompts = nil })
	case string(mcp.MethodNotificationElicitationComplete):
		r.urls.complete(server, n)
	case string(mcp.MethodNotificationProgress):
		f := n.Params.AdditionalFields
		fn, ok := r.progress.Load(progressKey(server, f["progressToken"]))
		if !ok {
			return
		}
		p := Progress{Progress: number(f["progress"]), Total: number(f["total"])}
		p.Message, _ = f["message"].(string)
		p.Message = redactText(r.redact, p.Message)
		(*fn.(*func(Progress)))(p)
	}
}

// Metrics returns a snapshot per server.
func (r *Router) Metrics() map[string]Metrics {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]Metrics, len(r.metrics))
	for k, m := range r.metrics {
		out[k] = m.snapshot()
	}
	return out
}

func (r *Router) record(server string, took time.Duration, failed bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.metrics[server]
	if m == nil {
		m = &metrics{}
		r.metrics[server] = m
	}
	m.add(took, failed)
}

// metrics keeps counts and a window of recent latencies for percentiles.
type metrics struct {
	calls, errors int64
	last          time.Time
	window        [256]time.Duration
	n             int
}

func (m *metrics) add(took time.Duration, failed bool) {
	m.calls++
	if failed {
		m.errors++
	}
	m.last = time.Now()
	m.window[m.n%len(m.window)] = took
	m.n++
}

func (m *metrics) snapshot() Metrics {
	n := min(m.n, len(m.window))
	lat := slices.Clone(m.window[:n])
	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		if n == 0 {
			return 0
		}
		return lat[min(n-1, int(float64(n)*p))]
	}
	return Metrics{Calls: m.calls, Errors: m.errors, P50: pct(0.50), P95: pct(0.95), LastUsed: m.last}
}

// number reads a JSON number that may arrive decoded (float64) or, from an
// in-process server, as a Go integer.
func number(v any) float64 {
	switch n := v.(type) {
	case float64:
		return n
	case float32:
		return float64(n)
	case int:
		return float64(n)
	case int64:
		return float64(n)
	case json.Number:
		f, _ := n.Float64()
		return f
	}
	return 0
}
