package provider

import (
	"encoding/json"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// An OpenAI-compatible provider at Gemini's endpoint sends Gemini's
// dialect, one at api.openai.com OpenAI's: the wiring for hosts a test
// cannot reach.
func TestOpenAIProviderSendsItsHostsDialect(t *testing.T) {
	schema := json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"n":{"type":["integer","null"],"exclusiveMinimum":0}},"additionalProperties":false}`)
	for _, c := range []struct {
		base      string
		want, not []string
	}{
		{"https://generativelanguage.googleapis.com/v1beta/openai/", []string{`"nullable":true`, `"description":"Greater than 0."`}, []string{"additionalProperties", "exclusiveMinimum", "$schema", `"null"`}},
		{"https://api.openai.com/v1", []string{`"additionalProperties":false`, `"exclusiveMinimum":0`, `["integer","null"]`}, []string{"$schema", "nullable"}},
	} {
		base, _ := url.Parse(c.base)
		p := newOpenAI(Config{Name: "x"}, base)
		req := Request{Model: "m", Tools: []Tool{{Name: "t", InputSchema: schema}}}
		b, err := p.body(req, newToolNames(openAINameLimit, req))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s: %s lacks %s", c.base, b, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(string(b), n) {
				t.Errorf("%s: %s has %s", c.base, b, n)
			}
		}
	}
}

// TestBodyIsTheParams checks the body a step sends (the tools' kept JSON
// after the SDK's encoding of the rest) is the request the SDK would write
// from the same params, tools included.
func TestBodyIsTheParams(t *testing.T) {
	base, _ := url.Parse("http://127.0.0.1:1/v1")
	p := newOpenAI(Config{Name: "x"}, base)
	temp := 0.3
	schema := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"a <path> & more"}},"required":["path"]}`)
	for _, req := range []Request{
		{Model: "m", Messages: []Message{{Role: RoleUser, Text: "hi"}}},
		{Model: "m", System: "Be brief.", MaxTokens: 100, Temperature: &temp, ToolChoice: ToolChoiceRequired,
			Tools: []Tool{{Name: "files__read_file", Description: "Read a file.", InputSchema: schema}, {Name: "web.fetch", InputSchema: nil}},
			Messages: []Message{
				{Role: RoleUser, Text: "read it", Images: []Image{{MIMEType: "image/png", Data: "iVBORw0KGgo="}}},
				{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "files__read_file", Arguments: json.RawMessage(`{"path":"a.txt"}`)}}},
				{Role: RoleTool, ToolCallID: "c1", ToolName: "files__read_file", Text: "contents", IsError: true},
			}},
	} {
		names := newToolNames(openAINameLimit, req)
		body, err := p.body(req, names)
		if err != nil {
			t.Fatal(err)
		}
		sdk, err := p.params(req, names).MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var got, want any
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatalf("body %s: %v", body, err)
		}
		if err := json.Unmarshal(sdk, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("body\n %s\nwant the SDK's\n %s", body, sdk)
		}
		if len(req.Tools) > 0 && !strings.Contains(string(body), `"tool_choice":"required"`) {
			t.Errorf("body %s has no tool_choice", body)
		}
	}
}
