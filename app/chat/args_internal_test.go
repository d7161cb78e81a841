package chat

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

func toolWith(schema string) router.Tool {
	return router.Tool{Name: "files__find", Server: "files", Tool: mcp.Tool{Name: "find", RawInputSchema: json.RawMessage(schema)}}
}

// Arguments are checked against the server's own schema, and what is
// wrong names the field; what cannot be checked is let through.
func TestArgsProblemNamesTheField(t *testing.T) {
	const schema = `{"type":"object","required":["q"],"additionalProperties":false,"properties":{
		"q":{"type":"string","minLength":1},
		"hits":{"type":"array","items":{"type":"object","required":["n"],"properties":{"n":{"type":"integer"}}}},
		"mode":{"enum":["fast","exact"]}}}`
	// A schema as a model may have seen it merged: the server's top-level
	// oneOf still holds.
	const oneOf = `{"oneOf":[{"type":"object","required":["id"],"properties":{"id":{"type":"integer"}}},{"type":"object","required":["name"],"properties":{"name":{"type":"string"}}}]}`
	deep := strings.Repeat(`{"type":"object","properties":{"n":`, 100) + `{"type":"string"}` + strings.Repeat(`}}`, 100)
	for _, c := range []struct {
		name, schema, args string
		want               []string // in the problem; none: no problem
	}{
		{"matching", schema, `{"q":"x","hits":[{"n":1}],"mode":"fast"}`, nil},
		{"wrong type", schema, `{"q":5}`, []string{`The argument "q" of files__find does not match`, `want "string"`, "The tool was not called; call it again"}},
		{"nested field", schema, `{"q":"x","hits":[{"n":1},{"n":"two"}]}`, []string{`"hits[].n"`, `want "integer"`}},
		{"missing required", schema, `{}`, []string{"The arguments of files__find do not match", `missing properties: ["q"]`}},
		{"not in the enum", schema, `{"q":"x","mode":"slow"}`, []string{`"mode"`, "slow"}},
		{"unknown argument", schema, `{"q":"x","extra":1}`, []string{`additional properties ["extra"]`}},
		{"null arguments are an empty object", schema, `null`, []string{`missing properties: ["q"]`}},
		{"top-level oneOf, first form", oneOf, `{"id":3}`, nil},
		{"top-level oneOf, second form", oneOf, `{"name":"a"}`, nil},
		{"top-level oneOf, neither", oneOf, `{"id":"3"}`, []string{"do not match", "oneOf"}},
		{"a remote reference is not checked", `{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}`, `{"a":1}`, nil},
		{"not a schema is not checked", `{"type":7}`, `{"a":1}`, nil},
		{"too deep to check quickly", deep, `{"n":5}`, nil},
		{"no schema", ``, `{"a":1}`, nil},
	} {
		var args map[string]any
		if err := json.Unmarshal([]byte(c.args), &args); err != nil {
			t.Fatal(err)
		}
		got := argsProblem(toolWith(c.schema), toolWith(c.schema).Name, args)
		if len(c.want) == 0 && got != "" {
			t.Errorf("%s: problem %q, want none", c.name, got)
		}
		if len(c.want) > 0 && got == "" {
			t.Errorf("%s: no problem found", c.name)
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q does not say %q", c.name, got, w)
			}
		}
	}
}

func TestSplitValidation(t *testing.T) {
	for _, c := range []struct{ in, field, why string }{
		{`validating root: validating /properties/b: enum: z does not equal any of: [x y]`, "b", "enum: z does not equal any of: [x y]"},
		{`validating root: validating /properties/a: validating /properties/a/items: validating /properties/a/items/properties/n: type: q`, "a[].n", "type: q"},
		{`validating root: validating /properties/a/prefixItems/0: type: x`, "a[0]", "type: x"},
		{`validating root: required: missing properties: ["b"]`, "", `required: missing properties: ["b"]`},
		{`something else`, "", "something else"},
	} {
		field, why := splitValidation(c.in)
		if field != c.field || why != c.why {
			t.Errorf("splitValidation(%q) = %q, %q; want %q, %q", c.in, field, why, c.field, c.why)
		}
	}
}
