package chat

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/toolsearch"
	"github.com/switchboard-app/switchboard/mcpmanager/apps"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// sharedTools is a Tools that hands out one listing, read-only, for as
// long as it does not change, with a version that names it
// (*router.Router's SharedTools). The engine then keeps what it derives
// from a listing (toolSet) instead of deriving it again at every turn.
type sharedTools interface {
	SharedTools(ctx context.Context) (tools []router.Tool, errs []router.ServerError, version uint64)
}

// watchedTools is a Tools that says when its listing may have changed
// (*router.Router's Subscribe: a server added, removed or restarted, or
// its notifications/tools/list_changed). A turn listens to it so that a
// tool a server adds while the turn runs (the model enabled a toolset,
// then uses it) is offered at the turn's next step, without listing at
// every step.
type watchedTools interface {
	Subscribe() (changes <-chan struct{}, stop func())
}

// toolSet is what a turn derives from the router's listing and its own
// choice of tools (policies, Active): the tools as the model is offered
// them, by name and by server, and what the tool search needs. It is
// shared by the runs of the same listing and choice, and read-only: a
// run's own synthetic tools go in its run.tools.
//
// With 320 tools, building it took a good part of the host's share of a
// chat step, and most of its garbage: the tools converted and sorted,
// maps of them by name and server, the token count of their definitions
// and a hash of them for the find_tools index, at every turn or step.
type toolSet struct {
	version uint64 // the listing's; 0: not kept (a Tools without versions)
	pick    []byte // per listed tool: picked (see choose)

	all      []provider.Tool        // every active tool, sorted by name (capacity = length)
	byName   map[string]router.Tool // the active tools by name
	withheld map[string]string      // tools the router's gate left out, by name: why
	servers  []string               // servers of the active tools, in the tools' order
	byServer map[string][]provider.Tool
	tokens   int    // of the active tools' definitions (toolsearch.Tokens)
	indexKey string // the find_tools index's key: a hash of the definitions
}

// choice values: why a listed tool is in the set or not.
const (
	pickOut    byte = iota // never the model's (an app's own tool) or denied
	pickActive             // offered
	pickIdle               // allowed, but not active in this turn
)

// choose is the turn's verdict on each listed tool.
func (r *run) choose(all []router.Tool) []byte {
	pick := make([]byte, len(all))
	for i, t := range all {
		switch {
		case !apps.ModelVisible(t.Tool):
			// an MCP App's own tool (visibility ["app"]): never the model's, nor find_tools', agents' or delegates'
		case r.t.Policies.For(t, r.e.opts.DefaultPolicy) == PolicyDeny:
			// a denied tool is not offered at all
		case r.t.Active != nil && !r.t.Active(t):
			pick[i] = pickIdle
		default:
			pick[i] = pickActive
		}
	}
	return pick
}

// toolSet is the turn's tool set: the one kept when the listing's
// version and the turn's choice are those it was made of, else a new one
// (then kept).
func (r *run) toolSet(ctx context.Context) (*toolSet, error) {
	if r.e.opts.Tools == nil {
		return &toolSet{byName: map[string]router.Tool{}, withheld: map[string]string{}, byServer: map[string][]provider.Tool{}}, nil
	}
	var all []router.Tool
	var errs []router.ServerError
	var version uint64
	if st, ok := r.e.opts.Tools.(sharedTools); ok {
		all, errs, version = st.SharedTools(ctx) // a failing server only loses its tools
	} else {
		all, errs = r.e.opts.Tools.Tools(ctx)
	}
	pick := r.choose(all)
	if version != 0 {
		r.e.mu.Lock()
		kept := r.e.set
		r.e.mu.Unlock()
		if kept != nil && kept.version == version && bytes.Equal(kept.pick, pick) {
			return kept, nil
		}
	}
	s, err := newToolSet(all, errs, pick)
	if err != nil {
		return nil, err
	}
	if version != 0 {
		s.version = version
		r.e.mu.Lock()
		r.e.set = s
		r.e.mu.Unlock()
	}
	return s, nil
}

// watchTools returns the signal of changes to tools' listing, until stop
// is called: nil changes for a Tools that cannot say (it keeps a turn's
// first listing). A turn calls it before it first lists, so a change made
// while that listing runs is not missed (at worst the same listing is
// taken again, which costs its version comparison).
func watchTools(tools Tools) (changes <-chan struct{}, stop func()) {
	w, ok := tools.(watchedTools)
	if !ok {
		return nil, func() {}
	}
	return w.Subscribe()
}

// newToolSet derives a tool set from a listing and the turn's choice.
func newToolSet(all []router.Tool, errs []router.ServerError, pick []byte) (*toolSet, error) {
	s := &toolSet{pick: pick, byName: map[string]router.Tool{}, withheld: map[string]string{}, byServer: map[string][]provider.Tool{}}
	for _, e := range errs {
		if e.Tool != "" {
			s.withheld[e.Tool] = e.Err
		}
	}
	for i, t := range all {
		if pick[i] != pickActive {
			continue
		}
		schema, err := t.Schema()
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", t.Name, err)
		}
		s.all = append(s.all, provider.Tool{Name: t.Name, Description: t.Tool.Description, InputSchema: schema, Server: t.Server})
		s.byName[t.Name] = t
	}
	// One order whatever order the servers answered in: the request's
	// prefix stays the same from step to step, which prompt caches need.
	slices.SortFunc(s.all, func(a, b provider.Tool) int { return strings.Compare(a.Name, b.Name) })
	s.all = slices.Clip(s.all) // a run appends its own tools to a copy
	h := sha256.New()
	for _, pt := range s.all {
		srv := s.byName[pt.Name].Server
		if s.byServer[srv] == nil {
			s.servers = append(s.servers, srv)
		}
		s.byServer[srv] = append(s.byServer[srv], pt)
		s.tokens += toolsearch.Tokens(pt.Name, pt.Description, pt.InputSchema)
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00", pt.Name, pt.Description, pt.InputSchema)
	}
	for srv, ts := range s.byServer {
		s.byServer[srv] = slices.Clip(ts)
	}
	s.indexKey = hex.EncodeToString(h.Sum(nil))
	return s, nil
}

// searchDocs are the active tools as the find_tools index reads them.
func (s *toolSet) searchDocs() []toolsearch.Tool {
	docs := make([]toolsearch.Tool, 0, len(s.all))
	for _, pt := range s.all {
		t := s.byName[pt.Name]
		docs = append(docs, toolsearch.Tool{Name: pt.Name, Server: t.Server, Title: cmp.Or(t.Tool.Title, t.Tool.Annotations.Title), Description: pt.Description, InputSchema: pt.InputSchema})
	}
	return docs
}

// tool is the tool the model calls name: the run's own (find_tools,
// ask_<server>, load_skill, ...) first, then the set's.
func (r *run) tool(name string) (router.Tool, bool) {
	if t, ok := r.tools[name]; ok {
		return t, true
	}
	t, ok := r.set.byName[name]
	return t, ok
}
