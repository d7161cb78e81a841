package supervisor

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMissingPathBlame: a server that exits while it starts is told to
// correct a path in its arguments only when that path is surely wrong —
// its folder is missing too, it holds a ${…} nothing replaced, or the
// server's stderr says it is missing. A file the server would create in a
// folder that exists (a SQLite database, a memory file) is not blamed: the
// error gives the exit and stderr's real cause instead.
func TestMissingPathBlame(t *testing.T) {
	dir := t.TempDir()
	created := filepath.Join(dir, "new.db")
	gone := filepath.Join(dir, "no-such-folder", "notes")
	config := filepath.Join(dir, "config.json")
	say := func(line string) []string { return []string{"FAULT_LEAK=FAULT_SAYS", "FAULT_SAYS=" + line} }
	for _, c := range []struct {
		name   string
		args   []string
		env    []string
		blamed string
	}{
		{"a file the server would create", []string{created}, nil, ""},
		{"a flag's file the server would create", []string{"--", "--db=" + created}, nil, ""},
		{"stderr names it, not as missing", []string{created}, say("opening " + created), ""},
		{"a folder that is not there", []string{gone}, nil, gone},
		{"a variable nothing replaced", []string{"--", "--root=${userHome}/Projects"}, nil, "${userHome}/Projects"},
		{"a file stderr says is missing", []string{config}, say("Error: ENOENT: no such file or directory, open '" + config + "'"), config},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, _, wait := start(t, "exit-init", func(s *Spec) {
				s.Process.Args = append(s.Process.Args, c.args...)
				s.Process.Env = append(s.Process.Env, c.env...)
				s.Restart.Disabled = true
			})
			err, ok := wait(15 * time.Second)
			if !ok {
				t.Fatalf("Run did not give up; state %s", s.Status().State)
			}
			var mp *MissingPathError
			st := s.Status()
			switch {
			case c.blamed == "" && (errors.As(err, &mp) || strings.Contains(st.Error, "its arguments name")):
				t.Errorf("a path was blamed: %q", st.Error)
			case c.blamed == "" && !strings.Contains(st.Error, "missing API key FAULT_KEY"):
				t.Errorf("error %q, want stderr's cause in it", st.Error)
			case c.blamed != "" && (!errors.As(err, &mp) || mp.Path != c.blamed || !strings.HasPrefix(st.Error, "exit-init: its arguments name "+c.blamed+", which does not exist")):
				t.Errorf("error %q (%v), want %s blamed", st.Error, err, c.blamed)
			}
		})
	}
}
