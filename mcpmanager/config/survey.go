package config

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
)

// MaxConfigSize is the largest config file Survey reads (and the window's
// import reads): an MCP config is a few kilobytes; anything past this is
// not one, and reading it would only cost memory.
const MaxConfigSize = 4 << 20

// Found is a config file of another MCP host with what it holds, as the
// welcome page, the import wizard and 'servers discover' all show it: they
// call Survey, so their counts agree.
type Found struct {
	Candidate
	// Servers counts the entries that can be imported as they are.
	Servers int `json:"servers"`
	// NeedsAttention counts the entries with an error (a missing command,
	// a bad URL): the rest of the file still imports, these after a fix.
	NeedsAttention int `json:"needsAttention"`
	// Problem says, in one sentence with line:column, why the file as a
	// whole could not be read ("" when it could).
	Problem string `json:"problem,omitempty"`
	// Imported counts the entries already among the user's servers (by
	// name; see MarkImported). An entry that needed attention and was
	// fixed in the import no longer counts in NeedsAttention.
	Imported int `json:"imported,omitempty"`

	entries []surveyed
}

// surveyed is one server entry of the file: its name and whether it
// imports as it is.
type surveyed struct {
	name  string
	valid bool
}

// Total is every server entry in the file, valid or not.
func (f Found) Total() int { return f.Servers + f.NeedsAttention }

// MarkImported counts the entries whose name is among have (the servers
// the user already has) as Imported; one that needed attention and was
// fixed on its way in counts with Servers, no longer in NeedsAttention.
func (f Found) MarkImported(have []string) Found {
	set := make(map[string]bool, len(have))
	for _, n := range have {
		set[n] = true
	}
	f.Imported, f.NeedsAttention = 0, 0
	for _, e := range f.entries {
		switch {
		case set[e.name]:
			f.Imported++
		case !e.valid:
			f.NeedsAttention++
		}
	}
	f.Servers = len(f.entries) - f.NeedsAttention
	return f
}

// Summary is the counts in words, the total first: "3 servers, 1 needs
// attention" (three entries, two fine), "3 servers, all imported",
// "3 servers, 1 imported, 1 needs attention".
func (f Found) Summary() string {
	switch {
	case f.Problem != "":
		return "cannot be read: " + f.Problem
	case f.Total() == 0:
		return "no servers"
	}
	s := plural(f.Total(), "server")
	if f.Imported > 0 && f.Imported >= f.Total() {
		return s + ", all imported"
	}
	if f.Imported > 0 {
		s += fmt.Sprintf(", %d imported", f.Imported)
	}
	if f.NeedsAttention > 0 {
		verb := "need"
		if f.NeedsAttention == 1 {
			verb = "needs"
		}
		s += fmt.Sprintf(", %d %s attention", f.NeedsAttention, verb)
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// Survey is Discover with each file read and parsed: how many of its
// server entries are valid and how many need attention. A file that holds
// no MCP configuration at all (a VS Code settings.json without "mcp") is
// left out; a file that cannot be parsed is kept, with its Problem, so the
// user learns that a config they expect was found but is broken.
func Survey(ctx context.Context, env Env) []Found {
	cands := Discover(env)
	parse := env.Parse
	if parse == nil {
		parse = ParseContext
	}
	out := make([]Found, 0, len(cands))
	for _, c := range cands {
		if ctx.Err() != nil {
			break
		}
		f, ok := survey(ctx, c, parse)
		if ok {
			out = append(out, f)
		}
	}
	return out
}

// survey reads one candidate; ok is false when it holds no MCP config.
func survey(ctx context.Context, c Candidate, parse func(context.Context, string, []byte) (*File, error)) (Found, bool) {
	found := Found{Candidate: c}
	b, err := readCapped(c.Path)
	if err != nil {
		found.Problem = err.Error()
		return found, true
	}
	f, err := parse(ctx, c.Path, b)
	var ve *ValidationError
	if f == nil && errors.As(err, &ve) && (ve.Kind == ErrUnknownFormat || ve.Kind == ErrEmpty) {
		return found, false
	}
	if f != nil {
		f = f.WithProjectServers() // as an import takes them
		for _, e := range f.Entries {
			if e.Valid() {
				found.Servers++
			} else {
				found.NeedsAttention++
			}
			found.entries = append(found.entries, surveyed{name: e.Name, valid: e.Valid()})
		}
	}
	// A file-level error with no entries to show for it ("mcpServers" is
	// not an object, a syntax error) is the file's problem.
	if err != nil && found.Total() == 0 {
		found.Problem = err.Error()
		if errors.As(err, &ve) {
			for _, p := range ve.Problems {
				if p.Severity == SeverityError {
					found.Problem = p.String()
					if p.Line > 0 {
						found.Problem = "line " + found.Problem
					}
					break
				}
			}
		}
	}
	return found, true
}

// readCapped reads a config file of at most MaxConfigSize bytes.
func readCapped(path string) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, MaxConfigSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxConfigSize {
		return nil, fmt.Errorf("%s is larger than %d MiB; an MCP config is far smaller", path, MaxConfigSize>>20)
	}
	return b, nil
}
