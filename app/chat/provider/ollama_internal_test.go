package provider

import (
	"encoding/json"
	"testing"
)

// jsonOllamaRequest is the struct encoding/json encoded as a request's
// body before the provider wrote it itself: the reference the written body
// must equal as a JSON value. (What goes in it, request's messages, tools
// and options, is built as it was; the encoding is what changed.)
type jsonOllamaRequest struct {
	Model    string          `json:"model"`
	Messages []ollamaMessage `json:"messages"`
	Tools    []ollamaTool    `json:"tools,omitempty"`
	Stream   bool            `json:"stream"`
	Options  map[string]any  `json:"options,omitempty"`
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
		want, err := json.Marshal(jsonOllamaRequest{Model: req.Model, Messages: msgs, Tools: tools, Stream: true, Options: options})
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
