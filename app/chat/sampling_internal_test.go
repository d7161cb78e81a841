package chat

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat/provider"
)

// TestSamplingRequestMapsTheToolExchange: the second round of a sampling
// with tools — the model's tool_use, the server's tool_result — becomes an
// assistant message with the call and a tool message answering it (its
// image as an image when the model takes them), as received from JSON.
func TestSamplingRequestMapsTheToolExchange(t *testing.T) {
	const png1x1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
	raw := `{"messages":[
		{"role":"user","content":{"type":"text","text":"Weather in Paris?"}},
		{"role":"assistant","content":[{"type":"tool_use","id":"w1","name":"get_weather","input":{"city":"Paris"}}]},
		{"role":"user","content":[{"type":"tool_result","toolUseId":"w1","content":[{"type":"text","text":"18°C"},{"type":"image","mimeType":"image/png","data":"` + png1x1 + `"}]}]}
	],"tools":[{"name":"get_weather","inputSchema":{"type":"object"}}],"toolChoice":{"mode":"auto"},"maxTokens":50}`
	var p mcp.CreateMessageParams
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		t.Fatal(err)
	}
	for i := range p.Messages { // as the client hands them to the handler
		c, err := mcp.ParseSamplingContent(p.Messages[i].Content)
		if err != nil {
			t.Fatal(err)
		}
		p.Messages[i].Content = c
	}
	for _, images := range []bool{true, false} {
		pr, err := samplingRequest(Model{Name: "m", Images: images}, p)
		if err != nil {
			t.Fatal(err)
		}
		want := []provider.Message{
			{Role: provider.RoleUser, Text: "Weather in Paris?"},
			{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "w1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}}},
			{Role: provider.RoleTool, ToolCallID: "w1", ToolName: "get_weather", Text: "18°C\n[image image/png, 96 bytes base64]"},
		}
		if images {
			want[2].Text = "18°C\n[image 1: image/png, attached]"
			want[2].Images = []provider.Image{{MIMEType: "image/png", Data: png1x1}}
		}
		if !reflect.DeepEqual(pr.Messages, want) || pr.ToolChoice != provider.ToolChoiceAuto || len(pr.Tools) != 1 || pr.MaxTokens != 50 {
			t.Errorf("images %v: got %+v, choice %q, tools %+v", images, pr.Messages, pr.ToolChoice, pr.Tools)
		}
	}
}
