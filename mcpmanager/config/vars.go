package config

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Variables are the values of the predefined variables VS Code and Cursor
// substitute in an MCP config (${userHome}, ${workspaceFolder}, …), as they
// apply to the file being imported. Switchboard's own config has no such
// variables, so an import writes them out (File.ExpandVariables); a server
// would otherwise get the literal text "${userHome}/Projects" and fail with
// nothing but "exited during initialize".
type Variables struct {
	Home string // ${userHome}
	// Workspace is ${workspaceFolder}: the folder holding the file's
	// .vscode/ or .cursor/ folder, or "" when the file is not a folder's
	// own config (then the variable is reported as unresolved).
	Workspace string
	Separator string // ${pathSeparator} and ${/}
	// literal: no variable has a value (config.json's own meaning).
	literal bool
}

// VariablesFor returns the variables for the config file at path (as given
// to the import; a pasted config has no folder) for a user whose home is home.
//
//	VariablesFor("/home/me/src/site/.vscode/mcp.json", "/home/me")
//	// Workspace: /home/me/src/site
func VariablesFor(path, home string) Variables {
	v := Variables{Home: home, Separator: string(filepath.Separator)}
	if path == "" || !filepath.IsAbs(path) {
		return v
	}
	switch strings.ToLower(filepath.Base(filepath.Dir(path))) {
	case ".vscode", ".cursor":
		v.Workspace = filepath.Dir(filepath.Dir(path))
	}
	return v
}

// variableRef is any ${…} in a config string; Continue's (and GitHub
// Actions') ${{ secrets.NAME }} whole, so a message quotes it as written.
var variableRef = regexp.MustCompile(`\$\{\{[^}]*\}\}|\$\{[^}]*\}`)

// plainEnvName is Claude Code's ${VAR} (an environment variable without
// the "env:" VS Code and Switchboard write).
var plainEnvName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// vscodeOnly are VS Code's variables that mean something only in an editor
// (the open file, the selection, a command): nothing to give a server.
var vscodeOnly = []string{"file", "fileWorkspaceFolder", "relativeFile", "relativeFileDirname",
	"fileBasename", "fileBasenameNoExtension", "fileExtname", "fileDirname", "fileDirnameBasename",
	"lineNumber", "columnNumber", "selectedText", "execPath", "defaultBuildTask", "cwd"}

// expand rewrites one string. It returns what changed (for a warning) and
// the references left as they are because they have no value here.
func (v Variables) expand(s string) (out string, rewritten, unresolved []string) {
	out = variableRef.ReplaceAllStringFunc(s, func(ref string) string {
		name := ref[2 : len(ref)-1]
		kind, _, scoped := strings.Cut(name, ":")
		switch {
		case scoped && (kind == "env" || kind == "secret" || kind == "input"):
			return ref // Switchboard's own references (and inputs, asked for separately)
		case v.literal:
		case name == "userHome" && v.Home != "":
			return v.Home
		case (name == "workspaceFolder" || name == "workspaceRoot") && v.Workspace != "":
			return v.Workspace
		case name == "workspaceFolderBasename" && v.Workspace != "":
			return filepath.Base(v.Workspace)
		case (name == "pathSeparator" || name == "/") && v.Separator != "":
			return v.Separator
		case strings.Contains(name, ":-") && plainEnvName.MatchString(name[:strings.Index(name, ":-")]):
			// Claude Code's ${VAR:-default}: the default when VAR is unset
			// or empty; ${env:VAR:-default} here, read the same way.
			rewritten = append(rewritten, ref)
			return "${env:" + name + "}"
		case !scoped && plainEnvName.MatchString(name) && !slices.Contains(vscodeOnly, name) &&
			name != "userHome" && !strings.HasPrefix(name, "workspaceFolder") && name != "workspaceRoot":
			// Claude Code reads ${VAR} from the environment; Switchboard
			// spells it ${env:VAR} and reads it at each start the same way.
			rewritten = append(rewritten, ref)
			return "${env:" + name + "}"
		}
		unresolved = append(unresolved, ref)
		return ref
	})
	return out, rewritten, unresolved
}

