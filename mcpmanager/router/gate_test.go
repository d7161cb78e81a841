package router

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
)

// held is a Gate that withholds the tools it names.
type held struct {
	mu    sync.Mutex
	names map[string]bool // server/tool
}

var errHeld = errors.New("withheld by the test gate")

func (g *held) Screen(server string, tools []mcp.Tool) []error {
	g.mu.Lock()
	defer g.mu.Unlock()
	errs := make([]error, len(tools))
	for i, t := range tools {
		if g.names[server+"/"+t.Name] {
			errs[i] = errHeld
		}
	}
	return errs
}

// TestGateWithholds: a tool the gate withholds is left out of Tools
// (reported with its exposed name), and Lookup, Call and CallRaw of it fail
// with the gate's reason, without reaching the server; the others are
// untouched, and the same name is kept when the gate lets it through again.
func TestGateWithholds(t *testing.T) {
	g := &held{names: map[string]bool{"alpha/echo": true}}
	r := New(Options{Gate: g})
	r.Add(newSrc(t, "alpha", "echo", "fail"))
	r.Add(newSrc(t, "beta", "echo"))

	tools, errs := r.Tools(t.Context())
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, ","); got != "alpha__fail,beta__echo" {
		t.Fatalf("tools = %s", got)
	}
	if len(errs) != 1 || errs[0].Server != "alpha" || errs[0].Tool != "alpha__echo" || !strings.Contains(errs[0].Err, errHeld.Error()) {
		t.Fatalf("errs = %+v", errs)
	}
	if _, err := r.Lookup(t.Context(), "alpha__echo"); !errors.Is(err, errHeld) {
		t.Fatalf("Lookup of a withheld tool = %v", err)
	}
	if _, err := r.Call(t.Context(), "alpha", "echo", map[string]any{"text": "x"}, CallOptions{}); !errors.Is(err, errHeld) {
		t.Fatalf("Call of a withheld tool = %v", err)
	}
	if _, err := r.CallRaw(t.Context(), "alpha", "echo", json.RawMessage(`{"text":"x"}`), CallOptions{}); !errors.Is(err, errHeld) {
		t.Fatalf("CallRaw of a withheld tool = %v", err)
	}
	if res, err := r.Call(t.Context(), "beta", "echo", map[string]any{"text": "x"}, CallOptions{}); err != nil || mcptest.Text(res) != "echo:x" {
		t.Fatalf("Call of another server's tool of the same name = %v, %v", res, err)
	}

	g.mu.Lock()
	g.names = nil
	g.mu.Unlock()
	if res, err := r.Call(t.Context(), "alpha", "echo", map[string]any{"text": "y"}, CallOptions{}); err != nil || mcptest.Text(res) != "echo:y" {
		t.Fatalf("Call once let through = %v, %v", res, err)
	}
	if _, err := r.Lookup(t.Context(), "alpha__echo"); err != nil {
		t.Fatalf("Lookup once let through: %v", err)
	}
}

// versioned is a held gate that counts its screenings and has a version.
type versioned struct {
	held
	version  int
	screened int
}

func (g *versioned) Screen(server string, tools []mcp.Tool) []error {
	g.mu.Lock()
	g.screened++
	g.mu.Unlock()
	return g.held.Screen(server, tools)
}

func (g *versioned) Version() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return uint64(g.version)
}

var _ VersionedGate = (*versioned)(nil)

