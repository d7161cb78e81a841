package config

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSurvey: a config with one invalid entry among valid ones is found,
// with both counts; a broken file is found with its problem; a VS Code
// settings.json without MCP servers is not listed.
func TestSurvey(t *testing.T) {
	home := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(home, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(".config/Claude/claude_desktop_config.json", `{
  "mcpServers": {
    "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]},
    "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]},
    "remote": {"url": "https://example.com/mcp"},
    "git": {"command": "uvx", "args": ["mcp-server-git"]},
    "weather": {"args": ["weather.js"]}
  }
}`)
	write(".cursor/mcp.json", `{"mcpServers": {"a": {"command": "x"},}`) // unclosed
	write(".config/Code/User/settings.json", `{"editor.fontSize": 14}`)
	write(".codeium/windsurf/mcp_config.json", `{"mcpServers": {}}`)

	got := map[string]Found{}
	for _, f := range Survey(t.Context(), Env{GOOS: "linux", Home: home}) {
		got[f.App] = f
	}
	tests := []struct {
		app     string
		servers int
		attn    int
		problem bool
		summary string
	}{
		{"Claude Desktop", 4, 1, false, "5 servers, 1 needs attention"},
		{"Cursor", 0, 0, true, ""},
		{"Windsurf", 0, 0, false, "no servers"},
	}
	for _, tt := range tests {
		f, ok := got[tt.app]
		if !ok {
			t.Errorf("%s: not found; got %v", tt.app, got)
			continue
		}
		if f.Servers != tt.servers || f.NeedsAttention != tt.attn || (f.Problem != "") != tt.problem {
			t.Errorf("%s: got %+v", tt.app, f)
		}
		if tt.summary != "" && f.Summary() != tt.summary {
			t.Errorf("%s: summary %q, want %q", tt.app, f.Summary(), tt.summary)
		}
	}
	if f := got["Cursor"]; f.Problem != "" && f.Summary()[:len("cannot be read: line ")] != "cannot be read: line " {
		t.Errorf("Cursor: a syntax error should name its line: %q", f.Summary())
	}
	// Imported, the counts say so; the entry that needed attention, fixed
	// and imported under its name, needs none any more (#46).
	claude := got["Claude Desktop"]
	for _, tt := range []struct {
		have    []string
		summary string
	}{
		{nil, "5 servers, 1 needs attention"},
		{[]string{"memory", "fs"}, "5 servers, 2 imported, 1 needs attention"},
		{[]string{"memory", "fs", "remote", "git", "weather", "other"}, "5 servers, all imported"},
		{[]string{"weather"}, "5 servers, 1 imported"},
	} {
		f := claude.MarkImported(tt.have)
		if f.Summary() != tt.summary || f.Total() != 5 {
			t.Errorf("MarkImported(%v): %q (total %d), want %q", tt.have, f.Summary(), f.Total(), tt.summary)
		}
	}
	if _, ok := got["VS Code"]; ok {
		t.Errorf("a settings.json without MCP servers is listed: %+v", got["VS Code"])
	}
}
