package localskills_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/localskills"
	"github.com/switchboard-app/switchboard/mcpmanager/skills"
)

// TestWhatItsUseLeavesIsNotTheSkill: what a skill's folder holds once its
// scripts have run (Python's __pycache__, node_modules past the file
// limit, virtualenvs with and without a dot, a .env with a key, the OS's
// files) is not listed, pinned or served: running a script does not hold
// the skill, dependencies do not crowd its own files out, and the .env
// never reaches the catalog.
func TestWhatItsUseLeavesIsNotTheSkill(t *testing.T) {
	fx := newFixture(t, nil)
	dir := filepath.Join(fx.home, ".claude", "skills", "docx")
	write(t, filepath.Join(dir, "SKILL.md"), "---\nname: docx\ndescription: Make Word documents. Use for .docx files.\n---\nRun scripts/build.py; see references/API.md.\n", 0o644)
	write(t, filepath.Join(dir, "references", "API.md"), "# API\n", 0o644)
	write(t, filepath.Join(dir, "scripts", "build.py"), "print('built')\n", 0o644)
	accepted := []string{"SKILL.md", "references/API.md", "scripts/build.py"}
	ctx := t.Context()
	if _, err := fx.store.Rescan(); err != nil { // accepted as first seen
		t.Fatal(err)
	}
	// Its scripts run: caches, dependencies, environments and keys appear.
	for i := range skills.MaxFiles + 10 {
		write(t, filepath.Join(dir, "node_modules", "docx", fmt.Sprintf("m%d.js", i)), "module.exports = 1\n", 0o644)
	}
	write(t, filepath.Join(dir, "scripts", "__pycache__", "build.cpython-312.pyc"), "\x00pyc", 0o644)
	write(t, filepath.Join(dir, ".venv", "pyvenv.cfg"), "home = /usr/bin\n", 0o644)
	write(t, filepath.Join(dir, ".venv", "lib", "site.py"), "x = 1\n", 0o644)
	write(t, filepath.Join(dir, "venv", "pyvenv.cfg"), "home = /usr/bin\n", 0o644)
	write(t, filepath.Join(dir, "venv", "lib", "site.py"), "x = 1\n", 0o644)
	write(t, filepath.Join(dir, ".env"), "OPENAI_API_KEY=sk-proj-0123456789abcdef\n", 0o600)
	write(t, filepath.Join(dir, ".DS_Store"), "\x00\x01", 0o644)
	l, err := fx.store.Rescan()
	if err != nil {
		t.Fatal(err)
	}
	en, ok := find(l, "docx")
	if !ok {
		t.Fatalf("docx not listed: %+v", l.Invalid)
	}
	var paths []string
	for _, f := range en.Files {
		paths = append(paths, f.Path)
	}
	if !slices.Equal(paths, accepted) {
		t.Errorf("files = %v, want %v", paths, accepted)
	}
	if en.State != localskills.Accepted || len(en.Changes) > 0 {
		t.Errorf("after its scripts ran: %s %v; want it accepted as it was", en.State, en.Changes)
	}
	for _, want := range []string{".env: a hidden file", "node_modules: a folder of dependencies", ".venv: a hidden folder", "venv: a Python virtualenv", "scripts/__pycache__: a folder"} {
		if !slices.ContainsFunc(en.LeftOut, func(lo string) bool { return strings.HasPrefix(lo, want) }) {
			t.Errorf("left out %q, want a line starting %q", en.LeftOut, want)
		}
	}
	if len(en.LeftOut) != 5 {
		t.Errorf("left out %d lines (%q), want one for each folder or hidden file, none for .DS_Store", len(en.LeftOut), en.LeftOut)
	}
	cat := catalog(fx.store)
	sk, err := cat.Find(ctx, "skills@claude", "docx")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cat.Read(ctx, sk, "skill://docx/.env"); !errors.Is(err, skills.ErrUnknownSkill) {
		t.Errorf("reading .env: %v, want it unknown", err)
	}
	if b, err := cat.Read(ctx, sk, "skill://docx/references/API.md"); err != nil || string(b) != "# API\n" {
		t.Errorf("its own reference: %q, %v", b, err)
	}
}
