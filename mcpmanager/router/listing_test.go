package router

import (
	"slices"
	"strings"
	"testing"
)

// names is the exposed names of tools, joined.
func names(tools []Tool) string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return strings.Join(out, ",")
}

// TestSharedToolsKeptUntilAnythingChanges: SharedTools hands out the same
// listing and version while nothing changes, and a new listing, under a
// new version, as soon as a server is added, lists anew, is removed, or
// the gate's verdict moves; Tools' copy is the caller's to change.
func TestSharedToolsKeptUntilAnythingChanges(t *testing.T) {
	ctx := t.Context()
	g := &versioned{held: held{names: map[string]bool{}}}
	r := New(Options{Gate: g})
	r.Add(newSrc(t, "alpha", "echo", "fail"))

	first, _, v1 := r.SharedTools(ctx)
	again, _, v2 := r.SharedTools(ctx)
	if v1 != v2 || !same(first, again) || names(again) != "alpha__echo,alpha__fail" {
		t.Fatalf("an unchanged listing: versions %d, %d, same slice %v, tools %s", v1, v2, same(first, again), names(again))
	}

	copied, _ := r.Tools(ctx)
	slices.Reverse(copied)
	copied[0].Name = "changed by the caller"
	if kept, _, _ := r.SharedTools(ctx); names(kept) != "alpha__echo,alpha__fail" {
		t.Fatalf("a caller's change to Tools' result reached the shared listing: %s", names(kept))
	}

	seen := map[uint64]bool{v1: true}
	step := func(what, want string) {
		t.Helper()
		tools, _, v := r.SharedTools(ctx)
		if seen[v] {
			t.Fatalf("%s: version %d again", what, v)
		}
		seen[v] = true
		if got := names(tools); got != want {
			t.Fatalf("%s: tools %s, want %s", what, got, want)
		}
	}
	r.Add(newSrc(t, "beta", "echo"))
	step("a server added", "alpha__echo,alpha__fail,beta__echo")
	r.Invalidate("beta")
	r.Add(newSrc(t, "beta", "echo", "more"))
	step("a server listing anew", "alpha__echo,alpha__fail,beta__echo,beta__more")
	g.mu.Lock()
	g.names["alpha/fail"], g.version = true, 1
	g.mu.Unlock()
	step("the gate withholding a tool", "alpha__echo,beta__echo,beta__more")
	r.Remove("alpha")
	step("a server removed", "beta__echo,beta__more")
}

// TestSharedToolsWithoutAGate: with no gate (no verdicts to tell listings
// apart), a server listing anew as many tools as before is a new listing.
func TestSharedToolsWithoutAGate(t *testing.T) {
	r := New(Options{})
	r.Add(newSrc(t, "alpha", "echo"))
	before, _, v1 := r.SharedTools(t.Context())
	r.Add(newSrc(t, "alpha", "other"))
	after, _, v2 := r.SharedTools(t.Context())
	if v1 == v2 || names(before) != "alpha__echo" || names(after) != "alpha__other" {
		t.Fatalf("versions %d, %d; tools %s, then %s", v1, v2, names(before), names(after))
	}
}
