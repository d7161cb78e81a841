package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
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

// TestRequestAsTheSDKWritesIt checks the body a step sends is the request
// the SDK writes from the same params: each message byte for byte, and the
// whole body the same JSON value (its members in another order).
func TestRequestAsTheSDKWritesIt(t *testing.T) {
	base, _ := url.Parse("http://127.0.0.1:1/v1")
	p := newOpenAI(Config{Name: "x"}, base)
	for _, req := range requestCases() {
		names := newToolNames(openAINameLimit, req)
		body, err := p.body(req, names)
		if err != nil {
			t.Fatal(err)
		}
		sdk, err := sdkParams(p, req, names).MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var got, want struct{ Messages, Tools []json.RawMessage }
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatalf("body %s: %v", body, err)
		}
		if err := json.Unmarshal(sdk, &want); err != nil {
			t.Fatal(err)
		}
		if len(got.Messages) != len(want.Messages) || len(want.Messages) < len(req.Messages) {
			t.Fatalf("%d messages sent, the SDK's %d:\n%s", len(got.Messages), len(want.Messages), body)
		}
		for i := range want.Messages {
			if !bytes.Equal(got.Messages[i], want.Messages[i]) {
				t.Errorf("message %d\n got %s\nwant %s", i, got.Messages[i], want.Messages[i])
			}
		}
		var gotAll, wantAll any
		_ = json.Unmarshal(withoutStream(t, body), &gotAll)
		_ = json.Unmarshal(sdk, &wantAll)
		if !reflect.DeepEqual(gotAll, wantAll) {
			t.Errorf("body\n %s\nwant the SDK's\n %s", body, sdk)
		}
		if len(req.Tools) > 0 && req.ToolChoice != "" && !strings.Contains(string(body), `"tool_choice":"`+string(req.ToolChoice)+`"`) {
			t.Errorf("body %s has no tool_choice", body)
		}
	}
}

// TestAppendJSONString checks strings are escaped as encoding/json escapes
// them without HTML escaping: every byte alone, runes it treats apart,
// invalid UTF-8, and random bytes.
func TestAppendJSONString(t *testing.T) {
	cases := []string{"", "plain", "\u2028", "\u2029", "a\u2028b\u2029c", "é😀", "\xff", "\xc3", "\xe2\x80", "a\xffb\xc3(c", "<>&", "\x7f\x80"}
	for c := range 256 {
		cases = append(cases, string([]byte{byte(c)}), "x"+string([]byte{byte(c)})+"y")
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, rnd.IntN(24))
		for i := range b {
			b[i] = byte(rnd.IntN(256))
		}
		cases = append(cases, string(b))
	}
	for _, c := range cases {
		want, err := marshalNoEscape(c)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString([]byte("x"), c); string(got[1:]) != string(want) {
			t.Errorf("appendJSONString(%q) = %s, want %s", c, got[1:], want)
		}
	}
}

