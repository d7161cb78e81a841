package supervisor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/process"
	"github.com/switchboard-app/switchboard/mcpmanager/sandbox"
)

// MissingPathError says why a stdio server most likely stopped while it
// started: an argument names a file or folder that is not there (often a
// variable its old host filled in, such as VS Code's ${userHome}, kept as
// text). The path leads the sentence, since the exit status and the last
// lines of stderr that follow it rarely say which path was wrong.
type MissingPathError struct {
	Path string
	Err  error // wraps ErrExited
}

func (e *MissingPathError) Error() string {
	return fmt.Sprintf("%s, so it stopped while starting (%v)", e.sentence(), e.Err)
}

func (e *MissingPathError) sentence() string {
	return fmt.Sprintf("its arguments name %s, which does not exist; correct the path in the server's settings (Edit) and save", e.Path)
}

// Plain is the sentence with the path; the exit and stderr are the detail.
func (e *MissingPathError) Plain() (sentence, detail string) { return e.sentence(), e.Err.Error() }

func (e *MissingPathError) Unwrap() error { return e.Err }

// missingPath returns the first path an argument of p names
// (sandbox.ArgPaths: the argument, or --flag=VALUE's value), or its
// working directory, that is written as an absolute path, or still holds
// a ${…} nothing replaced, and does not exist; "" when there is none.
// Relative arguments are left alone: most are not paths.
func missingPath(p process.Spec) string {
	candidates := []string{p.Dir}
	for _, a := range p.Args {
		candidates = append(candidates, sandbox.ArgPaths(a)...)
	}
	for _, c := range candidates {
		if c == "" || !filepath.IsAbs(c) && !strings.Contains(c, "${") {
			continue
		}
		if _, err := os.Stat(c); errors.Is(err, fs.ErrNotExist) {
			return c
		}
	}
	return ""
}
