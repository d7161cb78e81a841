package mcpregistry_test

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry"
	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry/mcpregistrytest"
	"github.com/switchboard-app/switchboard/mcpmanager/plain"
)

// examples is a registry serving mcpregistrytest.Examples only.
func examples(t *testing.T) (*mcpregistrytest.Registry, *mcpregistry.Client) {
	t.Helper()
	reg, c := start(t)
	for _, e := range mcpregistrytest.Examples {
		reg.AddMeta(e.Doc, e.Meta)
	}
	return reg, c
}

// TestSearchKeepsTheLatestVersion: of a registry that ignores
// version=latest (every version listed), the versions its _meta says are
// not the latest go, and one listing per name is left; the registry's
// status comes with each.
func TestSearchKeepsTheLatestVersion(t *testing.T) {
	for _, every := range []bool{false, true} {
		reg, c := examples(t)
		reg.EveryVersion.Store(every)
		l, err := c.Search(t.Context(), "filesystem", "")
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Servers) != 1 || l.Servers[0].Server.Version != "1.0.2" {
			t.Fatalf("every version listed %v: %d servers, want 1.0.2 alone", every, len(l.Servers))
		}
		all, err := c.All(t.Context(), "")
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range all.Servers {
			names = append(names, s.Server.Name)
		}
		if n := len(names); len(slices.Compact(slices.Sorted(slices.Values(names)))) != n {
			t.Errorf("every version listed %v: a name listed twice: %v", every, names)
		}
	}
	_, c := examples(t)
	for name, want := range map[string]string{"io.github.example/old-forecast": "deprecated", "io.github.example/malware": "deleted", "io.github.example/flags": "active"} {
		s, err := c.Get(t.Context(), name)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Official().Status; got != want {
			t.Errorf("%s: status %q, want %q", name, got, want)
		}
	}
}

// TestLatest: one version per name, in listing order: not-latest ones
// dropped, and of two that do not say, the one published last.
func TestLatest(t *testing.T) {
	entry := func(name, version, meta string) mcpregistry.ServerResponse {
		return mcpregistry.ServerResponse{Server: mcpregistry.ServerJSON{Name: name, Version: version},
			Meta: map[string]json.RawMessage{mcpregistry.MetaKey: json.RawMessage(meta)}}
	}
	in := []mcpregistry.ServerResponse{
		entry("a", "1", `{"isLatest": false}`),
		entry("b", "1", `{"publishedAt": "2025-01-01T00:00:00Z"}`),
		entry("a", "2", `{"isLatest": true}`),
		entry("b", "2", `{"publishedAt": "2025-06-01T00:00:00Z"}`),
		entry("c", "1", `not json`),
		entry("b", "0", `{"publishedAt": "2024-01-01T00:00:00Z"}`),
	}
	var got []string
	for _, s := range mcpregistry.Latest(in) {
		got = append(got, s.Server.Name+s.Server.Version)
	}
	if want := []string{"b2", "a2", "c1"}; !slices.Equal(got, want) {
		t.Errorf("latest %v, want %v", got, want)
	}
}

// TestDeletedIsNotAddable: a server the registry deleted is refused,
// saying why; a deprecated one is not.
func TestDeletedIsNotAddable(t *testing.T) {
	_, c := examples(t)
	s, err := c.Get(t.Context(), "io.github.example/malware")
	if err != nil {
		t.Fatal(err)
	}
	err = s.Addable(c.BaseURL)
	if !errors.Is(err, mcpregistry.ErrDeleted) || !strings.Contains(err.Error(), "io.github.example/malware is marked deleted in the registry at "+c.BaseURL+", so Switchboard does not add it") {
		t.Errorf("deleted: %v", err)
	}
	old, err := c.Get(t.Context(), "io.github.example/old-forecast")
	if err != nil {
		t.Fatal(err)
	}
	if err := old.Addable(c.BaseURL); err != nil {
		t.Errorf("deprecated: %v", err)
	}
}

// TestV0OnlyRegistry: a registry that answers only the API v0 is searched
// and read through it; an address where neither is there says so, and
// never that the server is not in the registry.
func TestV0OnlyRegistry(t *testing.T) {
	reg, c := start(t)
	reg.V0Only.Store(true)
	l, err := c.Search(t.Context(), "weather", "")
	if err != nil || len(l.Servers) != 1 {
		t.Fatalf("search of a v0 registry: %v %+v", err, l)
	}
	if s, err := c.Get(t.Context(), "io.github.example/weather"); err != nil || s.Server.Version != "1.4.2" {
		t.Fatalf("get from a v0 registry: %v", err)
	}
	if _, err := c.Get(t.Context(), "io.github.example/nope"); !errors.Is(err, mcpregistry.ErrNotFound) {
		t.Errorf("an unknown server of a v0 registry: %v", err)
	}

	c.BaseURL = reg.URL + "/not-a-registry"
	_, err = c.Search(t.Context(), "", "")
	if !errors.Is(err, mcpregistry.ErrNotRegistry) || errors.Is(err, mcpregistry.ErrNotFound) {
		t.Fatalf("not a registry: %v", err)
	}
	if s, _ := plain.Explain(err); s != c.BaseURL+" answers, but not as an MCP Registry: check the registry address (Settings → Servers → MCP Registry, or --registry)." {
		t.Errorf("sentence %q", s)
	}
	if _, err := c.Get(t.Context(), "io.github.example/weather"); !errors.Is(err, mcpregistry.ErrNotRegistry) || errors.Is(err, mcpregistry.ErrNotFound) {
		t.Errorf("get from an address that is not a registry: %v", err)
	}
}

// TestRegistryURLs: https, or plain http to this computer only; a name
// that only starts like one, another scheme or no host is refused before
// any connection, saying what the address must be.
func TestRegistryURLs(t *testing.T) {
	for raw, ok := range map[string]bool{
		"https://registry.modelcontextprotocol.io": true,
		"http://127.0.0.1:8080":                    true,
		"http://localhost:9000/base":               true,
		"http://[::1]:8080":                        true,
		"http://localhost.evil.example":            false,
		"http://127.0.0.1.nip.io":                  false,
		"http://registry.example.com":              false,
		"ftp://x":                                  false,
		"registry.example.com":                     false,
		"https://":                                 false,
	} {
		err := mcpregistry.CheckRegistryURL(raw)
		if (err == nil) != ok || err != nil && !errors.Is(err, mcpregistry.ErrBadURL) {
			t.Errorf("%s: %v", raw, err)
		}
	}
	c := &mcpregistry.Client{BaseURL: "ftp://x", CacheFile: filepath.Join(t.TempDir(), "cache.json")}
	_, err := c.Search(t.Context(), "", "")
	if !errors.Is(err, mcpregistry.ErrBadURL) || errors.Is(err, mcpregistry.ErrUnreachable) || !strings.Contains(err.Error(), "must be an https:// URL") {
		t.Errorf("ftp registry: %v", err)
	}
}
