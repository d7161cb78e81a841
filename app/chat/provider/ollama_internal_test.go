package provider

import (
	"encoding/json"
	"fmt"
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
	for i, req := range requestCases() {
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
		sameParts(t, fmt.Sprintf("case %d", i), body, want)
		if !sameJSON(t, body, want) {
			t.Errorf("case %d: body\n %s\nwant\n %s", i, body, want)
		}
	}
}
