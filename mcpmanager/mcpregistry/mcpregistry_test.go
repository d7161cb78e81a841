package mcpregistry_test

import (
	"errors"
	"maps"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry"
	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry/mcpregistrytest"
	"github.com/switchboard-app/switchboard/mcpmanager/plain"
)

func start(t *testing.T) (*mcpregistrytest.Registry, *mcpregistry.Client) {
	t.Helper()
	reg, err := mcpregistrytest.Start(t.Context(), 5)
	if err != nil {
		t.Fatal(err)
	}
	return reg, &mcpregistry.Client{BaseURL: reg.URL, CacheFile: filepath.Join(t.TempDir(), "registry-cache.json")}
}

// Search follows nextCursor through every page; a search narrows it.
func TestSearchPages(t *testing.T) {
	old := mcpregistry.PageLimit
	t.Cleanup(func() { mcpregistry.PageLimit = old })
	mcpregistry.PageLimit = 3
	_, c := start(t)
	var names []string
	pages := 0
	for cursor := ""; ; pages++ {
		l, err := c.Search(t.Context(), "", cursor)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range l.Servers {
			names = append(names, s.Server.Name)
		}
		if l.NextCursor == "" {
			break
		}
		cursor = l.NextCursor
	}
	if pages != 2 || len(names) != 9 || names[0] != "io.github.example/weather" || names[8] != "io.github.example/filler-5" {
		t.Fatalf("%d pages: %v", pages+1, names)
	}
	l, err := c.Search(t.Context(), "tickets", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Servers) != 1 || l.Servers[0].Server.Name != "com.example/tickets" || l.NextCursor != "" {
		t.Fatalf("search tickets: %+v", l)
	}
}

// The registry down: the last listing comes back marked stale with its
// time; a search never made fails with ErrUnreachable.
func TestSearchCachedWhenUnreachable(t *testing.T) {
	reg, c := start(t)
	fresh, err := c.Search(t.Context(), "weather", "")
	if err != nil {
		t.Fatal(err)
	}
	reg.Down.Store(true)
	l, err := c.Search(t.Context(), "weather", "")
	if err != nil {
		t.Fatal(err)
	}
	if !l.Stale || !l.FetchedAt.Equal(fresh.FetchedAt) || len(l.Servers) != 1 || !strings.Contains(l.Why, "HTTP 503") {
		t.Fatalf("stale listing: %+v", l)
	}
	if _, err := c.Search(t.Context(), "never-searched", ""); !errors.Is(err, mcpregistry.ErrUnreachable) {
		t.Fatalf("uncached search: %v", err)
	}
	if _, err := c.Get(t.Context(), "io.github.example/weather"); !errors.Is(err, mcpregistry.ErrUnreachable) {
		t.Fatalf("get while down: %v", err)
	}
}

