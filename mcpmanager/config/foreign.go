package config

import (
	"fmt"
	"slices"
	"strings"
)

// foreignKeys are keys other apps give a server that Switchboard keeps but
// does not act on, with what the person should know at import: each was a
// decision in that app that does not carry over by itself.
var foreignKeys = []struct{ key, why string }{
	{"autoApprove", "the tools %s ran without asking in the app this comes from (Cline, Roo Code, Kiro); here a chat asks first unless you allow them on the Tools page"},
	{"alwaysAllow", "the tools %s ran without asking in the app this comes from (Roo Code); here a chat asks first unless you allow them on the Tools page"},
	{"trust", "Gemini CLI ran this server's tools without asking (%s); here a chat asks first unless you allow them on the Tools page"},
}

// NoteForeignKeys returns a copy of f whose entries get a warning for each
// key another app acts on and Switchboard does not (foreignKeys), so the
// import preview says what does not carry over. The keys stay in the
// entry (Server.Extra), as every unknown key does.
func (f *File) NoteForeignKeys() *File {
	out := *f
	out.Entries = slices.Clone(f.Entries)
	for i, e := range out.Entries {
		var notes []Problem
		for _, k := range foreignKeys {
			raw, ok := e.Server.Extra[k.key]
			if !ok {
				continue
			}
			what := strings.TrimSpace(string(raw))
			if what == "[]" || what == "false" || what == "null" {
				continue // nothing was allowed
			}
			notes = append(notes, Problem{Path: pathKey(e.Path, k.key), Line: e.Line, Col: e.Col, Severity: SeverityWarning,
				Message: "is not carried over: " + fmt.Sprintf(k.why, what)})
		}
		if notes != nil {
			out.Entries[i].Problems = append(slices.Clone(e.Problems), notes...)
		}
	}
	return &out
}
