package gui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// A server that offers skills but fails to list them is named on the
// Skills page, with what to do and its own error, while the other
// servers' skills are listed as before.
func TestAllServerSkillsNamesTheServerThatCannotList(t *testing.T) {
	a, dir := window(t)
	bin := proctest.ModernServer(t)
	terminal(t, dir, "", "servers", "add", "handbook", "--", bin)
	terminal(t, dir, "", "servers", "add", "index", "--", bin, "-fail-skills")
	if err := a.h.Servers.Load(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	a.h.Servers.Settle(ctx)

	l, err := a.SkillsPage.AllServerSkills()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range l.Skills {
		if s.Server != "handbook" {
			t.Errorf("skill %s/%s listed: only handbook lists its skills", s.Server, s.Name)
		}
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "release-notes,haiku" {
		t.Errorf("handbook's skills: %v, want release-notes and haiku", names)
	}
	if len(l.Errors) != 1 || l.Errors[0].Server != "index" {
		t.Fatalf("errors %+v, want one for index", l.Errors)
	}
	sentence, detail, _ := strings.Cut(l.Errors[0].Error, "\n")
	if !strings.HasPrefix(sentence, "index could not list its skills; its tools still work.") || !strings.Contains(sentence, "Servers page") {
		t.Errorf("the sentence does not say what failed and what to do: %q", sentence)
	}
	if !strings.Contains(detail, "the skills index is being rebuilt") {
		t.Errorf("the detail does not carry the server's error: %q", detail)
	}
}
