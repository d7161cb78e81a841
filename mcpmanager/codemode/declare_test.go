package codemode_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/codemode"
)

func TestDeclareWritesATypedSignature(t *testing.T) {
	f := codemode.Function{
		Server: "my-server", Tool: "get.item", Description: "Gets one item.\nBy its id.",
		Input: json.RawMessage(`{"type":"object","properties":{
			"id":{"type":"integer","description":"the item's id"},
			"fields":{"type":"array","items":{"type":"string","enum":["name","price"]}},
			"filter":{"type":"object","properties":{"tag":{"type":["string","null"]}}}},
			"required":["id"]}`),
		Output: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","description":"shown to users"},"price":{"type":"number"}},"required":["name"]}`),
	}
	want := `/**
 * Gets one item.
 * By its id.
 */
async function tools["my-server"]["get.item"](args: {
  /** the item's id */
  id: number;
  fields?: ("name" | "price")[];
  filter?: {
    tag?: string | null;
  };
}): Promise<{
  /** shown to users */
  name: string;
  price?: number;
}>;
`
	if got := codemode.Declare(f); got != want {
		t.Errorf("Declare =\n%s\nwant\n%s", got, want)
	}
	plain := codemode.Function{Server: "memory", Tool: "read_graph", Input: json.RawMessage(`{"type":"object"}`)}
	if got, want := codemode.Declare(plain), "async function tools.memory.read_graph(args: { [key: string]: unknown }): Promise<{ text: string; parts: Array<{ type: string; [key: string]: unknown }> }>;\n// Resolves to the result's text (its text parts joined) and its parts; a tool error is thrown.\n"; got != want {
		t.Errorf("Declare =\n%s\nwant\n%s", got, want)
	}
}

func TestListNamesEachFunctionOnce(t *testing.T) {
	got := codemode.List([]codemode.Function{
		{Server: "memory", Tool: "create_entities", Description: "Create entities.\nMore text."},
		{Server: "my-server", Tool: "get.item"},
	})
	want := "tools.memory.create_entities — Create entities.\ntools[\"my-server\"][\"get.item\"] — (no description)\n"
	if got != want {
		t.Errorf("List =\n%s\nwant\n%s", got, want)
	}
}

func TestValueIsStructuredOrTextAndParts(t *testing.T) {
	res := &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("a"), mcp.NewTextContent("b")}, StructuredContent: map[string]any{"n": 1}}
	v, err := codemode.Value(res, true)
	if err != nil || v.(map[string]any)["n"] != 1 {
		t.Errorf("with an output schema: %v, %v", v, err)
	}
	v, err = codemode.Value(res, false)
	if err != nil || v.(map[string]any)["text"] != "a\nb" || len(v.(map[string]any)["parts"].([]mcp.Content)) != 2 {
		t.Errorf("without: %v, %v", v, err)
	}
	_, err = codemode.Value(&mcp.CallToolResult{IsError: true, Content: []mcp.Content{mcp.NewTextContent("no such file")}}, false)
	if err == nil || err.Error() != "no such file" || errors.Unwrap(err) != nil {
		t.Errorf("an error result: %v", err)
	}
}

// TestDeclareNamesRefsAndKeepsConstraints: a $ref into the schema is a
// named type declared after the function (a recursive one refers to
// itself by name), allOf of objects is one object and of anything else
// an intersection, and a field's format, bounds and default are comments.
func TestDeclareNamesRefsAndKeepsConstraints(t *testing.T) {
	const sig = "async function tools.s.t(args: "
	const tail = "): Promise<{ text: string; parts: Array<{ type: string; [key: string]: unknown }> }>;\n// Resolves to the result's text (its text parts joined) and its parts; a tool error is thrown.\n"
	cases := []struct{ name, input, want string }{
		{"a recursive $defs type", `{"type":"object","$defs":{"Node":{"type":"object","description":"a tree node","properties":{"v":{"type":"number"},"kids":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}},"properties":{"root":{"$ref":"#/$defs/Node"}},"required":["root"]}`,
			sig + "{\n  root: Node;\n}" + tail + "/** a tree node */\ntype Node = {\n  kids?: Node[];\n  v?: number;\n};\n"},
		{"definitions, the root, and a ref outside", `{"type":"object","definitions":{"item":{"type":"string","format":"uri"},"2x":{"type":"integer"}},"properties":{"a":{"$ref":"#/definitions/item"},"b":{"$ref":"#/definitions/2x"},"c":{"$ref":"https://example.com/s.json"},"d":{"$ref":"#"}}}`,
			sig + "{\n  a?: item;\n  b?: T2x;\n  c?: unknown /* https://example.com/s.json */;\n  d?: Args;\n}" + tail +
				"/** format: uri */\ntype item = string;\ntype T2x = number;\ntype Args = {\n  a?: item;\n  b?: T2x;\n  c?: unknown /* https://example.com/s.json */;\n  d?: Args;\n};\n"},
		{"allOf", `{"type":"object","properties":{"both":{"allOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"type":"object","properties":{"b":{"type":"string"}}}]},"mixed":{"allOf":[{"$ref":"#/$defs/N"},{"anyOf":[{"type":"string"},{"type":"number"}]}]}},"$defs":{"N":{"type":"object","properties":{"n":{"type":"number"}}}}}`,
			sig + "{\n  both?: {\n    a: string;\n    b?: string;\n  };\n  mixed?: N & (string | number);\n}" + tail + "type N = {\n  n?: number;\n};\n"},
		{"constraints", `{"type":"object","properties":{"when":{"type":"string","format":"date-time","description":"when it starts"},"n":{"type":"integer","minimum":1,"maximum":10,"default":5}}}`,
			sig + "{\n  /** minimum: 1; maximum: 10; default: 5 */\n  n?: number;\n  /**\n   * when it starts\n   * format: date-time\n   */\n  when?: string;\n}" + tail},
	}
	for _, c := range cases {
		if got := codemode.Declare(codemode.Function{Server: "s", Tool: "t", Input: json.RawMessage(c.input)}); got != c.want {
			t.Errorf("%s: Declare =\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
}

// TestDescribeFunctionAnswers: describe_function takes one name as a
// string too, says what "functions" must be otherwise, and cuts a huge
// answer with a note.
func TestDescribeFunctionAnswers(t *testing.T) {
	props := map[string]any{}
	for i := range 3000 {
		props[fmt.Sprintf("field%04d", i)] = map[string]any{"type": "string", "description": "one of many fields"}
	}
	huge, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
	fns := []codemode.Function{
		{Server: "odd", Tool: "echo", Input: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)},
		{Server: "odd", Tool: "huge", Input: huge},
	}
	cases := []struct {
		name    string
		args    map[string]any
		isError bool
		want    string // what the answer contains
	}{
		{"one name as a string", map[string]any{"functions": "tools.odd.echo"}, false, "async function tools.odd.echo(args: {\n  text?: string;\n})"},
		{"a number", map[string]any{"functions": 3}, true, `"functions" must be an array of names`},
		{"a huge schema", map[string]any{"functions": []any{"tools.odd.huge"}}, false, "// [cut: these declarations are "},
	}
	for _, c := range cases {
		res, _ := codemode.Answer(fns, codemode.DescribeFunctionName, c.args)
		text := res.Content[0].(mcp.TextContent).Text
		if res.IsError != c.isError || !strings.Contains(text, c.want) || len(text) > codemode.MaxDescribeBytes+300 {
			t.Errorf("%s: error %v, %d bytes:\n%.300s\nwant %q", c.name, res.IsError, len(text), text, c.want)
		}
	}
}
