package host

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
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
		include  []string
		exclude  []string
		startup  time.Duration
		tool     time.Duration
		sse      bool // the older HTTP + SSE transport
		cwd      string
	}
	for _, c := range []struct {
		file string
		want map[string]want
		// order is the servers' order in the plan: the file's.
		order []string
		// leftOut are the entries only the app can start, each said so.
		leftOut []string
	}{
		{"config.toml", map[string]want{
			// env_vars: passed on from the environment (a value of its own wins);
			// env_http_headers: a header's value from the environment.
			"docs": {command: "docs-server", args: []string{"--port", "4000"}, cwd: "/srv/docs", env: map[string]string{"LOG_LEVEL": "debug", "DOCS_TOKEN": "${env:DOCS_TOKEN}"},
				include: []string{"search", "read_page", "delete_page"}, exclude: []string{"delete_page"}, startup: 20 * time.Second, tool: 90500 * time.Millisecond},
			"figma": {url: "https://mcp.figma.com/mcp", headers: map[string]string{"Authorization": "Bearer ${env:FIGMA_OAUTH_TOKEN}", "X-Workspace": "${env:FIGMA_WORKSPACE}"}},
			"off":   {command: "off-server", disabled: true},
		}, []string{"docs", "figma", "off"}, nil},
		{"goose.yaml", map[string]want{ // the built-in "developer" is Goose's own, not a server
			"github": {command: "npx", args: []string{"-y", "@modelcontextprotocol/server-github"}, tool: 300 * time.Second, // Goose's timeout, in seconds
				// env_keys: values in Goose's own keyring, read from the environment here
				env: map[string]string{"GITHUB_API_URL": "https://api.github.com", "GITHUB_PERSONAL_ACCESS_TOKEN": "${env:GITHUB_PERSONAL_ACCESS_TOKEN}"}},
			"memory": {command: "npx", args: []string{"-y", "@modelcontextprotocol/server-memory"}, disabled: true},
		}, []string{"github", "memory"}, []string{"extensions.developer"}},
		{"continue.yaml", map[string]want{
			"SQLite MCP": {command: "npx", args: []string{"-y", "mcp-sqlite", "/path/to/your/database.db"}, env: map[string]string{"SQLITE_MODE": "ro"}},
			"Old SSE":    {url: "http://localhost:8000/sse", sse: true},
			"Streamable": {url: "https://mcp.example.com/mcp"},
		}, []string{"SQLite MCP", "Old SSE", "Streamable"}, nil},
		{"opencode.jsonc", map[string]want{
			"everything": {command: "npx", args: []string{"-y", "@modelcontextprotocol/server-everything"}, env: map[string]string{"MODE": "full"}},
			// opencode's {env:NAME} is Switchboard's ${env:NAME}, not a token for the keyring.
			"remote": {url: "https://mcp.example.com/mcp", disabled: true, headers: map[string]string{"Authorization": "Bearer ${env:REMOTE_TOKEN}"}},
		}, []string{"everything", "remote"}, nil},
		{"zed.json", map[string]want{ // "from-extension" is one only Zed can start
			"postgres":  {command: "pg-mcp", args: []string{"--ro"}},
			"old-style": {command: "/usr/bin/node", args: []string{"server.js"}, env: map[string]string{"A": "b"}},
			"off":       {command: "off-server", disabled: true}, // Zed's "enabled": false
		}, []string{"postgres", "old-style", "off"}, []string{"context_servers.from-extension"}},
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
			var order, leftOut []string
			for _, it := range dry.Plan.Items {
				order = append(order, it.Name)
				for _, p := range it.Problems {
					if strings.HasPrefix(p.Message, "is left out: ") && it.Name == c.order[0] {
						leftOut = append(leftOut, p.Path) // said with the first server
						continue
					}
					t.Errorf("%s: problem %v", it.Name, p)
				}
			}
			if !slices.Equal(leftOut, c.leftOut) {
				t.Errorf("entries said to be left out: %q, want %q", leftOut, c.leftOut)
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
					s.URL != w.url || !maps.Equal(s.Headers, w.headers) || s.Disabled != w.disabled ||
					!slices.Equal(s.IncludeTools, w.include) || !slices.Equal(s.ExcludeTools, w.exclude) ||
					s.StartupTimeout != w.startup || s.ToolTimeout != w.tool || (s.Transport == config.SSE) != w.sse || s.Cwd != w.cwd {
					t.Errorf("%s = command %q args %q cwd %q env %v url %q headers %v disabled %v, want %+v",
						name, s.Command, s.Args, s.Cwd, s.Env, s.URL, s.Headers, s.Disabled, w)
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
		{"settings.json", `{"context_servers": {"mcp-server-context7": {"source": "extension", "settings": {}}}}`, `read as Zed's config: its 1 server(s) under "context_servers" are ones only Zed can start`},
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

// Claude Code's per-project servers (where 'claude mcp add' writes by
// default) come with the user ones, each marked with its project; the
// person can skip one, and a project server's secret goes to the keyring
// like any other.
func TestImportClaudeCodeProjects(t *testing.T) {
	h := open(t)
	data := []byte(`{
  "numStartups": 3,
  "mcpServers": {"memory": {"type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}},
  "projects": {
    "/home/me/web": {"allowedTools": [], "mcpServers": {
      "playwright": {"type": "stdio", "command": "npx", "args": ["@playwright/mcp@latest"]},
      "memory": {"type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}
    }},
    "/home/me/api": {"mcpServers": {
      "db": {"type": "stdio", "command": "uvx", "args": ["mcp-server-postgres"], "env": {"PGPASSWORD": "hunter2-very-secret"}},
      "memory": {"type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory", "--api"]}
    }}
  }
}`)
	dry, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: ".claude.json", Data: data, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, it := range dry.Plan.Items {
		order = append(order, it.Name)
		marked := slices.ContainsFunc(it.Problems, func(p config.Problem) bool {
			return strings.Contains(p.Message, "Claude Code runs it only in the project /home/me/")
		})
		if marked != (it.Name != "memory") {
			t.Errorf("%s: problems %v", it.Name, it.Problems)
		}
	}
	if want := []string{"memory", "playwright", "db", "memory-api"}; !slices.Equal(order, want) {
		t.Errorf("plan = %q, want %q", order, want)
	}
	res, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: ".claude.json", Data: data, Resolutions: map[string]Resolution{"playwright": Keep}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Imported != 3 {
		t.Errorf("imported %d, want 3", res.Imported)
	}
	if _, ok := h.Servers.Get("playwright"); ok {
		t.Error("the skipped playwright was imported")
	}
	if s, ok := h.Servers.Get("memory-api"); !ok || !slices.Contains(s.Args, "--api") {
		t.Errorf("memory-api = %+v, %v", s, ok)
	}
	db, ok := h.Servers.Get("db")
	if !ok || !strings.HasPrefix(db.Env["PGPASSWORD"], "${secret:") {
		t.Errorf("db's password in config.json: %q (%v)", db.Env["PGPASSWORD"], ok)
	}
	raw, _ := os.ReadFile(h.Dir().Config())
	if strings.Contains(string(raw), "hunter2") {
		t.Error("config.json holds the project server's password")
	}
}

// Discover lists the apps with a format of their own too, counted the way
// an import reads them (Claude Code's project servers included), and the
// wizard may read what it lists.
func TestDiscoverAppFormats(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	codex, err := os.ReadFile(filepath.Join("testdata", "appformats", "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // no project files
	write := func(rel, body string) string {
		t.Helper()
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	codexPath := write(".codex/config.toml", string(codex))
	write(".claude.json", `{"mcpServers": {"a": {"command": "a"}}, "projects": {"/w": {"mcpServers": {"b": {"command": "b"}, "c": {"type": "stdio"}}}}}`)
	write(".continue/config.yaml", "name: x\nmcpServers:\n  - name: a\n    command: [\n")
	write(".config/goose/config.yaml", "extensions:\n  developer:\n    type: builtin\n    name: developer\n") // only Goose's own: nothing to import
	got := map[string]string{}
	for _, f := range Discover(t.Context()) {
		got[f.App] = f.Summary()
	}
	want := map[string]string{
		"Codex":       "3 servers",
		"Claude Code": "3 servers, 1 needs attention",
		"Continue":    "cannot be read: line 4:1: did not find expected node content (read as Continue's config); fix the file and import it again",
	}
	if !maps.Equal(got, want) {
		t.Errorf("Discover = %q, want %q", got, want)
	}
	h := open(t)
	if text, err := h.ServerFiles.ReadDiscovered(codexPath); err != nil || text != string(codex) {
		t.Errorf("ReadDiscovered(%s) = %d bytes, %v", codexPath, len(text), err)
	}
}