// TestVersionedGateKept: a VersionedGate's verdicts on a cached listing are
// kept across Tools and calls until its version moves or the server lists
// anew; then it is asked again and its new word holds.
func TestVersionedGateKept(t *testing.T) {
	g := &versioned{held: held{names: map[string]bool{}}}
	r := New(Options{Gate: g})
	r.Add(newSrc(t, "alpha", "echo", "fail"))
	count := func() int {
		g.mu.Lock()
		defer g.mu.Unlock()
		return g.screened
	}
	for range 3 {
		if tools, errs := r.Tools(t.Context()); len(tools) != 2 || len(errs) != 0 {
			t.Fatalf("tools = %v, errs = %v", tools, errs)
		}
		if _, err := r.Call(t.Context(), "alpha", "echo", map[string]any{"text": "x"}, CallOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if got := count(); got != 1 {
		t.Fatalf("screened %d times for one listing at one version, want 1", got)
	}

	g.mu.Lock()
	g.names["alpha/echo"], g.version = true, 1
	g.mu.Unlock()
	if tools, errs := r.Tools(t.Context()); len(tools) != 1 || len(errs) != 1 || errs[0].Tool != "alpha__echo" {
		t.Fatalf("after the version moved: tools = %v, errs = %v", tools, errs)
	}
	if _, err := r.Call(t.Context(), "alpha", "echo", map[string]any{"text": "x"}, CallOptions{}); !errors.Is(err, errHeld) {
		t.Fatalf("call after the gate withheld it = %v", err)
	}
	// The listing's, then the refused call's: a kept verdict is asked
	// again before a call is refused.
	if got := count(); got != 3 {
		t.Fatalf("screened %d times, want 3", got)
	}

	// The gate offers the tool again before its version says so (another
	// process's trust, its event on the way): the listing keeps the
	// verdict, and a lookup of its name (a gateway client's call) and a
	// call ask again and go through.
	g.mu.Lock()
	delete(g.names, "alpha/echo")
	g.mu.Unlock()
	if _, errs := r.Tools(t.Context()); len(errs) != 1 {
		t.Fatalf("listing at the same version = %v, want the kept verdict", errs)
	}
	if tl, err := r.Lookup(t.Context(), "alpha__echo"); err != nil || tl.Server != "alpha" || tl.Tool.Name != "echo" {
		t.Fatalf("lookup once the gate offers it again, its version lagging = %+v, %v", tl, err)
	}
	if _, err := r.Call(t.Context(), "alpha", "echo", map[string]any{"text": "x"}, CallOptions{}); err != nil {
		t.Fatalf("call once the gate offers it again, its version lagging = %v", err)
	}
	if got := count(); got != 5 {
		t.Fatalf("screened %d times, want 5", got)
	}

	r.Invalidate("alpha") // a new listing at the same version is screened again
	r.Tools(t.Context())
	if got := count(); got != 6 {
		t.Fatalf("screened %d times after a new listing, want 6", got)
	}
}

// filtered is a src that offers only the tools its entry lets through.
type filtered struct {
	*src
	include, exclude []string
}

func (f filtered) Offers(tool string) bool {
	return !slices.Contains(f.exclude, tool) && (len(f.include) == 0 || slices.Contains(f.include, tool))
}

var _ ToolFilter = filtered{}

// TestToolFilter: a tool its entry leaves out (includeTools, excludeTools)
// is in no listing, and Lookup, Call and CallRaw of it are refused as an
// unknown tool without reaching the server; the rest are untouched.
func TestToolFilter(t *testing.T) {
	r := New(Options{})
	r.Add(filtered{src: newSrc(t, "alpha", "echo", "fail", "slow"), exclude: []string{"slow"}})
	r.Add(filtered{src: newSrc(t, "beta", "echo", "fail"), include: []string{"echo", "fail"}, exclude: []string{"fail"}})
	tools, errs := r.Tools(t.Context())
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, ","); got != "alpha__echo,alpha__fail,beta__echo" || len(errs) != 0 {
		t.Fatalf("tools = %s, errs %v", got, errs)
	}
	if listed, err := r.ServerTools(t.Context(), "beta"); err != nil || len(listed) != 1 || listed[0].Name != "echo" {
		t.Fatalf("ServerTools(beta) = %v, %v", listed, err)
	}
	for _, c := range []struct{ server, tool string }{{"alpha", "slow"}, {"beta", "fail"}} {
		if _, err := r.Lookup(t.Context(), c.server+"__"+c.tool); !errors.Is(err, ErrUnknownTool) {
			t.Errorf("Lookup %s/%s = %v", c.server, c.tool, err)
		}
		_, err := r.Call(t.Context(), c.server, c.tool, map[string]any{"text": "x"}, CallOptions{})
		if !errors.Is(err, ErrUnknownTool) || !strings.Contains(err.Error(), "left out by the server's entry") {
			t.Errorf("Call %s/%s = %v", c.server, c.tool, err)
		}
		if _, err := r.CallRaw(t.Context(), c.server, c.tool, json.RawMessage(`{"text":"x"}`), CallOptions{}); !errors.Is(err, ErrUnknownTool) {
			t.Errorf("CallRaw %s/%s = %v", c.server, c.tool, err)
		}
	}
	if res, err := r.Call(t.Context(), "beta", "echo", map[string]any{"text": "x"}, CallOptions{}); err != nil || mcptest.Text(res) != "echo:x" {
		t.Fatalf("Call of an offered tool = %v, %v", res, err)
	}
}
