package config

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestVariablesFor(t *testing.T) {
	tests := []struct{ path, workspace string }{
		{"/home/me/src/site/.vscode/mcp.json", "/home/me/src/site"},
		{"/home/me/src/site/.cursor/mcp.json", "/home/me/src/site"},
		{"/home/me/.config/Code/User/mcp.json", ""},
		{"pasted config", ""},
		{".vscode/mcp.json", ""}, // relative: the caller passes the absolute path
	}
	for _, tt := range tests {
		if got := VariablesFor(tt.path, "/home/me"); got.Workspace != tt.workspace || got.Home != "/home/me" {
			t.Errorf("VariablesFor(%q) = %+v, want workspace %q", tt.path, got, tt.workspace)
		}
	}
}

func TestExpandVariables(t *testing.T) {
	src := `{
  "inputs": [{"id": "tok", "type": "promptString", "password": true}],
  "servers": {
    "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "${userHome}/Projects", "${workspaceFolder}${/}docs"],
           "env": {"TOKEN": "${input:tok}", "PATH_SEP": "${pathSeparator}", "KEEP": "${env:HOME}", "CC": "${API_KEY}"}},
    "odd": {"command": "run", "args": ["${file}", "--line=${lineNumber}", "${BASE:-/srv}"], "cwd": "${workspaceFolderBasename}"}
  }
}`
	f, err := ParseContext(t.Context(), "/home/me/site/.vscode/mcp.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := f.ExpandVariables(VariablesFor("/home/me/site/.vscode/mcp.json", "/home/me"))
	fs := serverNamed(t, got, "fs")
	sep := string(filepath.Separator)
	wantArgs := []string{"-y", "@modelcontextprotocol/server-filesystem", "/home/me/Projects", "/home/me/site" + sep + "docs"}
	if !slices.Equal(fs.Args, wantArgs) {
		t.Errorf("args = %q, want %q", fs.Args, wantArgs)
	}
	for k, want := range map[string]string{"TOKEN": "${input:tok}", "PATH_SEP": sep, "KEEP": "${env:HOME}", "CC": "${env:API_KEY}"} {
		if fs.Env[k] != want {
			t.Errorf("env %s = %q, want %q", k, fs.Env[k], want)
		}
	}
	odd := serverNamed(t, got, "odd")
	if odd.Cwd != "site" || odd.Args[0] != "${file}" || odd.Args[2] != "${env:BASE:-/srv}" {
		t.Errorf("odd = %+v: want ${workspaceFolderBasename} written out, ${file} kept and Claude Code's ${BASE:-/srv} read from the environment", odd)
	}
	var msgs []string
	for _, e := range got.Entries {
		for _, p := range e.Problems {
			if p.Severity != SeverityWarning {
				t.Errorf("%s: %s is not a warning", p.Path, p.Message)
			}
			msgs = append(msgs, p.Path+": "+p.Message)
		}
	}
	for _, want := range []string{
		"servers.fs.env.CC: ${API_KEY} is read from the environment when the server starts",
		"servers.odd.args[0]: uses ${file}, which Switchboard gives no value",
		"servers.odd.args[1]: uses ${lineNumber}",
		"servers.odd.args[2]: ${BASE:-/srv} is read from the environment when the server starts",
	} {
		if !slices.ContainsFunc(msgs, func(m string) bool { return strings.HasPrefix(m, want) }) {
			t.Errorf("no warning %q in\n%s", want, strings.Join(msgs, "\n"))
		}
	}
	if len(msgs) != 4 {
		t.Errorf("%d warnings, want 4:\n%s", len(msgs), strings.Join(msgs, "\n"))
	}
	// The input is still asked for, and the original file is untouched.
	if !slices.Equal(got.InputIDs(), []string{"tok"}) || f.Servers[0].Args[2] != "${userHome}/Projects" {
		t.Errorf("inputs %v, original args %q", got.InputIDs(), f.Servers[0].Args)
	}
}

func TestExpandVariablesPastedFile(t *testing.T) {
	f, err := ParseContext(t.Context(), "pasted config", []byte(`{"servers": {"fs": {"command": "x", "args": ["${workspaceFolder}/a", "${userHome}/b"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	got := f.ExpandVariables(VariablesFor("pasted config", "/home/me"))
	fs := serverNamed(t, got, "fs")
	if fs.Args[0] != "${workspaceFolder}/a" || fs.Args[1] != "/home/me/b" {
		t.Errorf("args = %q", fs.Args)
	}
	if p := got.Entries[0].Problems; len(p) != 1 || !strings.Contains(p[0].Message, "uses ${workspaceFolder}") {
		t.Errorf("problems = %v, want ${workspaceFolder} flagged", p)
	}
}

func TestUnresolvedVariables(t *testing.T) {
	s := Server{Name: "fs", Command: "x", Args: []string{"${userHome}/a", "${env:HOME}/b", "${secret:K}"}, Env: map[string]string{"A": "${X}"}}
	var got []string
	for _, p := range s.UnresolvedVariables() {
		got = append(got, p.Path)
	}
	if want := []string{"args[0]", "env.A"}; !slices.Equal(got, want) {
		t.Errorf("flagged %v, want %v", got, want)
	}
	if s.Args[0] != "${userHome}/a" {
		t.Errorf("UnresolvedVariables changed the server: %q", s.Args)
	}
}

// A whole value written "$NAME" (Gemini CLI's way of naming a variable
// of the environment) is said, not rewritten: only Gemini CLI reads it so.
func TestBareVariablesFlagged(t *testing.T) {
	f, err := ParseContext(t.Context(), "settings.json", []byte(`{"mcpServers": {"db": {"command": "x",
		"args": ["$HOME", "cost: $5"], "env": {"DATABASE_URL": "$DB_URL", "PRICE": "$5", "MIXED": "a$B", "LOWER": "$path"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	got := f.ExpandVariables(VariablesFor("settings.json", "/home/me"))
	var flagged []string
	for _, p := range got.Entries[0].Problems {
		flagged = append(flagged, p.Path+": "+p.Message)
	}
	want := []string{
		`mcpServers.db.args[0]: is "$HOME" as written: if it names a variable of the environment (Gemini CLI reads it so), write ${env:HOME}`,
		`mcpServers.db.env.DATABASE_URL: is "$DB_URL" as written: if it names a variable of the environment (Gemini CLI reads it so), write ${env:DB_URL}`,
	}
	if !slices.Equal(flagged, want) {
		t.Errorf("problems:\n got %q\nwant %q", flagged, want)
	}
	if db := serverNamed(t, got, "db"); db.Env["DATABASE_URL"] != "$DB_URL" || db.Args[0] != "$HOME" {
		t.Errorf("the values changed: %q %q", db.Env, db.Args)
	}
}

func serverNamed(t *testing.T, f *File, name string) Server {
	t.Helper()
	for _, s := range f.Servers {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no server %q in %v", name, f.Servers)
	return Server{}
}
