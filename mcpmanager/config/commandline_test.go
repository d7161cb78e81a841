package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSplitCommandLines(t *testing.T) {
	spaced := filepath.Join(t.TempDir(), "My Tools", "server")
	if err := os.MkdirAll(filepath.Dir(spaced), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(spaced, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, entry string
		command     string
		args        []string
		warned      bool
	}{
		{"a command line", `{"command": "npx -y @modelcontextprotocol/server-memory"}`, "npx", []string{"-y", "@modelcontextprotocol/server-memory"}, true},
		{"extra spaces", `{"command": "  uvx   mcp-server-fetch "}`, "uvx", []string{"mcp-server-fetch"}, true},
		{"a path with a space", `{"command": "` + spaced + `"}`, spaced, nil, false},
		{"args given", `{"command": "npx -y", "args": ["x"]}`, "npx -y", []string{"x"}, false},
		{"quoted", `{"command": "\"/opt/my tools/server\" --stdio"}`, `"/opt/my tools/server" --stdio`, nil, false},
		{"a variable", `{"command": "${env:TOOLS}/server --stdio"}`, "${env:TOOLS}/server --stdio", nil, false},
		{"one word", `{"command": "npx"}`, "npx", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := ParseContext(t.Context(), "c.json", []byte(`{"mcpServers": {"s": `+c.entry+`}}`))
			if err != nil {
				t.Fatal(err)
			}
			got := f.SplitCommandLines()
			s := serverNamed(t, got, "s")
			if s.Command != c.command || !slices.Equal(s.Args, c.args) {
				t.Errorf("command %q args %q, want %q %q", s.Command, s.Args, c.command, c.args)
			}
			var warned []string
			for _, p := range got.Entries[0].Problems {
				warned = append(warned, p.Path+": "+p.Message)
			}
			if c.warned != (len(warned) == 1 && strings.HasPrefix(warned[0], "mcpServers.s.command: held the whole command line: split into the command ")) {
				t.Errorf("problems %q, want a warning: %v", warned, c.warned)
			}
			if c.warned && f.Entries[0].Server.Command == s.Command {
				t.Errorf("SplitCommandLines changed f itself")
			}
		})
	}
	// A remote server's URL is not a command line.
	f, _ := ParseContext(t.Context(), "c.json", []byte(`{"mcpServers": {"r": {"url": "https://x.example.com/mcp a"}}}`))
	if got := f.SplitCommandLines(); len(got.Entries[0].Problems) != len(f.Entries[0].Problems) {
		t.Errorf("a remote server got %v", got.Entries[0].Problems)
	}
}
