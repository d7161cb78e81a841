package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/packages/param"
)

// sdkAnthropicParams is the request as the SDK's params, built from it
// directly (as the provider built them before it wrote its bodies): the
// reference its bodies are checked against.
func sdkAnthropicParams(req Request, names *toolNames) anthropic.MessageNewParams {
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(req.Model),
		MaxTokens: int64(DefaultMaxTokens),
	}
	if req.MaxTokens > 0 {
		params.MaxTokens = int64(req.MaxTokens)
	}
	// Prompt caching: the tools and the system prompt are the same at every
	// step of a chat, so they are marked as the cached prefix (the API
	// caches tools, then system, up to the last marker); a step then reads
	// them from the cache instead of paying for them again. A prefix
	// shorter than the model's minimum is simply not cached.
	if req.System != "" {
		params.System = []anthropic.TextBlockParam{{Text: req.System, CacheControl: anthropic.NewCacheControlEphemeralParam()}}
	}
	if req.Temperature != nil {
		params.Temperature = anthropic.Float(*req.Temperature)
	}
	// Consecutive messages of one role become one message: the API wants
	// all results of a turn's calls in one user message, and a user's text
	// after tool results belongs in it too.
	push := func(role anthropic.MessageParamRole, blocks ...anthropic.ContentBlockParamUnion) {
		if len(blocks) == 0 {
			return // the API refuses empty messages
		}
		if n := len(params.Messages); n > 0 && params.Messages[n-1].Role == role {
			params.Messages[n-1].Content = append(params.Messages[n-1].Content, blocks...)
			return
		}
		params.Messages = append(params.Messages, anthropic.MessageParam{Role: role, Content: blocks})
	}
	for _, m := range req.Messages {
		switch m.Role {
		case RoleUser:
			var blocks []anthropic.ContentBlockParamUnion
			if m.Text != "" { // the API refuses empty text blocks
				blocks = append(blocks, anthropic.NewTextBlock(m.Text))
			}
			for _, img := range m.Images {
				blocks = append(blocks, anthropic.NewImageBlockBase64(img.MIMEType, img.Data))
			}
			push(anthropic.MessageParamRoleUser, blocks...)
		case RoleAssistant:
			var blocks []anthropic.ContentBlockParamUnion
			if m.Text != "" {
				blocks = append(blocks, anthropic.NewTextBlock(m.Text))
			}
			for _, c := range m.ToolCalls {
				blocks = append(blocks, anthropic.NewToolUseBlock(anthropicID(c.ID), sdkToolInput(c.Arguments), names.toWire(c.Name)))
			}
			push(anthropic.MessageParamRoleAssistant, blocks...)
		case RoleTool:
			res := anthropic.ToolResultBlockParam{ToolUseID: anthropicID(m.ToolCallID)} // ids in the form Anthropic takes (TestAnthropicIDs)
			if m.Text != "" {
				res.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: m.Text}}}
			}
			// m.Audio is left out: the API takes no audio (chat never
			// attaches it for this kind; the text describes it).
			for _, img := range m.Images { // the API takes images inside the result
				res.Content = append(res.Content, anthropic.ToolResultBlockParamContentUnion{OfImage: &anthropic.ImageBlockParam{
					Source: anthropic.ImageBlockParamSourceUnion{OfBase64: &anthropic.Base64ImageSourceParam{
						Data: img.Data, MediaType: anthropic.Base64ImageSourceMediaType(img.MIMEType),
					}},
				}})
			}
			if m.IsError {
				res.IsError = anthropic.Bool(true)
			}
			push(anthropic.MessageParamRoleUser, anthropic.ContentBlockParamUnion{OfToolResult: &res})
		}
	}
	for _, t := range req.Tools {
		tp := anthropic.ToolParam{Name: names.toWire(t.Name), InputSchema: sdkInputSchema(t.InputSchema)}
		if t.Description != "" {
			tp.Description = anthropic.String(t.Description)
		}
		params.Tools = append(params.Tools, anthropic.ToolUnionParam{OfTool: &tp})
	}
	if n := len(params.Tools); n > 0 {
		params.Tools[n-1].OfTool.CacheControl = anthropic.NewCacheControlEphemeralParam()
	}
	if len(req.Tools) > 0 {
		switch req.ToolChoice {
		case ToolChoiceRequired:
			params.ToolChoice = anthropic.ToolChoiceUnionParam{OfAny: &anthropic.ToolChoiceAnyParam{}}
		case ToolChoiceNone:
			params.ToolChoice = anthropic.ToolChoiceUnionParam{OfNone: &anthropic.ToolChoiceNoneParam{}}
		}
	}
	return params
}

