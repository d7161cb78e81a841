package localskills

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTheWatcherLeavesDependenciesAlone: the folders a skill's scripts
// fill with dependencies and caches (node_modules, __pycache__, a
// virtualenv with or without a dot) are not watched, their own folder is.
func TestTheWatcherLeavesDependenciesAlone(t *testing.T) {
	src := t.TempDir()
	skill := filepath.Join(src, "docx")
	for _, d := range []string{"scripts/__pycache__", "node_modules/docx/lib", ".venv/lib", "env/lib", "references"} {
		if err := os.MkdirAll(filepath.Join(skill, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"SKILL.md", ".venv/pyvenv.cfg", "env/pyvenv.cfg"} {
		if err := os.WriteFile(filepath.Join(skill, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := watchSet(Listing{Sources: []Source{{Server: "skills@claude", Dir: src}}})
	for _, d := range []string{src, skill, filepath.Join(skill, "scripts"), filepath.Join(skill, "references")} {
		if !want[d] {
			t.Errorf("%s is not watched", d)
		}
	}
	for _, d := range []string{"scripts/__pycache__", "node_modules", "node_modules/docx/lib", ".venv", "env", "env/lib"} {
		if want[filepath.Join(skill, d)] {
			t.Errorf("%s is watched", d)
		}
	}
}
