package config

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// SplitCommandLines returns a copy of f in which a stdio server whose
// "command" holds a whole command line and has no "args" ("npx -y
// @scope/server", as configs copied from a README often have it) gets it
// split into the program and its arguments, which is what the person
// meant: no app can start a program named "npx -y @scope/server". A
// command that names an existing file as written (a path with spaces) or
// holds quotes is left alone. Each split is a warning at the entry's
// "command", so the import preview shows it.
func (f *File) SplitCommandLines() *File {
	out := *f
	out.Servers = make([]Server, 0, len(f.Servers))
	out.Entries = slices.Clone(f.Entries)
	for i, e := range out.Entries {
		if fields, ok := commandLine(e.Server); ok {
			e.Server = e.Server.Clone()
			e.Server.Command, e.Server.Args = fields[0], fields[1:]
			e.Problems = append(slices.Clone(e.Problems), Problem{
				Path: pathKey(e.Path, "command"), Line: e.Line, Col: e.Col, Severity: SeverityWarning,
				Message: fmt.Sprintf("held the whole command line: split into the command %q and the arguments %s",
					fields[0], quoteAll(fields[1:])),
			})
			out.Entries[i] = e
		}
		if e.Valid() {
			out.Servers = append(out.Servers, e.Server)
		}
	}
	return &out
}

// commandLine says whether s's command is a whole command line to split.
func commandLine(s Server) ([]string, bool) {
	if s.Transport != Stdio || len(s.Args) > 0 || strings.ContainsAny(s.Command, `"'\`) || strings.Contains(s.Command, "${") {
		return nil, false
	}
	fields := strings.Fields(s.Command)
	if len(fields) < 2 {
		return nil, false
	}
	if _, err := os.Stat(s.Command); err == nil { // a path with spaces
		return nil, false
	}
	return fields, true
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}
