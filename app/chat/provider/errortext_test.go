package provider_test

import (
	"encoding/json"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

// TestErrorResultSaysErrorOnce: OpenAI's and Ollama's formats have no
// error flag, so a failed tool result says "Error: " in words — once: a
// server's own text that already begins with "error", in any case and
// after spaces, is sent as it is, not as "Error: Error: …".
func TestErrorResultSaysErrorOnce(t *testing.T) {
	for _, kind := range []provider.Kind{provider.KindOpenAI, provider.KindOllama} {
		for _, c := range []struct{ text, want string }{
			{"permission denied", "Error: permission denied"},
			{"Error: repository not found (404)", "Error: repository not found (404)"},
			{"ERROR 404", "ERROR 404"},
			{"  error executing tool: timeout", "  error executing tool: timeout"},
			{"Errno 2: no such file", "Error: Errno 2: no such file"},
			{"", "Error: "},
			{"The error was: x", "Error: The error was: x"},
		} {
			t.Run(string(kind)+"/"+c.text, func(t *testing.T) {
				s, p := newProvider(t, kind)
				s.Enqueue(providertest.Reply{Text: "ok"})
				req := followUp()
				req.Messages[3].Text = c.text
				if _, err := p.Stream(t.Context(), req, nil); err != nil {
					t.Fatal(err)
				}
				var body struct {
					Messages []struct {
						Role       string          `json:"role"`
						ToolCallID string          `json:"tool_call_id"`
						Content    json.RawMessage `json:"content"`
					} `json:"messages"`
				}
				if err := json.Unmarshal(s.Requests()[0], &body); err != nil {
					t.Fatal(err)
				}
				var got string
				for _, m := range body.Messages {
					if m.Role == "tool" && m.ToolCallID == "c2" {
						if err := json.Unmarshal(m.Content, &got); err != nil {
							t.Fatalf("content %s: %v", m.Content, err)
						}
					}
				}
				if got != c.want {
					t.Errorf("the failed result reads %q, want %q", got, c.want)
				}
			})
		}
	}
}
