// Package mcpregistrytest serves the MCP Registry's generic API v0.1 on
// 127.0.0.1 with server.json documents shaped like the registry's
// published examples (an npm package with a secret variable, a PyPI
// package, an OCI image, a remote with headers and a URL variable), and
// more servers after them so that listings take several pages.
package mcpregistrytest

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Documents are the server.json documents served, in listing order.
var Documents = []string{
	`{
  "$schema": "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json",
  "name": "io.github.example/weather",
  "title": "Weather",
  "description": "Forecasts and alerts from a weather API",
  "version": "1.4.2",
  "repository": {"url": "https://github.com/example/weather-mcp", "source": "github"},
  "packages": [{
    "registryType": "npm",
    "registryBaseUrl": "https://registry.npmjs.org",
    "identifier": "@example/weather-mcp",
    "version": "1.4.2",
    "transport": {"type": "stdio"},
    "packageArguments": [{"type": "named", "name": "--units", "value": "{units}", "variables": {"units": {"description": "metric or imperial", "default": "metric", "choices": ["metric", "imperial"]}}}],
    "environmentVariables": [
      {"name": "WEATHER_API_KEY", "description": "Your weather API key", "isRequired": true, "isSecret": true},
      {"name": "WEATHER_REGION", "description": "Default region", "default": "eu"}
    ]
  }]
}`,
	`{
  "$schema": "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json",
  "name": "io.github.example/time-py",
  "description": "Time and timezone conversions",
  "version": "0.6.2",
  "packages": [{
    "registryType": "pypi",
    "registryBaseUrl": "https://pypi.org",
    "identifier": "mcp-server-time",
    "version": "0.6.2",
    "transport": {"type": "stdio"},
    "runtimeArguments": [{"type": "named", "name": "--python", "value": "3.12"}],
    "packageArguments": [{"type": "named", "name": "--local-timezone", "valueHint": "timezone", "isRequired": true, "description": "Your IANA timezone"}]
  }]
}`,
	`{
  "$schema": "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json",
  "name": "io.github.example/github-oci",
  "description": "GitHub's MCP server in a container",
  "version": "0.5.0",
  "packages": [{
    "registryType": "oci",
    "registryBaseUrl": "https://docker.io",
    "identifier": "ghcr.io/example/github-mcp-server",
    "version": "0.5.0",
    "transport": {"type": "stdio"},
    "packageArguments": [{"type": "positional", "value": "stdio"}],
    "environmentVariables": [{"name": "GITHUB_PERSONAL_ACCESS_TOKEN", "description": "A GitHub token", "isRequired": true, "isSecret": true}]
  }]
}`,
	`{
  "$schema": "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json",
  "name": "com.example/tickets",
  "description": "A hosted ticketing server",
  "version": "2.0.0",
  "remotes": [{
    "type": "streamable-http",
    "url": "https://{tenant}.tickets.example.com/mcp",
    "variables": {"tenant": {"description": "Your tenant", "isRequired": true}},
    "headers": [
      {"name": "Authorization", "description": "Bearer token", "isRequired": true, "isSecret": true, "value": "Bearer {api_token}", "variables": {"api_token": {"description": "API token", "isRequired": true, "isSecret": true}}},
      {"name": "X-Team", "description": "Your team id"}
    ]
  }]
}`,
}

// Registry is a running fake registry.
type Registry struct {
	URL      string
	Down     atomic.Bool // answer 503 to everything
	Requests atomic.Int64
	// V0Only serves the API v0 only (404 under /v0.1), as a registry not
	// updated since; by default both are served.
	V0Only atomic.Bool
	// EveryVersion ignores version=latest: listings hold every version,
	// as a registry that does not filter them.
	EveryVersion atomic.Bool

	mu   sync.Mutex
	docs []served
}

// Meta is what the registry says of a document beside it, in its _meta.
type Meta struct {
	Status      string // active ("" too), deprecated or deleted
	NotLatest   bool   // an older version of its server
	PublishedAt string // RFC 3339; "" is 2025-10-01
}

type served struct {
	doc  json.RawMessage
	meta Meta
}

// Add serves doc (a server.json) too, after the others, as its server's
// latest active version. It is safe to call while the registry serves.
func (r *Registry) Add(doc string) { r.AddMeta(doc, Meta{}) }

