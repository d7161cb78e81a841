package cli

import (
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry"
	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry/mcpregistrytest"
)

// 'registry search --all' against a registry that names the same cursor
// on every page stops at the second page, prints what it got and exits
// non-zero naming why (it looped until the registry stopped answering,
// then on the cached page for ever).
func TestRegistrySearchAllStopsOnARepeatedCursor(t *testing.T) {
	h, err := mcpregistrytest.StartHostile(t.Context(), mcpregistrytest.RepeatCursor)
	if err != nil {
		t.Fatal(err)
	}
	code, out, e := runIn(t, t.TempDir(), "registry", "search", "--registry", h.URL, "--all")
	if code != ExitRuntime || !strings.Contains(out, "io.github.evil/page-1") || !strings.Contains(e, `the registry repeated the cursor "again"`) {
		t.Errorf("exit %d\n%s\n%s", code, out, e)
	}
	if n := h.Requests.Load(); n > 2 {
		t.Errorf("%d requests for a listing of one repeated page", n)
	}
}

// Endless pages stop at the page limit, named.
func TestRegistrySearchAllStopsAtThePageLimit(t *testing.T) {
	old := mcpregistry.MaxPages
	t.Cleanup(func() { mcpregistry.MaxPages = old })
	mcpregistry.MaxPages = 5
	h, err := mcpregistrytest.StartHostile(t.Context(), mcpregistrytest.EndlessPages)
	if err != nil {
		t.Fatal(err)
	}
	code, out, e := runIn(t, t.TempDir(), "registry", "search", "--registry", h.URL, "--all")
	if code != ExitRuntime || !strings.Contains(out, "io.github.evil/page-5") || !strings.Contains(e, "the 5-page limit") || h.Requests.Load() != 5 {
		t.Errorf("exit %d after %d requests\n%s\n%s", code, h.Requests.Load(), out, e)
	}
}