func TestEntry(t *testing.T) {
	_, c := start(t)
	tests := []struct {
		name   string
		server string
		values map[string]string
		want   config.Server
		asks   []string // keys, in order
		err    error
	}{
		{"npm pinned, secret env, variable default", "io.github.example/weather",
			map[string]string{"WEATHER_API_KEY": "${secret:weather_WEATHER_API_KEY}"},
			config.Server{Name: "weather", Transport: config.Stdio, Command: "npx", Args: []string{"-y", "@example/weather-mcp@1.4.2", "--units", "metric"},
				Env: map[string]string{"WEATHER_API_KEY": "${secret:weather_WEATHER_API_KEY}", "WEATHER_REGION": "eu"}},
			[]string{"units", "WEATHER_API_KEY", "WEATHER_REGION"}, nil},
		{"npm without its required secret", "io.github.example/weather", nil, config.Server{}, nil, mcpregistry.ErrMissing},
		{"pypi pinned with runtime and package arguments", "io.github.example/time-py", map[string]string{"timezone": "Europe/Paris"},
			config.Server{Name: "time-py", Transport: config.Stdio, Command: "uvx", Args: []string{"--python", "3.12", "mcp-server-time==0.6.2", "--local-timezone", "Europe/Paris"}},
			[]string{"timezone"}, nil},
		{"oci tagged, env passed to docker", "io.github.example/github-oci", map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "${secret:gh}"},
			config.Server{Name: "github-oci", Transport: config.Stdio, Command: "docker",
				Args: []string{"run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/example/github-mcp-server:0.5.0", "stdio"},
				Env:  map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "${secret:gh}"}},
			[]string{"GITHUB_PERSONAL_ACCESS_TOKEN"}, nil},
		{"remote with URL variable and headers", "com.example/tickets", map[string]string{"tenant": "acme", "api_token": "${secret:t}", "X-Team": "blue"},
			config.Server{Name: "tickets", Transport: config.HTTP, URL: "https://acme.tickets.example.com/mcp",
				Headers: map[string]string{"Authorization": "Bearer ${secret:t}", "X-Team": "blue"}},
			[]string{"tenant", "api_token", "X-Team"}, nil},
		{"remote without its tenant", "com.example/tickets", map[string]string{"api_token": "x"}, config.Server{}, nil, mcpregistry.ErrMissing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := c.Get(t.Context(), tt.server)
			if err != nil {
				t.Fatal(err)
			}
			opts := mcpregistry.Options(s.Server)
			if len(opts) != 1 {
				t.Fatalf("options %v", opts)
			}
			if tt.asks != nil {
				var keys []string
				for _, a := range mcpregistry.Asks(s.Server, opts[0]) {
					keys = append(keys, a.Key)
				}
				if !slices.Equal(keys, tt.asks) {
					t.Errorf("asks %v, want %v", keys, tt.asks)
				}
			}
			got, err := mcpregistry.Entry(s.Server, opts[0], tt.values)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("err = %v, want %v", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != tt.want.Name || got.Transport != tt.want.Transport || got.Command != tt.want.Command || got.URL != tt.want.URL ||
				!slices.Equal(got.Args, tt.want.Args) || !maps.Equal(got.Env, tt.want.Env) || !maps.Equal(got.Headers, tt.want.Headers) {
				t.Errorf("entry\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
	if _, err := c.Get(t.Context(), "io.github.example/nope"); !errors.Is(err, mcpregistry.ErrNotFound) {
		t.Errorf("unknown server: %v", err)
	}
}

// A registry that refuses connections (offline, or nothing listening at
// its address) is said to be offline in plain words, the network's own
// words kept as the detail, and the last listing comes back with it.
func TestRefusedConnectionSaysOffline(t *testing.T) {
	reg, err := mcpregistrytest.Start(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(reg) // its own listener, closed below: then 127.0.0.1 refuses
	c := &mcpregistry.Client{BaseURL: srv.URL, CacheFile: filepath.Join(t.TempDir(), "registry-cache.json")}
	fresh, err := c.Search(t.Context(), "", "")
	if err != nil {
		t.Fatal(err)
	}
	srv.Close()
	l, err := c.Search(t.Context(), "", "")
	if err != nil {
		t.Fatal(err)
	}
	sentence, detail, _ := strings.Cut(l.Why, "\n")
	want := "The MCP Registry at " + srv.URL + " is offline or cannot be reached: check your internet connection (or the registry address in Settings → Servers → MCP Registry), then search again."
	if !l.Stale || sentence != want || !strings.Contains(detail, "connection refused") || len(l.Servers) != len(fresh.Servers) || !l.FetchedAt.Equal(fresh.FetchedAt) {
		t.Fatalf("stale listing: stale %v, %d servers\nsentence %q\nwant     %q\ndetail %q", l.Stale, len(l.Servers), sentence, want, detail)
	}
	_, err = c.Search(t.Context(), "never-searched", "")
	if s, d := plain.Explain(err); !errors.Is(err, mcpregistry.ErrUnreachable) || s != want || !strings.Contains(d, "dial tcp") {
		t.Fatalf("uncached search: %q / %q (%v)", s, d, err)
	}
}
