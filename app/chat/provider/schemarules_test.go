package provider_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/switchboard-app/switchboard/app/chat/provider"
)

// Each provider's documented rules for a tool's input schema, as checkers:
// a checker walks a translated schema and reports every keyword or shape
// the provider refuses (or, for Ollama, silently drops), so the corpus
// test fails when a translation would fail a chat.

// checkers are the rules of each dialect.
var checkers = map[provider.Dialect]func(map[string]any) []string{
	provider.DialectOpenAI:    checkOpenAI,
	provider.DialectAnthropic: checkAnthropic,
	provider.DialectGemini:    checkGemini,
	provider.DialectOllama:    checkOllama,
	provider.DialectLocal:     checkLocal,
}

// walk calls f for s and every schema below it, with a JSON path.
func walk(s any, path string, f func(m map[string]any, path string)) {
	m, ok := s.(map[string]any)
	if !ok {
		return
	}
	f(m, path)
	for _, k := range []string{"properties", "$defs", "definitions", "patternProperties", "dependentSchemas"} {
		if sub, ok := m[k].(map[string]any); ok {
			for name, v := range sub {
				walk(v, path+"/"+k+"/"+name, f)
			}
		}
	}
	for _, k := range []string{"items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems"} {
		walk(m[k], path+"/"+k, f)
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf", "prefixItems"} {
		if list, ok := m[k].([]any); ok {
			for i, v := range list {
				walk(v, fmt.Sprintf("%s/%s/%d", path, k, i), f)
			}
		}
	}
}

// topLevel is the rule every provider shares: one object schema.
// OpenAI: "schema must be a JSON Schema of 'type: \"object\"'" and "...not
// have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level"; Anthropic:
// "input_schema does not support oneOf, allOf, or anyOf at the top level"
// and "input_schema.type: Input should be 'object'".
func topLevel(s map[string]any) []string {
	var bad []string
	if s["type"] != "object" {
		bad = append(bad, fmt.Sprintf("top level: type is %v, want \"object\"", s["type"]))
	}
	for _, k := range []string{"oneOf", "anyOf", "allOf", "enum", "not", "const", "if", "then", "else"} {
		if _, ok := s[k]; ok {
			bad = append(bad, "top level: "+k)
		}
	}
	return bad
}

func hasType(m map[string]any, name string) bool {
	switch t := m["type"].(type) {
	case string:
		return t == name
	case []any:
		return slices.Contains(t, any(name))
	}
	return false
}

// checkOpenAI: OpenAI chat completions (platform.openai.com/docs/guides/
// function-calling): parameters is a JSON Schema object, and every array
// needs items ("Invalid schema for function 'x': In context=('properties',
// 'y'), array schema missing items.").
func checkOpenAI(s map[string]any) []string {
	bad := topLevel(s)
	walk(s, "", func(m map[string]any, path string) {
		if hasType(m, "array") && m["items"] == nil {
			bad = append(bad, path+": array schema missing items")
		}
	})
	return bad
}

// checkAnthropic: the Messages API's input_schema (docs.anthropic.com/en/
// docs/agents-and-tools/tool-use) must be valid JSON Schema draft 2020-12
// ("input_schema: JSON schema is invalid. It must match JSON Schema draft
// 2020-12"): it must decode and resolve as one.
func checkAnthropic(s map[string]any) []string {
	bad := topLevel(s)
	b, _ := json.Marshal(s)
	var js jsonschema.Schema
	if err := json.Unmarshal(b, &js); err != nil {
		return append(bad, "not draft 2020-12: "+err.Error())
	}
	if _, err := js.Resolve(nil); err != nil {
		bad = append(bad, "not draft 2020-12: "+err.Error())
	}
	walk(s, "", func(m map[string]any, path string) {
		if _, ok := m["items"].([]any); ok {
			bad = append(bad, path+": items is an array (draft-04), not a schema")
		}
		for _, k := range []string{"exclusiveMinimum", "exclusiveMaximum"} {
			if _, ok := m[k].(bool); ok {
				bad = append(bad, path+": "+k+" is a boolean (draft-04)")
			}
		}
	})
	return bad
}

