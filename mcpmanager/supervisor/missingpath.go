package supervisor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

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

// missingPath returns the path to blame for a stdio server that stopped
// while it started: the first one an argument of p names (sandbox.ArgPaths:
// the argument, or --flag=VALUE's value) written as an absolute path, or
// still holding a ${…} nothing replaced, or p's working directory, that
// does not exist and
//
//   - holds such a ${…}, or is the working directory, or
//   - whose folder does not exist either (a path from another machine or
//     user, a variable's value gone wrong), or
//   - that a line of stderr (lastWords: the server's last lines, asked for
//     only then) names as missing: ENOENT, "No such file", ….
//
// "" when there is none. A missing file in a folder that exists is most
// often one the server creates (a SQLite database, a memory file, a log):
// its absence says nothing, and blaming it would hide the real cause, which
// the stderr lines that follow the exit tell. Relative arguments are left
// alone: most are not paths.
func missingPath(p process.Spec, lastWords func() []string) string {
	var stderr []string
	asked := false
	for i, c := range candidates(p) {
		if c == "" || !filepath.IsAbs(c) && !strings.Contains(c, "${") || exists(c) {
			continue
		}
		if i == 0 || strings.Contains(c, "${") || !exists(filepath.Dir(c)) {
			return c
		}
		if !asked {
			stderr, asked = lastWords(), true
		}
		if namedMissing(stderr, c) {
			return c
		}
	}
	return ""
}

// candidates are the working directory of p, then every path its
// arguments name.
func candidates(p process.Spec) []string {
	out := []string{p.Dir}
	for _, a := range p.Args {
		out = append(out, sandbox.ArgPaths(a)...)
	}
	return out
}

// exists says whether path is there; only "not there" counts as not: a
// path that cannot be looked at (no permission) is not blamed.
func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, fs.ErrNotExist)
}

// missingWords are how programs say a file is not there: Node's ENOENT,
// Python's and C's "No such file or directory", Go's, Java's and the
// rest's.
var missingWords = regexp.MustCompile(`(?i)enoent|no such file|not found|does not exist|doesn't exist|cannot find|can't find|could not find|unable to open|cannot open|can't open|could not open|failed to open`)

// namedMissing says whether a line of stderr names path and says it is
// missing.
func namedMissing(stderr []string, path string) bool {
	for _, line := range stderr {
		if (strings.Contains(line, path) || strings.Contains(filepath.ToSlash(line), filepath.ToSlash(path))) && missingWords.MatchString(line) {
			return true
		}
	}
	return false
}

// lastWords gives the last lines of the stderr of s's process that exited,
// once they have been read to the end (for at most a second: a child can
// keep the pipe open).
func lastWords(s *Server) func() []string {
	return func() []string {
		s.mu.Lock()
		logged := s.logged
		s.mu.Unlock()
		if logged != nil {
			select {
			case <-logged:
			case <-time.After(time.Second):
			}
		}
		return s.stderrTail(20)
	}
}
