package config

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// WithProjectServers returns a copy of f with the servers of Claude Code's
// projects (projects.<path>.mcpServers in ~/.claude.json) after f's own, for
// an import. They are where most of a Claude Code user's servers are:
// 'claude mcp add' writes to the project's section unless told
// "--scope user", so an import of ~/.claude.json that took only the
// top-level "mcpServers" would often take nothing.
//
// Each one gets a warning saying which project Claude Code runs it in,
// since here every chat can use it, so the person can skip it. A server
// that is the same as one before it under its name (the same server added
// in several projects) is imported once; one that differs takes the
// project folder's name after its own ("filesystem-web"), or a number
// after that when that is taken too.
func (f *File) WithProjectServers() *File {
	if len(f.Projects) == 0 {
		return f
	}
	out := *f
	out.Projects = nil
	out.Entries = slices.Clone(f.Entries)
	out.Servers = slices.Clone(f.Servers)
	out.Problems = slices.Clone(f.Problems)
	byName := map[string][]Server{} // a name as written → the valid servers imported under it
	taken := map[string]bool{}
	for _, p := range f.Projects {
		for _, e := range p.Entries {
			taken[e.Name] = true
		}
	}
	for _, e := range out.Entries {
		taken[e.Name] = true
		if e.Valid() {
			byName[e.Name] = append(byName[e.Name], e.Server)
		}
	}
	used := map[string]bool{} // the names out.Entries has
	for _, e := range out.Entries {
		used[e.Name] = true
	}
	for _, p := range f.Projects {
		var notes []Problem
		for _, e := range p.Entries {
			if e.Valid() && slices.ContainsFunc(byName[e.Name], func(s Server) bool { return len(Diff(s, e.Server)) == 0 }) {
				continue // the same server again
			}
			name := e.Name
			if used[name] {
				if b := projectBase(p.Path); b != "" && !taken[name+"-"+b] {
					name += "-" + b
				} else {
					name = freeName(name, taken)
				}
			}
			if e.Valid() {
				byName[e.Name] = append(byName[e.Name], e.Server)
			}
			note := Problem{Path: e.Path, Line: e.Line, Col: e.Col, Severity: SeverityWarning,
				Message: fmt.Sprintf("Claude Code runs it only in the project %s; here every chat can use it (skip it if you do not want that)", p.Path)}
			if name != e.Name {
				note.Message += fmt.Sprintf("; imported as %q, since a different server is called %q", name, e.Name)
				e.Name = name
				e.Server = e.Server.Clone()
				e.Server.Name = name
			}
			e.Problems = append(slices.Clone(e.Problems), note)
			notes = append(notes, note)
			used[name], taken[name] = true, true
			out.Entries = append(out.Entries, e)
			if e.Valid() {
				out.Servers = append(out.Servers, e.Server)
			}
		}
		out.Problems = append(out.Problems, p.Problems...)
		out.Problems = append(out.Problems, notes...)
	}
	sortProblems(out.Problems)
	return &out
}

// projectBase is the last element of a project's path, written with
// slashes or, from a Windows machine's file, backslashes.
func projectBase(p string) string {
	b := path.Base(strings.ReplaceAll(strings.TrimRight(p, `/\`), `\`, "/"))
	if b == "." || b == "/" || strings.HasSuffix(b, ":") { // "", "/", "C:\"
		return ""
	}
	return b
}