// withoutStream is body without its "stream":true, which the SDKs set
// as they send (params have no such field); it fails the test if body
// lacks it.
func withoutStream(t *testing.T, body []byte) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("body %s: %v", body, err)
	}
	if string(m["stream"]) != "true" || !bytes.HasPrefix(body, []byte(`{"stream":true,`)) {
		t.Fatalf(`body %.200s does not start with "stream":true`, body)
	}
	delete(m, "stream")
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// requestCases are requests whose every part a provider writes itself:
// strings that need escaping, images and audio, calls with odd ids and
// garbled arguments, error results, empty texts, settings.
func requestCases() []Request {
	temp := 0.3
	schema := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"a <path> & more"}},"required":["path"]}`)
	odd := "quote \" backslash \\ tab \t nl \n cr \r bs \b ff \f nul \x00 esc \x1b del \x7f <b>&amp; \u2028\u2029 bad \xff\xc3 é 😀"
	return []Request{
		{Model: "m"},
		{Model: "m", Messages: []Message{{Role: RoleUser, Text: "hi"}}},
		{Model: "m", System: odd, Messages: []Message{{Role: RoleUser, Text: odd}, {Role: RoleAssistant, Text: odd}}},
		{Model: "m", System: "Be brief.", MaxTokens: 100, Temperature: &temp, ToolChoice: ToolChoiceRequired,
			Tools: []Tool{{Name: "files__read_file", Description: "Read a file.", InputSchema: schema}, {Name: "web.fetch", InputSchema: nil}},
			Messages: []Message{
				{Role: RoleUser, Text: "read it", Images: []Image{{MIMEType: "image/png", Data: "iVBORw0KGgo="}}},
				{Role: RoleAssistant, ToolCalls: []ToolCall{
					{ID: "c1", Name: "files__read_file", Arguments: json.RawMessage(`{"path": "a.txt"}`)},
					{ID: odd, Name: "web.fetch", Arguments: nil},
					{ID: "c3", Name: "gone__tool", Arguments: json.RawMessage(`not json`)},
				}},
				{Role: RoleTool, ToolCallID: "c1", ToolName: "files__read_file", Text: "contents", IsError: true,
					Images: []Image{{MIMEType: "image/jpeg", Data: "/9j/"}}},
				{Role: RoleTool, ToolCallID: odd, ToolName: "web.fetch", Text: odd},
				{Role: RoleTool, ToolCallID: "c3", ToolName: "gone__tool", Text: ""},
				{Role: RoleAssistant, Text: "done", ToolCalls: []ToolCall{{ID: "c4", Name: "files__read_file", Arguments: json.RawMessage(`{}`)}}},
				{Role: RoleTool, ToolCallID: "c4", ToolName: "files__read_file", Text: "again"},
				{Role: RoleAssistant, Text: ""},
				{Role: RoleUser, Text: "", Audio: []Audio{{Format: "wav", Data: "UklGRg=="}}},
			}},
		{Model: "m", ToolChoice: ToolChoiceNone,
			Tools: []Tool{{Name: "t", Description: odd, InputSchema: schema}},
			Messages: []Message{
				{Role: RoleUser, Text: "go"},
				{Role: RoleAssistant, Text: "calling", ToolCalls: []ToolCall{
					{ID: "a", Name: "t", Arguments: json.RawMessage(" \n{\"path\" : [1, 2], \"s\": \"<\u00e9>\"}\n")},
					{ID: "b", Name: "t", Arguments: json.RawMessage(`null`)},
					{ID: "c", Name: "t", Arguments: json.RawMessage(`[1]`)},
					{ID: "d", Name: "t", Arguments: json.RawMessage(`{"path":`)},
					{ID: "e", Name: "t", Arguments: json.RawMessage(`{} {}`)},
				}},
				{Role: RoleTool, ToolCallID: "a", ToolName: "t", Images: []Image{{MIMEType: "image/png", Data: "AA=="}, {MIMEType: "image/gif", Data: "R0lG"}}},
				{Role: RoleTool, ToolCallID: "b", ToolName: "t", Text: "b", IsError: true},
				{Role: RoleTool, ToolCallID: "c", ToolName: "t", Text: "c"},
				{Role: RoleTool, ToolCallID: "d", ToolName: "t", Text: "d"},
				{Role: RoleTool, ToolCallID: "e", ToolName: "t", Text: "e"},
				{Role: RoleUser, Text: "and now " + odd},
				{Role: RoleUser, Text: "again"},
			}},
	}
}

// TestTranslationsKeptWithinTheirBytes: the kept translations start over
// before their keys and JSON pass maxTranslatedBytes, and a schema
// translated again after that is the same JSON.
func TestTranslationsKeptWithinTheirBytes(t *testing.T) {
	old := maxTranslatedBytes
	maxTranslatedBytes = 64 << 10
	t.Cleanup(func() { maxTranslatedBytes = old })
	schema := func(i int) json.RawMessage {
		return json.RawMessage(fmt.Sprintf(`{"type":"object","description":"tool %d %s","properties":{"a":{"type":"string"}}}`, i, strings.Repeat("x", 4<<10)))
	}
	first := append(json.RawMessage{}, ToolSchemaJSON(schema(0), DialectOpenAI)...)
	for i := range 100 {
		ToolSchemaJSON(schema(i), DialectOpenAI)
		translated.Lock()
		size, n := translated.size, translated.n
		translated.Unlock()
		if size > maxTranslatedBytes || n > 16 {
			t.Fatalf("after %d schemas of 4 KB the kept translations hold %d bytes in %d, over the bound of %d", i+1, size, n, maxTranslatedBytes)
		}
	}
	if again := ToolSchemaJSON(schema(0), DialectOpenAI); !bytes.Equal(again, first) {
		t.Errorf("translated again: %s\nwant %s", again, first)
	}
}

// sdkParams is the request as the SDK's params, which the provider encoded
// by reflection before it wrote the messages and tools itself: the
// reference TestRequestAsTheSDKWritesIt holds the body to.
func sdkParams(p *openAIProvider, req Request, names *toolNames) openai.ChatCompletionNewParams {
	params, msgs, tools := p.request(req, names)
	for _, m := range msgs {
		params.Messages = append(params.Messages, sdkMessage(m))
	}
	for _, t := range tools {
		fn := param.Override[openai.ChatCompletionFunctionToolParam](json.RawMessage(t.appendTo(nil)))
		params.Tools = append(params.Tools, openai.ChatCompletionToolUnionParam{OfFunction: &fn})
	}
	return params
}

// sdkMessage is the message as the SDK's param, as the provider built it
// before it wrote the message itself.
func sdkMessage(m wireMessage) openai.ChatCompletionMessageParamUnion {
	switch m.role {
	case "system":
		return openai.SystemMessage(m.text)
	case "user":
		return openai.UserMessage(m.text)
	case "tool":
		return openai.ToolMessage(m.text, m.toolCallID)
	case "assistant":
		var a openai.ChatCompletionAssistantMessageParam
		if m.content {
			a.Content.OfString = openai.String(m.text)
		}
		for _, c := range m.calls {
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID:       c.id,
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.name, Arguments: c.args},
				},
			})
		}
		return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}
	}
	return m.sdk
}
