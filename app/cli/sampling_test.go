package cli

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// question is in the samplerserver's sampling requests, never in the chat's own.
var question = regexp.MustCompile(`question [0-9]`)

// TestChatYesIsNoYesToSampling runs 'switchboard chat --yes' with a server
// (the testserver's mode samplerserver) whose tool asks for the model eight times in a
// row: --yes approves the tool call, not the sampling. Under the default
// setting (ask) with no terminal to ask on, no request reaches the model;
// with "allow" and a cap of 3 a minute, exactly 3 do. Every refusal is a
// line on stderr, and the server is told why.
func TestChatYesIsNoYesToSampling(t *testing.T) {
	bin := proctest.Server(t, "samplerserver")
	servers := writeFile(t, "mcp.json", fmt.Sprintf(`{"mcpServers": {"sampler": {"command": %q}}}`, bin))
	for _, tc := range []struct {
		name     string
		sampling chat.SamplingSettings
		reached  int    // sampling requests the model gets
		refusal  string // in each refusal line
	}{
		{"ask, with no terminal", chat.SamplingSettings{}, 0, "no terminal to ask on (--yes does not cover sampling"},
		{"allow, capped at 3 a minute", chat.SamplingSettings{Mode: chat.SamplingAllow, PerChat: 100, PerMinute: 3}, 3, "sampler asked more than 3 times in a minute"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			raw, err := chat.Settings{Sampling: tc.sampling}.Into(nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := config.Edit(t.Context(), filepath.Join(dir, "config.json"), func(c *config.Config) error { c.Settings = raw; return nil }); err != nil {
				t.Fatal(err)
			}
			llm := providertest.NewServer(t)
			llm.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "c1", Name: "sampler__sample_loop", Arguments: `{"times":8}`}}})
			for i := range tc.reached {
				llm.Enqueue(providertest.Reply{Text: fmt.Sprintf("answer %d", i+1)})
			}
			llm.Enqueue(providertest.Reply{Text: "Done."})

			code, out, errOut := runChat(t, dir, "", "--config", servers, "--provider", "openai", "--base-url", llm.URL(provider.KindOpenAI), "--model", "m1", "--yes", "sample away")
			if code != 0 || strings.TrimSpace(out) != "Done." {
				t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, out, errOut)
			}
			var sampled []string
			for _, r := range llm.Requests() {
				if question.Match(r) {
					sampled = append(sampled, string(r))
				}
			}
			if len(sampled) != tc.reached {
				t.Fatalf("%d sampling requests reached the model; want %d", len(sampled), tc.reached)
			}
			for _, r := range sampled {
				if !strings.Contains(r, `"max_tokens":4096`) && !strings.Contains(r, `"max_completion_tokens":4096`) {
					t.Fatalf("maxTokens 1000000 was not clamped to 4096: %s", r)
				}
			}
			lines := strings.Count(errOut, "switchboard: refused sampler's request to use the model: ")
			if lines != 8-tc.reached || !strings.Contains(errOut, tc.refusal) {
				t.Fatalf("%d refusal lines on stderr; want %d with %q:\n%s", lines, 8-tc.reached, tc.refusal, errOut)
			}
			// The server heard why, and said so in its result.
			last := string(llm.Requests()[len(llm.Requests())-1])
			want := fmt.Sprintf("answered %d, refused %d; first refusal: ", tc.reached, 8-tc.reached)
			if !strings.Contains(last, want) || !strings.Contains(last, "switchboard refused the request to use the model") {
				t.Fatalf("the tool's result lacks %q: %s", want, last)
			}
		})
	}
}
