package codemode_test

import (
	"encoding/json"
	"errors"
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