// geminiFields are the fields of Gemini's Schema (ai.google.dev/api/
// caching#Schema). The OpenAI-compatible endpoint parses parameters into
// it, and any other name fails the request: "Invalid JSON payload
// received. Unknown name \"additionalProperties\" at 'tools[0].
// function_declarations[3].parameters...': Cannot find field."
var geminiFields = map[string]bool{
	"type": true, "format": true, "description": true, "nullable": true, "enum": true, "maxItems": true,
	"minItems": true, "properties": true, "required": true, "minProperties": true, "maxProperties": true,
	"minLength": true, "maxLength": true, "pattern": true, "example": true, "anyOf": true, "default": true,
	"items": true, "minimum": true, "maximum": true, "title": true, "propertyOrdering": true,
}

// geminiFormats: "Supported formats: for NUMBER type: float, double; for
// INTEGER type: int32, int64; for STRING type: enum, date-time" (Schema.
// format).
var geminiFormats = map[string][]string{"string": {"enum", "date-time"}, "number": {"float", "double"}, "integer": {"int32", "int64"}}

// checkGemini: the Schema fields only; type is one name ("Proto field is not
// repeating, cannot start list" for a list); enum is strings of a STRING
// ("Possible values of the element of Type.STRING"); an OBJECT's properties
// are not empty ("properties: should be non-empty for OBJECT type"); required
// names are properties ("property is not defined"); items is one schema, on
// arrays; every anyOf branch names its type ("schema didn't specify the
// schema type field").
func checkGemini(s map[string]any) []string {
	var bad []string
	if s["type"] != "object" {
		bad = append(bad, fmt.Sprintf("top level: type is %v", s["type"]))
	}
	walk(s, "", func(m map[string]any, path string) {
		for k := range m {
			if !geminiFields[k] {
				bad = append(bad, path+": unknown name "+k)
			}
		}
		ty, isStr := m["type"].(string)
		if _, ok := m["type"]; ok && (!isStr || !slices.Contains([]string{"string", "number", "integer", "boolean", "array", "object"}, ty)) {
			bad = append(bad, fmt.Sprintf("%s: type %v", path, m["type"]))
		}
		if e, ok := m["enum"]; ok {
			list, _ := e.([]any)
			for _, v := range list {
				if _, ok := v.(string); !ok {
					bad = append(bad, fmt.Sprintf("%s: enum value %v is not a string", path, v))
				}
			}
			if ty != "string" {
				bad = append(bad, path+": enum on type "+ty)
			}
		}
		if f, ok := m["format"].(string); ok && !slices.Contains(geminiFormats[ty], f) {
			bad = append(bad, path+": format "+f+" on type "+ty)
		}
		if p, ok := m["properties"].(map[string]any); ok && len(p) == 0 {
			bad = append(bad, path+": properties: should be non-empty for OBJECT type")
		}
		if _, ok := m["properties"]; ok && ty != "object" {
			bad = append(bad, path+": properties on type "+ty)
		}
		if req, ok := m["required"].([]any); ok {
			props, _ := m["properties"].(map[string]any)
			for _, r := range req {
				if _, ok := props[r.(string)]; !ok {
					bad = append(bad, fmt.Sprintf("%s: required %v: property is not defined", path, r))
				}
			}
		}
		if it, ok := m["items"]; ok {
			if _, isObj := it.(map[string]any); !isObj {
				bad = append(bad, path+": items is not one schema")
			}
			if ty != "array" {
				bad = append(bad, path+": items on type "+ty)
			}
		}
		if ty == "array" && m["items"] == nil {
			bad = append(bad, path+": array without items")
		}
		if list, ok := m["anyOf"].([]any); ok {
			for i, b := range list {
				if bm, _ := b.(map[string]any); bm["type"] == nil {
					bad = append(bad, fmt.Sprintf("%s/anyOf/%d: schema didn't specify the schema type field", path, i))
				}
			}
		}
	})
	return bad
}

