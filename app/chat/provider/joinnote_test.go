package provider_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat/provider"
)

// TestNotesEndInOnePeriod: a note the translation adds to a description
// (here: the name Anthropic could not take, and a keyword moved into the
// description for Ollama) ends the description in one period, or sits in
// brackets without one — never "..", never ".)".
func TestNotesEndInOnePeriod(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{
		"$filter":{"type":"string","description":"OData filter."},
		"Account Number":{"type":"string"},
		"rule_name[]":{"type":"array","items":{"type":"string"},"description":"Rules"},
		"when":{"type":"string","format":"date-time"},
		"id":{"type":"string","pattern":"^[a-z]+$","description":"The id."}}}`)
	for _, c := range []struct {
		dialect provider.Dialect
		want    map[string]string // sent property → its description
	}{
		{provider.DialectAnthropic, map[string]string{
			"filter":         `OData filter. (The tool's name for it: "$filter")`,
			"Account_Number": `The tool's name for it: "Account Number".`,
			"rule_name":      `Rules (The tool's name for it: "rule_name[]")`,
		}},
		{provider.DialectOllama, map[string]string{
			"when": "Format: date-time.",
		}},
	} {
		t.Run(string(c.dialect), func(t *testing.T) {
			props, _ := provider.ToolSchema(schema, c.dialect)["properties"].(map[string]any)
			for k, want := range c.want {
				p, _ := props[k].(map[string]any)
				got, _ := p["description"].(string)
				if got != want {
					t.Errorf("%s: description %q, want %q", k, got, want)
				}
			}
			for k, p := range props {
				d, _ := p.(map[string]any)["description"].(string)
				if strings.Contains(d, "..") || strings.Contains(d, ".)") {
					t.Errorf("%s: description %q doubles a period", k, d)
				}
			}
		})
	}
}
