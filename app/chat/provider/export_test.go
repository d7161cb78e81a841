package provider

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// SetSleep replaces the wait between retries for the rest of the test.
func SetSleep(t testing.TB, f func(context.Context, time.Duration) error) {
	t.Helper()
	old := sleep
	sleep = f
	t.Cleanup(func() { sleep = old })
}

// ToolSchema is ToolSchemaJSON as a value, for reading it (a copy each
// call).
func ToolSchema(raw json.RawMessage, d Dialect) map[string]any {
	var m map[string]any
	_ = json.Unmarshal(ToolSchemaJSON(raw, d), &m) // an object we encoded
	return m
}

// TranslateSchema is ToolSchemaJSON without its cache, as a value, for tests that
// translate twice.
func TranslateSchema(raw json.RawMessage, d Dialect) map[string]any {
	s, _ := translate(raw, d)
	return s
}

// SchemaKeys is the property names ToolSchemaJSON renamed for d: sent →
// the server's.
func SchemaKeys(raw json.RawMessage, d Dialect) map[string]string { return toolSchema(raw, d).keys }

// OpenAITool is the JSON of a function tool in a step's request, built
// from the schema's kept JSON.
func OpenAITool(name, description string, schema json.RawMessage) []byte {
	return wireTool{name, description, schema}.appendTo(nil)
}
