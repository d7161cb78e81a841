package chat_test

import (
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

// Arguments that do not match the tool's own schema never reach the server
// nor the user's approval: the model is told which field is wrong and
// calls again.
func TestArgsThatDoNotMatchGoBackToTheModel(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	f.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", "files__echo", `{"text":5}`), call("c2", "files__write", `{"path":["a"]}`)}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("c3", "files__echo", `{"text":"five"}`)}},
		providertest.Reply{Text: "done"},
	)
	if _, err := f.send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	second := string(f.llm.Requests()[1])
	for _, want := range []string{`The argument \"text\" of files__echo does not match`, `The argument \"path\" of files__write does not match`, "The tool was not called"} {
		if !strings.Contains(second, want) {
			t.Errorf("model not told %q: %s", want, second)
		}
	}
	if strings.Contains(second, "echo: ") || strings.Contains(second, "wrote ") {
		t.Errorf("the server was called with arguments its schema refuses: %s", second)
	}
	if asked := f.appr.asked(); len(asked) != 0 {
		t.Errorf("the user was asked to approve a call that could not run: %+v", asked)
	}
	if third := string(f.llm.Requests()[2]); !strings.Contains(third, "echo: five") {
		t.Errorf("the corrected call did not run: %s", third)
	}
}
