package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

// TestChatInCodeModeShowsTheScriptAndItsCalls: --tools code offers the
// three code mode tools; the script, each call it makes (nested), what it
// printed and what it returned are printed, and --json lists the calls
// under the script's call.
func TestChatInCodeModeShowsTheScriptAndItsCalls(t *testing.T) {
	llm := providertest.NewServer(t)
	dir := t.TempDir()
	script := "const s = await tools[\"content-store\"].listStores({});\nconsole.log(\"listed\");\nreturn {stores: s.text.length > 0};"
	args, _ := json.Marshal(map[string]string{"script": script})
	llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "s1", Name: chat.RunScriptName, Arguments: string(args)}}},
		providertest.Reply{Text: "Listed."},
	)
	code, out, errOut := runChat(t, dir, "", "--provider", "openai", "--base-url", llm.URL(provider.KindOpenAI), "--model", "m1", "--yes", "--tools", "code", "--json", "list the stores")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	first := string(llm.Requests()[0])
	if !strings.Contains(first, `"run_script"`) || strings.Contains(first, `"content-store__listStores"`) {
		t.Errorf("code mode offered: %s", first)
	}
	for _, want := range []string{"→ run_script\n  │ const s = await tools[\"content-store\"].listStores({});\n  │ console.log(\"listed\");",
		"    → content-store__listStores {}", "    ← content-store__listStores done", "  printed: listed", `  returned: {"stores":true}`} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	var res struct {
		ToolCalls []struct {
			Tool   string
			Result struct {
				StructuredContent chat.ScriptResult `json:"structuredContent"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.ToolCalls) != 1 || res.ToolCalls[0].Tool != chat.RunScriptName || len(res.ToolCalls[0].Result.StructuredContent.Calls) != 1 ||
		res.ToolCalls[0].Result.StructuredContent.Calls[0].Tool != "content-store__listStores" {
		t.Errorf("--json: %s", out)
	}
	if code, _, e := runChat(t, dir, "", "--tools", "scripts", "hi"); code != ExitUsage || !strings.Contains(e, `tool mode "scripts" is not one of direct, code or both`) {
		t.Errorf("a wrong --tools: %d %s", code, e)
	}
}
