package localskills_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/localskills"
)

// TestNamesStayWithTheirFolders: the names skills go by do not depend on
// which other folders are there. A folder named with a valid name keeps
// it whatever sorts first ("My_Skill" before "my-skill"); folders whose
// names have no letter a skill name may hold ("日本語", "中文") each get a
// name of their own, kept when the other comes or goes, so a skill never
// takes another's pin (held as "changed" with the other's text) or its
// switch; accented Latin letters lose their accents.
func TestNamesStayWithTheirFolders(t *testing.T) {
	fx := newFixture(t, nil)
	dir := filepath.Join(fx.home, ".claude", "skills")
	skill := func(folder, desc string) {
		write(t, filepath.Join(dir, folder, "SKILL.md"), "---\nname: "+folder+"\ndescription: "+desc+"\n---\nBody.\n", 0o644)
	}
	names := func() map[string]string { // folder → name, every skill accepted
		t.Helper()
		l, err := fx.store.Rescan()
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, en := range l.Skills {
			if en.State != localskills.Accepted {
				t.Errorf("%s (%s) is %s: %v", en.Name, en.Dir, en.State, en.Changes)
			}
			out[filepath.Base(en.Dir)] = en.Name
		}
		return out
	}
	skill("日本語", "Japanese notes")
	skill("données", "French data")
	skill("my-skill", "The real my-skill")
	first := names()
	if first["my-skill"] != "my-skill" || first["données"] != "donnees" {
		t.Errorf("names = %v", first)
	}
	if !regexp.MustCompile(`^skill-[0-9a-f]{6}$`).MatchString(first["日本語"]) {
		t.Errorf("日本語 goes by %q, want skill- and a digest", first["日本語"])
	}
	// Folders that sort first and make the same names come.
	skill("中文", "Chinese notes")
	skill("My_Skill", "Underscores")
	second := names()
	for _, f := range []string{"日本語", "données", "my-skill"} {
		if second[f] != first[f] {
			t.Errorf("%s went by %q, now %q (%v)", f, first[f], second[f], second)
		}
	}
	if second["中文"] == second["日本語"] || second["My_Skill"] == "my-skill" {
		t.Errorf("names = %v", second)
	}
	// And go: the others keep their names.
	if err := os.RemoveAll(filepath.Join(dir, "日本語")); err != nil {
		t.Fatal(err)
	}
	if third := names(); third["中文"] != second["中文"] || third["My_Skill"] != second["My_Skill"] {
		t.Errorf("after 日本語 went: %v, before %v", third, second)
	}
}
