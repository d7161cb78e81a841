package chat_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/mcpmanager/skills"
)

// TestALongSkillFileIsReadInParts: a skill's reference longer than a
// result may be reaches the model as its head and a handle, and the model
// reads on with read_result: the skill's later lines are not lost (cut
// with a note to "ask the tool for a narrower range", which load_skill
// has no way to do).
func TestALongSkillFileIsReadInParts(t *testing.T) {
	kf := newKeptFixture(t)
	var b strings.Builder
	for i := range 5_000 {
		fmt.Fprintf(&b, "rule %d: lorem ipsum dolor sit amet\n", i)
	}
	set := &fakeSkills{
		list: []skills.Skill{skillOf("docs", "style-guide", "The house style", "references/RULES.md")},
		files: map[string]string{
			"skill://style-guide/SKILL.md":            "---\nname: style-guide\n---\nRead references/RULES.md.",
			"skill://style-guide/references/RULES.md": b.String(),
		},
	}
	id := kf.chat.ID + ":c1"
	kf.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", chat.LoadSkillName, `{"name":"style-guide","file":"references/RULES.md"}`)}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("c2", chat.ReadResultName, `{"id":"`+id+`","fromLine":4990}`)}},
		providertest.Reply{Text: "read it"},
	)
	res, err := kf.send(t.Context(), "follow the house style", func(tu *chat.Turn) { tu.Skills = set; tu.ResultBudget = 2_000 })
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ToolCalls) != 2 {
		t.Fatalf("%d calls, want 2", len(res.ToolCalls))
	}
	if k, ok := chat.KeptOf(res.ToolCalls[0].Result); !ok || k.ID != id {
		t.Fatalf("the long file has no kept handle (%+v): %.300s", k, res.ToolCalls[0].Result)
	}
	if got := callResultText(t, res.ToolCalls[1].Result); res.ToolCalls[1].IsError || !strings.Contains(got, "rule 4995: lorem") {
		t.Fatalf("read_result from line 4990: %.500s", got)
	}
	if strings.Contains(string(kf.llm.Requests()[1]), "narrower range") {
		t.Error("the model was told to ask load_skill for a narrower range, which it cannot")
	}
}