// AddMeta serves doc with the metadata m.
func (r *Registry) AddMeta(doc string, m Meta) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.docs = append(r.docs, served{json.RawMessage(doc), m})
}

// documents is what the registry serves now.
func (r *Registry) documents() []served {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.docs
}

// Start serves the documents plus filler servers (filler-1 … filler-N)
// until ctx ends.
func Start(ctx context.Context, fillers int) (*Registry, error) {
	r := &Registry{}
	for _, d := range Documents {
		r.docs = append(r.docs, served{doc: json.RawMessage(d)})
	}
	for i := 1; i <= fillers; i++ {
		r.docs = append(r.docs, served{doc: json.RawMessage(fmt.Sprintf(`{"name": "io.github.example/filler-%d", "description": "Filler server %d", "version": "1.0.%d",
			"packages": [{"registryType": "npm", "identifier": "@example/filler-%d", "version": "1.0.%d", "transport": {"type": "stdio"}}]}`, i, i, i, i, i))})
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r.URL = "http://" + ln.Addr().String()
	srv := &http.Server{Handler: r}
	go func() { _ = srv.Serve(ln) }()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	return r, nil
}

func (r *Registry) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.Requests.Add(1)
	if r.Down.Load() {
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	path, ok := strings.CutPrefix(req.URL.EscapedPath(), "/v0")
	if !r.V0Only.Load() {
		path = strings.TrimPrefix(path, ".1")
	}
	if !ok || !strings.HasPrefix(path, "/servers") {
		http.Error(w, `{"title":"Not Found","status":404}`, http.StatusNotFound)
		return
	}
	if path == "/servers" {
		r.list(w, req.URL.Query())
		return
	}
	if rest, ok := strings.CutPrefix(path, "/servers/"); ok {
		name, ok := strings.CutSuffix(rest, "/versions/latest")
		if n, err := url.PathUnescape(name); ok && err == nil {
			var found *served
			for _, d := range r.documents() {
				if docName(d.doc) == n && (found == nil || !d.meta.NotLatest) {
					found = &d
				}
			}
			if found != nil {
				_ = json.NewEncoder(w).Encode(map[string]any{"server": found.doc, "_meta": official(found.meta)})
				return
			}
		}
	}
	http.Error(w, `{"title":"Not Found","status":404}`, http.StatusNotFound)
}

func (r *Registry) list(w http.ResponseWriter, q url.Values) {
	limit, _ := strconv.Atoi(q.Get("limit"))
	if limit <= 0 || limit > 100 {
		limit = 30
	}
	search := strings.ToLower(q.Get("search"))
	latest := q.Get("version") == "latest" && !r.EveryVersion.Load()
	var match []served
	for _, d := range r.documents() {
		if latest && d.meta.NotLatest {
			continue
		}
		if search == "" || strings.Contains(strings.ToLower(docName(d.doc)), search) || strings.Contains(strings.ToLower(string(d.doc)), search) {
			match = append(match, d)
		}
	}
	start := 0
	if c := q.Get("cursor"); c != "" {
		for i, d := range match {
			if cursor(d) == c {
				start = i + 1
			}
		}
	}
	end := min(start+limit, len(match))
	servers := []map[string]any{}
	for _, d := range match[start:end] {
		servers = append(servers, map[string]any{"server": d.doc, "_meta": official(d.meta)})
	}
	meta := map[string]any{"count": len(servers)}
	if end < len(match) && end > 0 {
		meta["nextCursor"] = cursor(match[end-1])
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"servers": servers, "metadata": meta})
}

// cursor names d in a listing: its server's name, and the version of one
// that is not the latest.
func cursor(d served) string {
	if d.meta.NotLatest {
		var v struct {
			Version string `json:"version"`
		}
		_ = json.Unmarshal(d.doc, &v)
		return docName(d.doc) + ":" + v.Version
	}
	return docName(d.doc)
}

func docName(d json.RawMessage) string {
	var v struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(d, &v)
	return v.Name
}

func official(m Meta) map[string]any {
	return map[string]any{"io.modelcontextprotocol.registry/official": map[string]any{
		"status": cmp.Or(m.Status, "active"), "isLatest": !m.NotLatest, "publishedAt": cmp.Or(m.PublishedAt, "2025-10-01T00:00:00Z"),
	}}
}
