package config

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestReadEnvFile(t *testing.T) {
	dir := t.TempDir()
	write := func(body string) string {
		t.Helper()
		p := filepath.Join(dir, "x.env")
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	got, err := ReadEnvFile(write("\ufeff# comment\n\nA=1\nexport B = two words \nC=\"quoted # not a comment\\nnext\"\nD='single $HOME \\n'\nE=value # a comment\nF=\nG=\"a \\\"q\\\"\"\nH=x=y\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"A": "1", "B": "two words", "C": "quoted # not a comment\nnext", "D": `single $HOME \n`, "E": "value", "F": "", "G": `a "q"`, "H": "x=y"}
	if !maps.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	for _, c := range []struct{ body, want string }{
		{"A=1\nnot a variable\n", `x.env:2: "not a variable" is not KEY=VALUE`},
		{"A=1\n1BAD=x\n", `x.env:2: "1BAD=x" is not KEY=VALUE`},
		{"A=\"open\n", `x.env:1: A: the value's " is not closed`},
		{"A='open\n", `x.env:1: A: the value's ' is not closed`},
	} {
		if _, err := ReadEnvFile(write(c.body)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want %q", c.body, err, c.want)
		}
	}
	if _, err := ReadEnvFile(filepath.Join(dir, "missing.env")); err == nil || !strings.Contains(err.Error(), `create it, or remove "envFile"`) {
		t.Errorf("missing file: %v", err)
	}
}

// "envFile" is kept through a save, compared by an import, and a remote
// server's is flagged as having no effect.
func TestEnvFileEntry(t *testing.T) {
	f, err := ParseContext(t.Context(), "c.json", []byte(`{"mcpServers": {
  "l": {"command": "node", "envFile": "/srv/app/.env"},
  "r": {"url": "https://mcp.example.com/mcp", "envFile": "/srv/app/.env"},
  "rel": {"command": "node", "envFile": ".env"},
  "var": {"command": "node", "envFile": "${workspaceFolder}/.env"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	l := serverNamed(t, f, "l")
	if l.EnvFile != "/srv/app/.env" || l.Extra["envFile"] != nil {
		t.Errorf("envFile = %q, extra %s", l.EnvFile, l.Extra["envFile"])
	}
	raw, err := l.MarshalJSON()
	if err != nil || !strings.Contains(string(raw), `"envFile":"/srv/app/.env"`) {
		t.Errorf("saved as %s (%v)", raw, err)
	}
	other := l.Clone()
	other.EnvFile = "/srv/other/.env"
	if d := Diff(l, other); len(d) != 1 || d[0].Field != "envFile" {
		t.Errorf("Diff = %v", d)
	}
	probs := f.Entries[1].Problems
	if len(probs) != 1 || probs[0].Severity != SeverityWarning || probs[0].Path != "mcpServers.r.envFile" {
		t.Errorf("remote entry's problems: %v", probs)
	}
	if probs := f.Entries[2].Problems; len(probs) != 1 || !strings.Contains(probs[0].Message, "is not an absolute path, so the server will not start") {
		t.Errorf("a relative envFile: %v", probs)
	}
	if probs := f.Entries[3].Problems; len(probs) != 0 {
		t.Errorf("an envFile with a variable (reported by ExpandVariables): %v", probs)
	}
}

// Gemini CLI's includeTools and excludeTools, and Roo Code's and Kiro's
// disabledTools (read as excludeTools), are kept, saved under Switchboard's
// names and compared by an import.
func TestToolFilterEntry(t *testing.T) {
	f, err := ParseContext(t.Context(), "c.json", []byte(`{"mcpServers": {
  "gemini": {"command": "x", "includeTools": ["read", "list"], "excludeTools": ["list"]},
  "roo": {"command": "x", "disabledTools": ["write_file"]},
  "bad": {"command": "x", "excludeTools": "write_file"}}}`))
	if err == nil || !strings.Contains(err.Error(), "mcpServers.bad.excludeTools: must be an array of strings") {
		t.Fatalf("err = %v", err)
	}
	g, r := serverNamed(t, f, "gemini"), serverNamed(t, f, "roo")
	if !slices.Equal(g.IncludeTools, []string{"read", "list"}) || !slices.Equal(g.ExcludeTools, []string{"list"}) || !slices.Equal(r.ExcludeTools, []string{"write_file"}) {
		t.Errorf("gemini %q %q, roo %q", g.IncludeTools, g.ExcludeTools, r.ExcludeTools)
	}
	raw, _ := r.MarshalJSON()
	if !strings.Contains(string(raw), `"excludeTools":["write_file"]`) || strings.Contains(string(raw), "disabledTools") {
		t.Errorf("saved as %s", raw)
	}
	other := g.Clone()
	other.ExcludeTools = nil
	if d := Diff(g, other); len(d) != 1 || d[0].String() != `excludeTools: removed` {
		t.Errorf("Diff = %v", d)
	}
	if g.ExcludeTools[0] != "list" {
		t.Error("Clone shares the list")
	}
}
