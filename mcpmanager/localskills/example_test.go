package localskills_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/switchboard-app/switchboard/mcpmanager/localskills"
)

func Example() {
	home, _ := os.MkdirTemp("", "home")
	defer os.RemoveAll(home)
	dir := filepath.Join(home, ".claude", "skills", "release-notes")
	_ = os.MkdirAll(dir, 0o755)
	_ = os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: release-notes\ndescription: Write release notes.\n---\nGroup the changes.\n"), 0o644)

	store := localskills.New(localskills.Options{
		Places: func() localskills.Places { return localskills.Places{Home: home} },
		State:  filepath.Join(home, "skills.json"),
	})
	l, err := store.List()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range l.Skills {
		fmt.Println(s.Source.Server, s.Name, s.State, len(s.Files))
	}
	// Output: skills@claude release-notes accepted 1
}