// ExpandVariables returns a copy of f with the predefined variables of
// VS Code and Cursor written out and Claude Code's ${VAR} read as
// ${env:VAR}. A ${…} it cannot give a value (an editor-only variable,
// ${workspaceFolder} of a pasted file, ${VAR:-default}) stays as written
// and is reported as a warning at its JSON path, so the import preview and
// Edit show it before the server fails on it. ${env:…}, ${secret:…} and
// ${input:…} are left alone.
func (f *File) ExpandVariables(v Variables) *File {
	out := *f
	out.Servers = make([]Server, 0, len(f.Servers))
	out.Entries = make([]Entry, len(f.Entries))
	for i, e := range f.Entries {
		e.Server = e.Server.Clone()
		for _, p := range v.expandServer(e.Path, &e.Server) {
			p.Line, p.Col = e.Line, e.Col
			e.Problems = append(slices.Clone(e.Problems), p)
		}
		out.Entries[i] = e
		if e.Valid() {
			out.Servers = append(out.Servers, e.Server)
		}
	}
	return &out
}

// UnresolvedVariables warns about every ${…} in s that Switchboard gives
// no value when the server starts (all but ${env:…}, ${secret:…} and
// ${input:…}), for a server typed or edited in the window: there, as in
// config.json, ${userHome} is passed on as written.
func (s Server) UnresolvedVariables() []Problem {
	s = s.Clone()
	return Variables{literal: true}.expandServer("", &s)
}

// expandServer expands every string of s in place and returns a warning per
// field that was rewritten or kept unresolved, at its path under base (the
// entry's own path).
func (v Variables) expandServer(base string, s *Server) []Problem {
	var out []Problem
	at := func(key string) string { return pathKey(base, key) }
	visit := func(field string, p *string) {
		next, rewritten, unresolved := v.expand(*p)
		*p = next
		if len(unresolved) > 0 {
			out = append(out, Problem{Path: field, Severity: SeverityWarning, Message: fmt.Sprintf(
				"uses %s, which Switchboard gives no value: the server gets it as written; write the real value instead (or ${env:NAME} for a variable of the environment)",
				strings.Join(unique(unresolved), ", "))})
		}
		if len(rewritten) > 0 {
			out = append(out, Problem{Path: field, Severity: SeverityWarning, Message: fmt.Sprintf(
				"%s is read from the environment when the server starts (written ${env:NAME} here), as Claude Code does",
				strings.Join(unique(rewritten), ", "))})
		}
		if m := bareVariable.FindStringSubmatch(next); m != nil {
			// Gemini CLI reads "$NAME" from the environment too; nothing
			// else does, and a value may start with "$", so it is said,
			// not rewritten.
			out = append(out, Problem{Path: field, Severity: SeverityWarning, Message: fmt.Sprintf(
				"is %q as written: if it names a variable of the environment (Gemini CLI reads it so), write ${env:%s}",
				next, m[1])})
		}
	}
	visit(at("command"), &s.Command)
	for i := range s.Args {
		visit(pathIndex(at("args"), i), &s.Args[i])
	}
	for _, m := range []struct {
		key string
		m   map[string]string
	}{{"env", s.Env}, {"headers", s.Headers}} {
		for _, k := range slices.Sorted(maps.Keys(m.m)) {
			val := m.m[k]
			visit(pathKey(at(m.key), k), &val)
			m.m[k] = val
		}
	}
	visit(at("cwd"), &s.Cwd)
	visit(at("envFile"), &s.EnvFile)
	visit(at("url"), &s.URL)
	for i := range s.Roots {
		visit(pathIndex(at("roots"), i), &s.Roots[i])
	}
	return out
}

// bareVariable is a whole value that looks like "$NAME", a variable of
// the environment written the shell's way.
var bareVariable = regexp.MustCompile(`^\$([A-Z_][A-Z0-9_]*)$`)

func unique(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}
