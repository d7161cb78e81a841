package host

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The apps with a format of their own (Codex's TOML, Goose's and
// Continue's YAML, opencode's and Zed's JSON) import like an mcpServers
// file: every server the app runs, in the file's order, with its command,
// environment, URL and headers, switched off where the app had it off.
func TestImportAppFormats(t *testing.T) {
	type want struct {
		command  string
		args     []string
		env      map[string]string
		url      string
		headers  map[string]string
		disabled bool
	}
	for _, c := range []struct {
		file string
		want map[string]want
		// order is the servers' order in the plan: the file's.
		order []string
	}{
		{"config.toml", map[string]want{
			"docs":  {command: "docs-server", args: []string{"--port", "4000"}, env: map[string]string{"LOG_LEVEL": "debug"}},
			"figma": {url: "https://mcp.figma.com/mcp", headers: map[string]string{"Authorization": "Bearer ${env:FIGMA_OAUTH_TOKEN}"}},
			"off":   {command: "off-server", disabled: true},
		}, []string{"docs", "figma", "off"}},
		{"goose.yaml", map[string]want{ // the built-in "developer" is Goose's own, not a server
			"github": {command: "npx", args: []string{"-y", "@modelcontextprotocol/server-github"}, env: map[string]string{"GITHUB_API_URL": "https://api.github.com"}},
			"memory": {command: "npx", args: []string{"-y", "@modelcontextprotocol/server-memory"}, disabled: true},
		}, []string{"github", "memory"}},
		{"continue.yaml", map[string]want{
			"SQLite MCP": {command: "npx", args: []string{"-y", "mcp-sqlite", "/path/to/your/database.db"}, env: map[string]string{"SQLITE_MODE": "ro"}},
		}, []string{"SQLite MCP"}},
		{"opencode.jsonc", map[string]want{
			"everything": {command: "npx", args: []string{"-y", "@modelcontextprotocol/server-everything"}, env: map[string]string{"MODE": "full"}},
			"remote":     {url: "https://mcp.example.com/mcp", disabled: true},
		}, []string{"everything", "remote"}},
		{"zed.json", map[string]want{
			"postgres":  {command: "pg-mcp", args: []string{"--ro"}},
			"old-style": {command: "/usr/bin/node", args: []string{"server.js"}, env: map[string]string{"A": "b"}},
		}, []string{"postgres", "old-style"}},
	} {
		t.Run(c.file, func(t *testing.T) {
			h := open(t)
			path := filepath.Join("testdata", "appformats", c.file)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			dry, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: c.file, Data: data, DryRun: true})
			if err != nil {
				t.Fatal(err)
			}
			var order []string
			for _, it := range dry.Plan.Items {
				order = append(order, it.Name)
				if len(it.Problems) > 0 {
					t.Errorf("%s: problems %v", it.Name, it.Problems)
				}
			}
			if !slices.Equal(order, c.order) {
				t.Errorf("plan = %q, want %q", order, c.order)
			}
			res, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: c.file, Path: path, Data: data})
			if err != nil {
				t.Fatal(err)
			}
			if res.Imported != len(c.want) {
				t.Errorf("imported %d, want %d", res.Imported, len(c.want))
			}
			for name, w := range c.want {
				s, ok := h.Servers.Get(name)
				if !ok {
					t.Errorf("%s not in config.json", name)
					continue
				}
				if s.Command != w.command || !slices.Equal(s.Args, w.args) || !maps.Equal(s.Env, w.env) ||
					s.URL != w.url || !maps.Equal(s.Headers, w.headers) || s.Disabled != w.disabled {
					t.Errorf("%s = command %q args %q env %v url %q headers %v disabled %v, want %+v",
						name, s.Command, s.Args, s.Env, s.URL, s.Headers, s.Disabled, w)
				}
			}
		})
	}
}

// A file in an app's format that cannot be imported says why, in the
// file's own terms, and no problem carries a line of the converted
// document in place of the file's.
func TestImportAppFormatErrors(t *testing.T) {
	h := open(t)
	for _, c := range []struct{ name, data, want string }{
		{"config.toml", "model = \"o3\"\n[mcp_servers.a\n", "config.toml:2:15: toml: expected ']' to close table name (read as Codex's config); fix the file and import it again"},
		{"config.yaml", "extensions:\n  a:\n    cmd: x\n  \targs: [\n", "config.yaml:3:1: found a tab character that violates indentation (read as Goose's config)"},
		{"config.toml", "model = \"o3\"\n", `read as Codex's config: it has no servers under "mcp_servers" to import`},
	} {
		_, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: c.name, Data: []byte(c.data), DryRun: true})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: err = %v, want it to say %q", c.name, c.data, err, c.want)
		}
	}
	// An entry the app would not run either is the plan's, with its problem.
	res, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: "opencode.json", Data: []byte(`{"mcp": {"a": {"type": "local", "command": []}}}`), DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Invalid != 1 || len(res.Plan.Items) != 1 || len(res.Plan.Items[0].Problems) == 0 {
		t.Fatalf("plan = %+v, want one invalid entry with its problem", res.Plan)
	}
	for _, p := range res.Plan.Items[0].Problems {
		if p.Line != 0 || !strings.HasPrefix(p.Path, "mcpServers.a") {
			t.Errorf("problem %q: line %d, path %q; want no line (the converted document's) and the entry's path", p, p.Line, p.Path)
		}
	}
}
