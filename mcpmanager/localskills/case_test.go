package localskills_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// A folder whose skill file is skill.md (found on macOS and Windows, whose
// file names ignore case, never here) is listed as invalid with what to
// rename, not skipped without a word; a folder with no such file is not.
func TestLowercaseSkillFileIsNamed(t *testing.T) {
	fx := newFixture(t, nil)
	dir := filepath.Join(fx.home, ".claude", "skills")
	write(t, filepath.Join(dir, "notes", "skill.md"), "---\nname: notes\ndescription: My notes\n---\nBody.\n", 0o644)
	write(t, filepath.Join(dir, "plain", "README.md"), "Not a skill.\n", 0o644)
	l, err := fx.store.Rescan()
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Skills) != 0 {
		t.Fatalf("skills = %v, want none", l.Skills)
	}
	if len(l.Invalid) != 1 || filepath.Base(l.Invalid[0].Dir) != "notes" || !strings.Contains(l.Invalid[0].Reason, "skill.md; rename it SKILL.md") {
		t.Fatalf("invalid = %+v, want notes with its rename", l.Invalid)
	}
}
