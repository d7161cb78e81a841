package config

import (
	"slices"
	"strings"
	"testing"
)

func TestWithProjectServers(t *testing.T) {
	const file = `{
  "mcpServers": {"fs": {"command": "npx", "args": ["fs", "/home/me"]}},
  "projects": {
    "/home/me/web": {"mcpServers": {
      "fs": {"command": "npx", "args": ["fs", "/home/me/web"]},
      "gh": {"type": "http", "url": "https://api.example.com/mcp/"}
    }},
    "/home/me/api": {"mcpServers": {
      "fs": {"command": "npx", "args": ["fs", "/home/me/web"]},
      "gh": {"type": "http", "url": "https://api.example.com/mcp/"},
      "broken": {"type": "stdio"}
    }},
    "C:\\Users\\me\\web": {"mcpServers": {"fs": {"command": "npx", "args": ["fs", "C:\\web"]}}},
    "/": {"mcpServers": {"fs": {"command": "npx", "args": ["fs", "/"]}}},
    "/home/me/old": {"allowedTools": []}
  }
}`
	f, err := ParseContext(t.Context(), ".claude.json", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	got := f.WithProjectServers()
	type want struct {
		name, path, arg string
		valid           bool
		renamed         bool
	}
	wants := []want{
		{"fs", "mcpServers.fs", "/home/me", true, false},
		// A different "fs" takes its project's folder name.
		{"fs-web", `projects["/home/me/web"].mcpServers.fs`, "/home/me/web", true, true},
		{"gh", `projects["/home/me/web"].mcpServers.gh`, "", true, false},
		// /home/me/api's fs and gh are web's again: imported once.
		{"broken", `projects["/home/me/api"].mcpServers.broken`, "", false, false},
		// "web" is taken by then, and "/" has no folder name: numbers.
		{"fs-2", `projects["C:\\Users\\me\\web"].mcpServers.fs`, `C:\web`, true, true},
		{"fs-3", `projects["/"].mcpServers.fs`, "/", true, true},
	}
	if len(got.Entries) != len(wants) {
		var names []string
		for _, e := range got.Entries {
			names = append(names, e.Name)
		}
		t.Fatalf("entries %q, want %d", names, len(wants))
	}
	for i, w := range wants {
		e := got.Entries[i]
		if e.Name != w.name || e.Path != w.path || e.Valid() != w.valid {
			t.Errorf("entry %d: %q at %s valid %v, want %q at %s valid %v", i, e.Name, e.Path, e.Valid(), w.name, w.path, w.valid)
		}
		if w.valid && e.Server.Name != w.name {
			t.Errorf("%s: server named %q", w.name, e.Server.Name)
		}
		if w.arg != "" && (len(e.Server.Args) != 2 || e.Server.Args[1] != w.arg) {
			t.Errorf("%s: args %q, want the one of %s", w.name, e.Server.Args, w.arg)
		}
		if i == 0 {
			if len(e.Problems) != 0 {
				t.Errorf("the user server got %v", e.Problems)
			}
			continue
		}
		last := e.Problems[len(e.Problems)-1]
		if last.Severity != SeverityWarning || !strings.HasPrefix(last.Message, "Claude Code runs it only in the project ") || last.Line == 0 {
			t.Errorf("%s: last problem %+v, want the project's warning at its line", w.name, last)
		}
		if w.renamed != strings.Contains(last.Message, `imported as "`+w.name+`", since a different server is called "fs"`) {
			t.Errorf("%s: %q, renamed %v", w.name, last.Message, w.renamed)
		}
	}
	var valid []string
	for _, s := range got.Servers {
		valid = append(valid, s.Name)
	}
	if !slices.Equal(valid, []string{"fs", "fs-web", "gh", "fs-2", "fs-3"}) {
		t.Errorf("servers %q", valid)
	}
	if len(got.Projects) != 0 || len(f.Entries) != 1 || len(f.Projects) != 4 {
		t.Errorf("projects left %d; f changed: %d entries, %d projects", len(got.Projects), len(f.Entries), len(f.Projects))
	}
	if err := got.Err(); err == nil || !strings.Contains(err.Error(), `projects["/home/me/api"].mcpServers.broken`) {
		t.Errorf("Err() = %v, want the broken project server's problem", err)
	}
	// A file without projects is returned as it is.
	plain, _ := ParseContext(t.Context(), "c.json", []byte(`{"mcpServers": {"a": {"command": "a"}}}`))
	if plain.WithProjectServers() != plain {
		t.Error("a file without projects was copied")
	}
}

func TestProjectBase(t *testing.T) {
	for in, want := range map[string]string{
		"/home/me/web": "web", "/home/me/web/": "web", `C:\Users\me\api`: "api", `C:\`: "", "/": "", "": "", "rel": "rel",
	} {
		if got := projectBase(in); got != want {
			t.Errorf("projectBase(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOpencodeTransportWords(t *testing.T) {
	f, err := ParseContext(t.Context(), "c.json", []byte(`{"mcpServers": {
  "l": {"type": "local", "command": "npx", "args": ["x"]},
  "r": {"type": "remote", "url": "https://mcp.example.com/mcp"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if l, r := serverNamed(t, f, "l"), serverNamed(t, f, "r"); l.Transport != Stdio || r.Transport != HTTP {
		t.Errorf("local → %q, remote → %q", l.Transport, r.Transport)
	}
}
