package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// TestServersSkills: 'servers skills' lists a real server's skills (name,
// state, size) without reading them, switches one off for the chats, and a
// chat's model then sees only the skills left on, loads one (its
// SKILL.md reaches the next step), and is refused a tampered one.
func TestServersSkills(t *testing.T) {
	data := t.TempDir()
	bin := proctest.ModernServer(t)
	for _, add := range [][]string{
		{"servers", "add", "modern", "--", bin},
		{"servers", "add", "corrupt", "--", bin, "-corrupt-skill"},
	} {
		if code, _, errOut := runIn(t, data, add...); code != 0 {
			t.Fatalf("%v: %s", add, errOut)
		}
	}
	code, out, errOut := runIn(t, data, "servers", "skills", "modern")
	if code != 0 || !strings.Contains(out, "release-notes") || !strings.Contains(out, "350 B in 2 files") || !strings.Contains(out, "haiku") || strings.Contains(out, "off") {
		t.Fatalf("servers skills = %d %q %q", code, out, errOut)
	}
	if code, _, errOut := runIn(t, data, "servers", "skills", "modern", "--off", "haiku"); code != 0 {
		t.Fatalf("--off: %s", errOut)
	}
	code, out, errOut = runIn(t, data, "--json", "servers", "skills", "modern")
	var list struct {
		Offered bool
		Skills  []struct {
			Name  string
			On    bool
			Files int
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || !list.Offered || len(list.Skills) != 2 || !list.Skills[0].On || list.Skills[1].On || list.Skills[0].Files != 2 {
		t.Fatalf("--json = %d %q %q", code, out, errOut)
	}
	if code, _, errOut := runIn(t, data, "servers", "skills", "modern", "--on", "sonnet"); code != ExitUsage || !strings.Contains(errOut, `no skill of that name "sonnet"`) {
		t.Fatalf("--on an unknown skill = %d %q", code, errOut)
	}
	if code, _, errOut := runIn(t, data, "servers", "skills", "nope"); code != ExitUsage || !strings.Contains(errOut, `no server named "nope"`) {
		t.Fatalf("an unknown server = %d %q", code, errOut)
	}

	llm := providertest.NewServer(t)
	llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "l1", Name: "load_skill", Arguments: `{"name":"modern/release-notes"}`}}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "l2", Name: "load_skill", Arguments: `{"name":"haiku"}`}}},
		providertest.Reply{Text: "Done."},
	)
	code, out, errOut = runChat(t, data, "", "--provider", "openai", "--base-url", llm.URL(provider.KindOpenAI), "--model", "m1", "--yes", "write", "the", "release", "notes")
	if code != 0 || strings.TrimSpace(out) != "Done." {
		t.Fatalf("chat = %d %q %q", code, out, errOut)
	}
	reqs := llm.Requests()
	first := string(reqs[0])
	// Both servers list release-notes, so each is server/name; only the
	// corrupt server's haiku is on, so it keeps its own name.
	for _, want := range []string{"modern/release-notes", "corrupt/release-notes", "- haiku: Answer in a haiku"} {
		if !strings.Contains(first, want) {
			t.Errorf("the first request lacks %q", want)
		}
	}
	if strings.Contains(first, "Group the changes") {
		t.Fatal("a skill's content reached the model before it was loaded")
	}
	if !strings.Contains(string(reqs[1]), "Group the changes under Added, Changed and Fixed.") {
		t.Fatalf("the loaded skill did not reach the model: %s", reqs[1])
	}
	if last := string(reqs[2]); !strings.Contains(last, "verification failed") || !strings.Contains(last, "corrupt: skill haiku: SKILL.md") {
		t.Fatalf("the tampered skill was not refused: %s", last)
	}
	if !strings.Contains(errOut, "← load_skill error: The tool call failed: corrupt: skill haiku: SKILL.md: verification failed") {
		t.Errorf("the terminal does not say why the skill was not loaded: %s", errOut)
	}
}
