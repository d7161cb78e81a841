package config

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Sentinel errors. Errors returned by this package wrap one of them, so callers
// can branch with errors.Is while showing the wrapped message to the user.
var (
	// ErrEmpty: the file holds nothing but whitespace or comments (or, to
	// an import, no server at all: {"mcpServers": {}}).
	ErrEmpty = errors.New("config file is empty")
	// ErrSyntax: the file is not JSON (or JSONC) at all; the problem has line:column.
	ErrSyntax = errors.New("config file is not valid JSON")
	// ErrUnknownFormat: valid JSON, but not a shape this package knows
	// (mcpServers, servers, mcp.servers, or the legacy servers array).
	ErrUnknownFormat = errors.New("config file format not recognized")
	// ErrInvalid: the format is known but one or more servers or fields are wrong.
	ErrInvalid = errors.New("config file has invalid entries")
	// ErrMissingInput: a ${input:id} placeholder has no value to substitute.
	ErrMissingInput = errors.New("missing value for input")
	// ErrUnknownServer: a resolution names a server that is not in the import plan.
	ErrUnknownServer = errors.New("no such server in the import plan")
	// ErrNameTaken: a server would be imported under a name already in use.
	ErrNameTaken = errors.New("server name already in use")
	// ErrBadResolution: a resolution is not keep, replace or rename, or cannot apply.
	ErrBadResolution = errors.New("invalid import resolution")
	// ErrURL: a remote server's final URL, after substitution, breaks the URL
	// rules (see CheckURL).
	ErrURL = errors.New("server URL not allowed")
	// ErrLocked: another process kept config.json locked for longer than
	// LockTimeout (see Edit).
	ErrLocked = errors.New("config.json is being changed by another process")
)

// Severity says whether a Problem stops a server from being used.
type Severity string

const (
	// SeverityError means the entry (or the whole file) cannot be used as written.
	SeverityError Severity = "error"
	// SeverityWarning means the value was accepted after a harmless fix-up
	// (an env number turned into a string, an unknown restart key ignored).
	SeverityWarning Severity = "warning"
)

// Problem is one thing wrong with a config file. Path is the dotted JSON path
// (mcpServers.github.args, servers[2].name, mcpServers["my.server"].env.PORT);
// Line and Col (1-based, Col counted in characters) locate it in the file, or
// are 0 when there is no position (e.g. a problem found after parsing).
type Problem struct {
	Path     string   `json:"path,omitempty"`
	Line     int      `json:"line,omitempty"`
	Col      int      `json:"col,omitempty"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
}

// String renders "LINE:COL: [warning: ]PATH: MESSAGE", omitting missing parts.
func (p Problem) String() string {
	var b strings.Builder
	if p.Line > 0 {
		fmt.Fprintf(&b, "%d:%d: ", p.Line, p.Col)
	}
	if p.Severity == SeverityWarning {
		b.WriteString("warning: ")
	}
	if p.Path != "" {
		b.WriteString(p.Path)
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// ValidationError lists every problem found in one file at once, so a user
// can fix them all in one go instead of one per run. Kind is the sentinel it
// unwraps to (ErrSyntax, ErrEmpty, ErrUnknownFormat or ErrInvalid).
type ValidationError struct {
	File     string
	Kind     error
	Problems []Problem
}

// Error lists the problems one per line, each prefixed by the file name.
func (e *ValidationError) Error() string {
	if len(e.Problems) == 0 {
		if e.File == "" {
			return e.Kind.Error()
		}
		return e.File + ": " + e.Kind.Error()
	}
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		if e.File != "" {
			lines[i] = e.File + ":" + p.String()
			if p.Line == 0 {
				lines[i] = e.File + ": " + p.String()
			}
		} else {
			lines[i] = p.String()
		}
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns the sentinel naming the kind of failure.
func (e *ValidationError) Unwrap() error { return e.Kind }

// Errors returns only the error-severity problems.
func (e *ValidationError) Errors() []Problem { return filterSeverity(e.Problems, SeverityError) }

// MissingInputError reports the ${input:id} placeholders of a server (or of a
// whole file) that had no value.
type MissingInputError struct {
	Server string   // "" when several servers are involved
	IDs    []string // sorted, unique
}

func (e *MissingInputError) Error() string {
	return e.Needs("the config needs") + "; enter it when asked, or replace the placeholder in the file"
}

// Needs says which values are missing, without what to do about them:
// `server "x" needs a value for ${input:a}, ${input:b}`, or with whole
// ("the config needs") as the subject when no one server is named. Each
// door adds what it can do about it.
func (e *MissingInputError) Needs(whole string) string {
	quoted := make([]string, len(e.IDs))
	for i, id := range e.IDs {
		quoted[i] = "${input:" + id + "}"
	}
	if e.Server != "" {
		whole = fmt.Sprintf("server %q needs", e.Server)
	}
	return whole + " a value for " + strings.Join(quoted, ", ")
}

// Unwrap returns ErrMissingInput.
func (e *MissingInputError) Unwrap() error { return ErrMissingInput }

func filterSeverity(ps []Problem, s Severity) []Problem {
	var out []Problem
	for _, p := range ps {
		if p.Severity == s {
			out = append(out, p)
		}
	}
	return out
}

func hasErrors(ps []Problem) bool {
	return slices.ContainsFunc(ps, func(p Problem) bool { return p.Severity == SeverityError })
}

// sortProblems orders problems as they appear in the file; positionless ones
// keep their relative order at the end.
func sortProblems(ps []Problem) {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		if (a.Line == 0) != (b.Line == 0) {
			if a.Line == 0 {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
}