// checkOllama: Ollama decodes tools into api.Tool (github.com/ollama/ollama
// api/types.go): parameters {type string, $defs, items, required []string,
// properties map[string]ToolProperty}; ToolProperty {anyOf, type (a string
// or a list of strings), items (kept whole), description string, enum,
// properties}. A value of the wrong JSON type fails the request; any other
// keyword is dropped before the model sees it, so its meaning must have
// moved to the description.
func checkOllama(s map[string]any) []string {
	var bad []string
	if s["type"] != "object" {
		bad = append(bad, fmt.Sprintf("top level: type is %v", s["type"]))
	}
	for k := range s {
		if !slices.Contains([]string{"type", "$defs", "items", "required", "properties", "description"}, k) {
			bad = append(bad, "top level: "+k+" is dropped")
		}
	}
	if req, ok := s["required"]; ok {
		list, isList := req.([]any)
		for _, r := range list {
			if _, ok := r.(string); !ok {
				isList = false
			}
		}
		if !isList {
			bad = append(bad, "top level: required is not a list of strings")
		}
	}
	var prop func(v any, path string)
	prop = func(v any, path string) {
		m, ok := v.(map[string]any)
		if !ok {
			bad = append(bad, path+": not an object")
			return
		}
		for k, x := range m {
			switch k {
			case "type":
				switch t := x.(type) {
				case string:
				case []any:
					for _, e := range t {
						if _, ok := e.(string); !ok {
							bad = append(bad, path+": type list holds a non-string")
						}
					}
				default:
					bad = append(bad, path+": type is neither a string nor a list")
				}
			case "description":
				if _, ok := x.(string); !ok {
					bad = append(bad, path+": description is not a string")
				}
			case "enum":
				if _, ok := x.([]any); !ok {
					bad = append(bad, path+": enum is not a list")
				}
			case "items": // kept whole (any)
			case "anyOf":
				list, ok := x.([]any)
				if !ok {
					bad = append(bad, path+": anyOf is not a list")
				}
				for i, b := range list {
					prop(b, fmt.Sprintf("%s/anyOf/%d", path, i))
				}
			case "properties":
				ps, ok := x.(map[string]any)
				if !ok {
					bad = append(bad, path+": properties is not an object")
				}
				for name, p := range ps {
					prop(p, path+"/properties/"+name)
				}
			default:
				bad = append(bad, path+": "+k+" is dropped")
			}
		}
	}
	if ps, ok := s["properties"].(map[string]any); ok {
		for name, p := range ps {
			prop(p, "/properties/"+name)
		}
	}
	return bad
}

// localRefused are what llama.cpp's json-schema-to-grammar cannot turn into
// a grammar (ggml-org/llama.cpp grammars/README.md, "known limitations"
// and "unsupported features"): some make the server answer "JSON schema
// conversion failed" ("Unrecognized schema"), the rest are skipped.
var localRefused = []string{"not", "if", "then", "else", "dependentSchemas", "uniqueItems", "contains",
	"patternProperties", "prefixItems", "$anchor", "$ref", "$defs", "definitions"}

// checkLocal: llama.cpp (and LM Studio, built on it): none of localRefused;
// nested $refs are broken, so none at all; a pattern starts with ^ and ends
// with $; properties are not mixed with anyOf/oneOf in one schema; string
// formats only date, time, date-time, uuid.
func checkLocal(s map[string]any) []string {
	bad := topLevel(s)
	walk(s, "", func(m map[string]any, path string) {
		for _, k := range localRefused {
			if _, ok := m[k]; ok {
				bad = append(bad, path+": "+k)
			}
		}
		if p, ok := m["pattern"].(string); ok && (!strings.HasPrefix(p, "^") || !strings.HasSuffix(p, "$")) {
			bad = append(bad, path+": pattern "+p+" is not anchored")
		}
		if _, ok := m["properties"]; ok && (m["anyOf"] != nil || m["oneOf"] != nil) {
			bad = append(bad, path+": properties mixed with anyOf/oneOf")
		}
		if f, ok := m["format"].(string); ok && !slices.Contains([]string{"date", "time", "date-time", "uuid"}, f) {
			bad = append(bad, path+": format "+f)
		}
	})
	return bad
}