// sdkToolInput is toolInput as it was, decoding the arguments.
func sdkToolInput(a json.RawMessage) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal(a, &obj) != nil || obj == nil {
		return json.RawMessage(`{}`)
	}
	return a
}

// sdkInputSchema is the tool's schema as the SDK's field.
func sdkInputSchema(raw json.RawMessage) anthropic.ToolInputSchemaParam {
	return param.Override[anthropic.ToolInputSchemaParam](ToolSchemaJSON(raw, DialectAnthropic))
}

// TestAnthropicRequestAsTheSDKWritesIt checks the body a step sends is the
// request the SDK writes from the same request: each message and tool the
// same JSON value, and the whole body too. (The SDK escapes <, > and &,
// and writes a call's arguments compacted, so bytes differ.)
func TestAnthropicRequestAsTheSDKWritesIt(t *testing.T) {
	base, _ := url.Parse("http://127.0.0.1:1")
	p := newAnthropic(Config{Name: "x"}, base)
	for i, req := range requestCases() {
		names := newToolNames(anthropicNameLimit, req)
		body, err := p.body(req, names)
		if err != nil {
			t.Fatal(err)
		}
		sdk, err := sdkAnthropicParams(req, names).MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if n := sameParts(t, fmt.Sprintf("case %d", i), body, sdk); n != len(req.Tools) {
			t.Fatalf("case %d: the SDK wrote %d tools of the request's %d", i, n, len(req.Tools))
		}
		if !sameJSON(t, withoutStream(t, body), sdk) {
			t.Errorf("case %d: body\n %s\nwant the SDK's\n %s", i, body, sdk)
		}
	}
}

// sameParts checks that body sends the messages and tools of ref (a
// reference encoding of the same request), each the same JSON value, and
// returns how many tools ref has; what names the case in the messages.
func sameParts(t *testing.T, what string, body, ref []byte) int {
	t.Helper()
	var got, want struct{ Messages, Tools []json.RawMessage }
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatalf("%s: body %s: %v", what, body, err)
	}
	if err := json.Unmarshal(ref, &want); err != nil {
		t.Fatal(err)
	}
	if len(got.Messages) != len(want.Messages) || len(got.Tools) != len(want.Tools) {
		t.Fatalf("%s: %d messages and %d tools sent, the reference's %d and %d:\n%s", what, len(got.Messages), len(got.Tools), len(want.Messages), len(want.Tools), body)
	}
	for j := range want.Messages {
		if !sameJSON(t, got.Messages[j], want.Messages[j]) {
			t.Errorf("%s, message %d\n got %s\nwant %s", what, j, got.Messages[j], want.Messages[j])
		}
	}
	for j := range want.Tools {
		if !sameJSON(t, got.Tools[j], want.Tools[j]) {
			t.Errorf("%s, tool %d\n got %s\nwant %s", what, j, got.Tools[j], want.Tools[j])
		}
	}
	return len(want.Tools)
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	if err := da.Decode(&va); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := db.Decode(&vb); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(va, vb)
}

