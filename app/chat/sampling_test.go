package chat_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// TestSamplingWithTools: a server's sampling request offering a tool with
// toolChoice "required" (the testserver in mode urlserver) is asked about
// with the tools listed, goes to the model with the tool and the choice in
// each wire format, and the model's call comes back to the server as a
// tool_use block with stopReason "toolUse".
func TestSamplingWithTools(t *testing.T) {
	bin := proctest.Server(t, "urlserver")
	for _, tc := range []struct {
		kind       provider.Kind
		wantChoice string // tool_choice as the wire format writes "required"
	}{
		{provider.KindOpenAI, `"required"`},
		{provider.KindAnthropic, `{"type":"any"}`},
	} {
		t.Run(string(tc.kind), func(t *testing.T) {
			f := newFixture(t, tc.kind, nil)
			m := mcpmanager.New(mcpmanager.Options{})
			// The test's own router call below is the server's call: the manager ties the request to it.
			m.SetRequestHandler(&chat.Requests{Engine: f.eng, Approver: f.appr,
				Fallback: func(context.Context) (chat.Model, error) { return chat.Model{Provider: f.p, Name: "m1"}, nil }})
			m.Apply([]mcpmanager.ServerConfig{{Name: "links", Command: bin}})
			t.Cleanup(func() { m.Close(context.Background()) })
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			m.WaitSettled(ctx)
			f.llm.Enqueue(providertest.Reply{Text: "Let me check.", ToolCalls: []providertest.ToolCall{call("w1", "get_weather", `{"city":"Paris"}`)}})

			res, err := m.Router().Call(ctx, "links", "sample_with_tools", nil, router.CallOptions{})
			if err != nil || res.IsError {
				t.Fatalf("sample_with_tools: %+v, %v", res, err)
			}
			var got struct {
				Role       string `json:"role"`
				Model      string `json:"model"`
				StopReason string `json:"stopReason"`
				Content    []struct {
					Type  string         `json:"type"`
					Text  string         `json:"text"`
					ID    string         `json:"id"`
					Name  string         `json:"name"`
					Input map[string]any `json:"input"`
				} `json:"content"`
			}
			mustJSON(t, []byte(mcptest.Text(res)), &got)
			if got.Role != "assistant" || got.Model != "m1" || got.StopReason != "toolUse" || len(got.Content) != 2 ||
				got.Content[0].Type != "text" || got.Content[0].Text != "Let me check." ||
				got.Content[1].Type != "tool_use" || got.Content[1].ID != "w1" || got.Content[1].Name != "get_weather" ||
				!reflect.DeepEqual(got.Content[1].Input, map[string]any{"city": "Paris"}) {
				t.Errorf("the server got %s", mcptest.Text(res))
			}

			asked := f.appr.asked()
			if len(asked) != 1 || asked[0].Kind != chat.KindSampling ||
				!reflect.DeepEqual(asked[0].Tools, []chat.OfferedTool{{Name: "get_weather", Description: "Current weather of a city."}}) {
				t.Errorf("approval asked: %+v", asked)
			}

			reqs := f.llm.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d model requests", len(reqs))
			}
			var body struct {
				Tools      []json.RawMessage `json:"tools"`
				ToolChoice json.RawMessage   `json:"tool_choice"`
			}
			mustJSON(t, reqs[0], &body)
			if len(body.Tools) != 1 || !json.Valid(body.ToolChoice) || compact(t, body.ToolChoice) != tc.wantChoice {
				t.Errorf("model request tools %s, tool_choice %s; want one tool and %s", body.Tools, body.ToolChoice, tc.wantChoice)
			}
			if !containsJSON(body.Tools[0], "get_weather") || !containsJSON(body.Tools[0], "city") {
				t.Errorf("tool sent: %s", body.Tools[0])
			}
		})
	}
}

func compact(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var v any
	mustJSON(t, raw, &v)
	out, _ := json.Marshal(v)
	return string(out)
}

func containsJSON(raw json.RawMessage, s string) bool {
	return json.Valid(raw) && strings.Contains(string(raw), s)
}
