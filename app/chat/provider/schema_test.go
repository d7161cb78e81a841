package provider

import (
	"encoding/json"
	"reflect"
	"testing"
)

// A tool schema kept whole (2020-12, top-level combinators) reaches the
// providers without the top-level keywords they refuse; everything below
// the top stays as the server wrote it.
func TestSchemaMapDropsRefusedTopLevelKeywords(t *testing.T) {
	raw := json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
		"properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}]}},"$defs":{"x":{"type":"string"}},
		"allOf":[{"required":["a"]}],"if":{"required":["a"]},"then":{},"else":{}}`)
	got := schemaMap(raw)
	want := map[string]any{
		"type":       "object",
		"properties": map[string]any{"a": map[string]any{"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "null"}}}},
		"$defs":      map[string]any{"x": map[string]any{"type": "string"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("schemaMap = %#v\nwant %#v", got, want)
	}
}