func TestToolInput(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":1}`, `{"a":1}`},
		{" \n\t{\"a\" : [1, 2]}\r\n", " \n\t{\"a\" : [1, 2]}\r\n"},
		{`{}`, `{}`},
		{``, `{}`},
		{`null`, `{}`},
		{`[1]`, `{}`},
		{`"x"`, `{}`},
		{`not json`, `{}`},
		{`{"a":`, `{}`},
		{`{} {}`, `{}`},
		{`{"a":1}x`, `{}`},
	} {
		if got := toolInput(json.RawMessage(c.in)); string(got) != c.want {
			t.Errorf("toolInput(%q) = %q, want %q", c.in, got, c.want)
		}
		if got, old := toolInput(json.RawMessage(c.in)), sdkToolInput(json.RawMessage(c.in)); string(got) != string(old) {
			t.Errorf("toolInput(%q) = %q, the decoding check's %q", c.in, got, old)
		}
	}
}

// TestAnthropicInputSchemaIsTheTranslation checks the input_schema an
// Anthropic request carries is the kept translation, an object schema,
// for every real tool's schema.
func TestAnthropicInputSchemaIsTheTranslation(t *testing.T) {
	raw, err := os.ReadFile("../../../frontend/src/testdata/tool-schemas.json")
	if err != nil {
		t.Fatal(err)
	}
	var tools []Tool
	if err := json.Unmarshal(raw, &tools); err != nil || len(tools) < 300 {
		t.Fatalf("%d tools: %v", len(tools), err)
	}
	base, _ := url.Parse("http://127.0.0.1:1")
	req := Request{Model: "m", Tools: tools, Messages: []Message{{Role: RoleUser, Text: "hi"}}}
	names := newToolNames(anthropicNameLimit, req)
	body, err := newAnthropic(Config{Name: "x"}, base).body(req, names)
	if err != nil {
		t.Fatal(err)
	}
	var sent struct {
		Tools []struct {
			Name         string         `json:"name"`
			InputSchema  map[string]any `json:"input_schema"`
			CacheControl *struct{}      `json:"cache_control"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &sent); err != nil || len(sent.Tools) != len(tools) {
		t.Fatalf("%d tools sent of %d: %v", len(sent.Tools), len(tools), err)
	}
	for i, tl := range tools {
		var want map[string]any
		if err := json.Unmarshal(ToolSchemaJSON(tl.InputSchema, DialectAnthropic), &want); err != nil {
			t.Fatal(err)
		}
		got := sent.Tools[i]
		if got.Name != names.toWire(tl.Name) || !reflect.DeepEqual(got.InputSchema, want) || got.InputSchema["type"] != "object" {
			t.Fatalf("%s: sent as %s %v, want the translation %s", tl.Name, got.Name, got.InputSchema, ToolSchemaJSON(tl.InputSchema, DialectAnthropic))
		}
		if (got.CacheControl != nil) != (i == len(tools)-1) {
			t.Errorf("%s: cache_control %v, want it on the last tool only", tl.Name, got.CacheControl)
		}
	}
}

// A tool call id from another provider (Kimi K2's "functions.NAME:0") goes
// to Anthropic in the form it takes, the same in the call and its result;
// one it takes already goes as it is.
func TestAnthropicIDs(t *testing.T) {
	valid := regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)
	kimi, other := anthropicID("functions.memory__read_graph:0"), anthropicID("functions.memory__read_graph:1")
	if !valid.MatchString(kimi) || !valid.MatchString(other) || kimi == other {
		t.Errorf("ids %q and %q", kimi, other)
	}
	if kimi != anthropicID("functions.memory__read_graph:0") {
		t.Error("the same id gives another")
	}
	if got := anthropicID("toolu_01A09q90qw90lq917835lq9"); got != "toolu_01A09q90qw90lq917835lq9" {
		t.Errorf("a valid id became %q", got)
	}
	if got := anthropicID(""); !valid.MatchString(got) {
		t.Errorf("an empty id became %q", got)
	}
	m := anthropicMessage{blocks: []anthropicBlock{
		{kind: blockToolUse, id: "functions.x:0", name: "x", input: json.RawMessage(`{}`)},
		{kind: blockToolResult, id: "functions.x:0", text: "ok"},
	}}
	out := string(m.appendTo(nil))
	if want := anthropicID("functions.x:0"); strings.Count(out, `"`+want+`"`) != 2 || strings.Contains(out, "functions.x:0") {
		t.Errorf("message %s", out)
	}
}
