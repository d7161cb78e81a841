package provider_test

import (
	"encoding/json"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat/provider"
)

// A tool schema kept whole (2020-12, top-level combinators) reaches each
// provider as the equivalent it accepts: what was a top-level anyOf of two
// object shapes keeps both shapes' properties (not, as before, none), and
// says which alternatives exist.
func TestToolSchemaTranslatesPerDialect(t *testing.T) {
	twoShapes := `{"anyOf":[
		{"type":"object","title":"By id","properties":{"id":{"type":"integer","exclusiveMinimum":0}},"required":["id"]},
		{"type":"object","properties":{"name":{"type":"string","format":"email"},"tags":{"type":"array"}},"required":["name"]}]}`
	refs := `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","required":["node","kind"],
		"properties":{"node":{"$ref":"#/$defs/Node"},"kind":{"const":"x"},"n":{"type":["integer","null"]},"m":{"type":"object","additionalProperties":{"type":"string"}}},
		"$defs":{"Node":{"type":"object","properties":{"child":{"$ref":"#/$defs/Node"},"v":{"type":"string","pattern":"a+"}}}}}`
	legacy := `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
		"properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}]}},"$defs":{"x":{"type":"string"}},
		"allOf":[{"required":["a"]}],"if":{"required":["a"]},"then":{},"else":{}}`
	for _, c := range []struct {
		name, raw string
		d         provider.Dialect
		want      string
	}{
		{"top-level anyOf, OpenAI", twoShapes, provider.DialectOpenAI,
			`{"description":"Give the arguments of any of these forms: (1) By id: with id; (2) with name.","properties":{"id":{"exclusiveMinimum":0,"type":"integer"},"name":{"format":"email","type":"string"},"tags":{"items":{},"type":"array"}},"type":"object"}`},
		{"top-level anyOf, Anthropic", twoShapes, provider.DialectAnthropic,
			`{"description":"Give the arguments of any of these forms: (1) By id: with id; (2) with name.","properties":{"id":{"exclusiveMinimum":0,"type":"integer"},"name":{"format":"email","type":"string"},"tags":{"type":"array"}},"type":"object"}`},
		{"top-level anyOf, Gemini", twoShapes, provider.DialectGemini,
			`{"description":"Give the arguments of any of these forms: (1) By id: with id; (2) with name.","properties":{"id":{"description":"Greater than 0.","type":"integer"},"name":{"description":"Format: email.","type":"string"},"tags":{"items":{},"type":"array"}},"type":"object"}`},
		{"references kept where followed", refs, provider.DialectOpenAI,
			`{"$defs":{"Node":{"properties":{"child":{"$ref":"#/$defs/Node"},"v":{"pattern":"a+","type":"string"}},"type":"object"}},"properties":{"kind":{"const":"x"},"m":{"additionalProperties":{"type":"string"},"type":"object"},"n":{"type":["integer","null"]},"node":{"$ref":"#/$defs/Node"}},"required":["node","kind"],"type":"object"}`},
		{"references inlined, cycle cut, OpenAPI forms for Gemini", refs, provider.DialectGemini,
			`{"properties":{"kind":{"enum":["x"],"type":"string"},"m":{"description":"Other keys allowed, each of type \"string\".","type":"object"},"n":{"nullable":true,"type":"integer"},"node":{"properties":{"child":{"description":"The same shape as Node, nested.","type":"object"},"v":{"pattern":"a+","type":"string"}},"type":"object"}},"required":["node","kind"],"type":"object"}`},
		{"unanchored pattern told, for llama.cpp", refs, provider.DialectLocal,
			`{"properties":{"kind":{"const":"x"},"m":{"additionalProperties":{"type":"string"},"type":"object"},"n":{"type":["integer","null"]},"node":{"properties":{"child":{"description":"The same shape as Node, nested.","type":"object"},"v":{"description":"Matching the pattern a+.","type":"string"}},"type":"object"}},"required":["node","kind"],"type":"object"}`},
		{"only what Ollama reads", refs, provider.DialectOllama,
			`{"properties":{"kind":{"enum":["x"]},"m":{"description":"Other keys allowed, each of type \"string\".","type":"object"},"n":{"type":["integer","null"]},"node":{"properties":{"child":{"description":"The same shape as Node, nested.","type":"object"},"v":{"description":"Matching the pattern a+.","type":"string"}},"type":"object"}},"required":["node","kind"],"type":"object"}`},
		{"top-level allOf merged, conditionals told", legacy, provider.DialectAnthropic,
			`{"$defs":{"x":{"type":"string"}},"description":"If: {\"required\":[\"a\"]}.","properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["a"],"type":"object"}`},
		{"not JSON", `{"type":`, provider.DialectOpenAI, `{"properties":{},"type":"object"}`},
		{"no parameters, Gemini", `{"type":"object","properties":{}}`, provider.DialectGemini, `{"type":"object"}`},
	} {
		got, err := json.Marshal(provider.ToolSchema(json.RawMessage(c.raw), c.d))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

func TestDialectForProvider(t *testing.T) {
	for _, c := range []struct {
		kind provider.Kind
		url  string
		want provider.Dialect
	}{
		{provider.KindOpenAI, "https://api.openai.com/v1", provider.DialectOpenAI},
		{provider.KindOpenAI, "https://openrouter.ai/api/v1", provider.DialectOpenAI},
		{provider.KindOpenAI, "https://generativelanguage.googleapis.com/v1beta/openai/", provider.DialectGemini},
		{provider.KindOpenAI, "http://127.0.0.1:8080/v1", provider.DialectLocal},
		{provider.KindOpenAI, "http://localhost:1234/v1", provider.DialectLocal},
		{provider.KindOpenAI, "http://192.168.1.20:8000/v1", provider.DialectLocal},
		{provider.KindAnthropic, "https://api.anthropic.com", provider.DialectAnthropic},
		{provider.KindOllama, "http://127.0.0.1:11434", provider.DialectOllama},
	} {
		if got := provider.DialectFor(c.kind, c.url); got != c.want {
			t.Errorf("DialectFor(%s, %s) = %s, want %s", c.kind, c.url, got, c.want)
		}
	}
}

// A hosted OpenAI-compatible API takes at most 128 tools a request; a
// server on this computer and the other wires have no such limit.
func TestMaxTools(t *testing.T) {
	for _, c := range []struct {
		kind provider.Kind
		url  string
		want int
	}{
		{provider.KindOpenAI, "https://api.openai.com/v1", 128},
		{provider.KindOpenAI, "https://openrouter.ai/api/v1", 128},
		{provider.KindOpenAI, "http://127.0.0.1:8080/v1", 0},
		{provider.KindAnthropic, "https://api.anthropic.com", 0},
		{provider.KindOllama, "http://127.0.0.1:11434", 0},
	} {
		p, err := provider.New(provider.Config{Kind: c.kind, BaseURL: c.url, APIKey: "k"})
		if err != nil {
			t.Fatal(err)
		}
		if got := provider.MaxTools(p); got != c.want {
			t.Errorf("MaxTools(%s %s) = %d, want %d", c.kind, c.url, got, c.want)
		}
	}
}
