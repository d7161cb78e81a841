package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

// TestASkillSwitchedOffIsSaidSo: a model that asks for a skill the user
// switched off is told so, and how the user switches it on, not "no skill
// named pdf-forms" with another skill of a name like it to take instead.
func TestASkillSwitchedOffIsSaidSo(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	data := t.TempDir()
	skills := filepath.Join(home, ".claude", "skills")
	pdfSkill(t, skills, "pdf-forms", filepath.Join(home, "nothing"))
	pdfSkill(t, skills, "pdf-tables", filepath.Join(home, "nothing"))
	if code, out, errOut := runIn(t, data, "skills", "off", "pdf-forms"); code != 0 {
		t.Fatalf("skills off = %d %q %q", code, out, errOut)
	}
	llm := providertest.NewServer(t)
	llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "l1", Name: "load_skill", Arguments: `{"name":"pdf-forms"}`}}},
		providertest.Reply{Text: "It is off."},
	)
	code, out, errOut := runChat(t, data, "", "--provider", "openai", "--base-url", llm.URL(provider.KindOpenAI), "--model", "m1", "--yes", "fill", "tax.pdf")
	if code != 0 || strings.TrimSpace(out) != "It is off." {
		t.Fatalf("chat = %d %q %q", code, out, errOut)
	}
	reqs := llm.Requests()
	if strings.Contains(string(reqs[0]), "pdf-forms:") {
		t.Fatalf("the switched-off skill is offered: %s", reqs[0])
	}
	if got := string(reqs[1]); !strings.Contains(got, "the user switched the skill skills@claude/pdf-forms off") ||
		!strings.Contains(got, "switchboard skills on skills@claude/pdf-forms") || strings.Contains(got, "a name like it") {
		t.Fatalf("what the model was told: %s", got)
	}
}
