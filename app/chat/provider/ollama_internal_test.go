package provider

import (
	"encoding/json"
	"testing"
)

// jsonOllamaRequest is how the provider built a request's body before it
// wrote it itself: the struct encoding/json encoded, kept as the reference
// the written body must equal as a JSON value.
type jsonOllamaRequest struct {
	Model    string          `json:"model"`
	Messages []ollamaMessage `json:"messages"`
	Tools    []ollamaTool    `json:"tools,omitempty"`
	Stream   bool            `json:"stream"`
	Options  map[string]any  `json:"options,omitempty"`
}

// jsonOllamaBody is the provider's former builder (its body method), with
// the options the request ended with.
func jsonOllamaBody(req Request, names *toolNames, options map[string]any) ([]byte, error) {
	body := jsonOllamaRequest{Model: req.Model, Stream: true, Messages: []ollamaMessage{}, Options: options}
	if req.System != "" {
		body.Messages = append(body.Messages, ollamaMessage{Role: "system", Content: req.System})
	}
	for _, m := range req.Messages {
		om := ollamaMessage{Role: string(m.Role), Content: m.Text}
		switch m.Role {
		case RoleAssistant:
			for i, c := range m.ToolCalls {
				var tc ollamaToolCall
				tc.ID, tc.Function.Index, tc.Function.Name = c.ID, i, names.toWire(c.Name)
				var args map[string]any
				if json.Unmarshal(c.Arguments, &args) != nil || args == nil {
					tc.Function.Arguments = json.RawMessage(`{}`)
				} else {
					tc.Function.Arguments = c.Arguments
				}
				om.ToolCalls = append(om.ToolCalls, tc)
			}
		case RoleTool:
			if m.IsError {
				om.Content = "Error: " + m.Text
			}
			om.ToolCallID = m.ToolCallID
			if m.ToolName != "" {
				om.ToolName = names.toWire(m.ToolName)
			}
		}
		for _, img := range m.Images {
			om.Images = append(om.Images, img.Data)
		}
		body.Messages = append(body.Messages, om)
	}
	if req.ToolChoice != ToolChoiceNone {
		for _, t := range req.Tools {
			var ot ollamaTool
			ot.Type = "function"
			ot.Function.Name, ot.Function.Description, ot.Function.Parameters = names.toWire(t.Name), t.Description, ToolSchemaJSON(t.InputSchema, DialectOllama)
			body.Tools = append(body.Tools, ot)
		}
	}
	return json.Marshal(body)
}

// TestOllamaRequestAsEncodingJSONWroteIt: the body the provider writes is,
// message by message, tool by tool and whole, the JSON value encoding/json
// wrote for the former request struct (bytes differ: encoding/json escapes
// <, > and & and compacts a call's arguments).
func TestOllamaRequestAsEncodingJSONWroteIt(t *testing.T) {
	p := &ollamaProvider{name: "x"}
	for _, req := range requestCases() {
		names := newToolNames(openAINameLimit, req)
		msgs, tools, options := p.request(req, names)
		body, err := ollamaBody(req.Model, msgs, tools)
		if err != nil {
			t.Fatal(err)
		}
		options["num_ctx"] = ollamaCtx(len(body), 100, 0)
		if body, err = withOptions(body, options); err != nil {
			t.Fatal(err)
		}
		want, err := jsonOllamaBody(req, names, options)
		if err != nil {
			t.Fatal(err)
		}
		var got, ref struct{ Messages, Tools []json.RawMessage }
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatalf("body %s: %v", body, err)
		}
		if err := json.Unmarshal(want, &ref); err != nil {
			t.Fatal(err)
		}
		if len(got.Messages) != len(ref.Messages) || len(got.Tools) != len(ref.Tools) {
			t.Fatalf("%d messages and %d tools sent, encoding/json's %d and %d:\n%s", len(got.Messages), len(got.Tools), len(ref.Messages), len(ref.Tools), body)
		}
		for i := range ref.Messages {
			if !sameJSON(t, got.Messages[i], ref.Messages[i]) {
				t.Errorf("message %d\n got %s\nwant %s", i, got.Messages[i], ref.Messages[i])
			}
		}
		for i := range ref.Tools {
			if !sameJSON(t, got.Tools[i], ref.Tools[i]) {
				t.Errorf("tool %d\n got %s\nwant %s", i, got.Tools[i], ref.Tools[i])
			}
		}
		if !sameJSON(t, body, want) {
			t.Errorf("body\n %s\nwant\n %s", body, want)
		}
	}
}
