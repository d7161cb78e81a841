package mcpmanager

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/skills"
)

// skillLines are the skill requests a modernserver wrote to its log
// ("skills: list ..." and "skills: read ..."), in order, once want is among
// them (stderr reaches the log on its own goroutine).
func skillLines(t *testing.T, m *Manager, server, want string) []string {
	t.Helper()
	sup, err := m.Server(server)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		var lines []string
		for _, l := range sup.Log().Tail(500) {
			if i := strings.Index(l, "skills: "); i >= 0 {
				lines = append(lines, l[i:])
			}
		}
		if slices.Contains(lines, want) {
			return lines
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never logged %q; its skill requests: %q", server, want, lines)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSkillsOfAModernServer: a 2026-07-28 server's skills are listed over
// stdio and Streamable HTTP, every page of skills/list (one skill a page),
// once while its ttlMs holds; listing reads no file; loading a skill reads
// its SKILL.md and nothing else, verified; a file listed in its resources
// is read on demand; a tampered SKILL.md is refused with an error naming
// the server, skill and file.
func TestSkillsOfAModernServer(t *testing.T) {
	bin := proctest.ModernServer(t)
	ctx, m := modernManager(t, nil, ServerConfig{Name: "corrupt", Command: bin, Args: []string{"-corrupt-skill"}})
	cat := m.Skills()

	for _, server := range []string{"modern", "web", "corrupt"} {
		if !cat.Offers(server) {
			t.Fatalf("%s: Offers = false", server)
		}
		l, err := cat.List(ctx, server)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range l.Skills {
			names = append(names, s.Name)
		}
		if !slices.Equal(names, []string{"release-notes", "haiku"}) || len(l.Invalid) > 0 {
			t.Fatalf("%s: skills %v (invalid %v), want release-notes and haiku", server, names, l.Invalid)
		}
		if rn := l.Skills[0]; len(rn.Files) != 2 || rn.Size() != rn.Files[0].Size+rn.Files[1].Size || rn.Description == "" {
			t.Fatalf("%s: release-notes = %+v", server, rn)
		}
	}
	if _, err := cat.List(ctx, "modern"); err != nil { // cached: ttlMs is a minute
		t.Fatal(err)
	}

	rn, err := cat.Find(ctx, "modern", "release-notes")
	if err != nil {
		t.Fatal(err)
	}
	got, err := cat.Load(ctx, rn)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got.Text, "# Release notes") {
		t.Fatalf("loaded %q", got.Text)
	}
	lines := skillLines(t, m, "modern", "skills: read skill://release-notes/SKILL.md")
	want := []string{`skills: list ""`, `skills: list "skill://haiku/SKILL.md"`, "skills: read skill://release-notes/SKILL.md"}
	if !slices.Equal(lines, want) {
		t.Fatalf("the server saw %q, want %q: listed once (two pages), no file read before the skill was loaded, only its SKILL.md", lines, want)
	}
	tmpl, err := cat.Read(ctx, rn, "skill://release-notes/templates/TEMPLATE.md")
	if err != nil || !strings.Contains(string(tmpl), "## Fixed") {
		t.Fatalf("template: %q, %v", tmpl, err)
	}
	if _, err := cat.Read(ctx, rn, "skill://release-notes/secrets.txt"); !errors.Is(err, skills.ErrUnknownSkill) {
		t.Fatalf("a file the skill does not list: %v, want ErrUnknownSkill", err)
	}

	web, err := cat.Find(ctx, "web", "haiku")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := cat.Load(ctx, web); err != nil || !strings.Contains(got.Text, "five, seven and five") {
		t.Fatalf("web haiku: %q, %v", got.Text, err)
	}

	bad, err := cat.Find(ctx, "corrupt", "haiku")
	if err != nil {
		t.Fatal(err)
	}
	_, err = cat.Load(ctx, bad)
	if !errors.Is(err, skills.ErrVerify) {
		t.Fatalf("tampered SKILL.md: %v, want ErrVerify", err)
	}
	for _, w := range []string{"corrupt", "haiku", "SKILL.md"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not name %q", err, w)
		}
	}
}
