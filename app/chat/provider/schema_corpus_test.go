package provider_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/switchboard-app/switchboard/app/chat/provider"
)

// realSchemas are the input schemas of the 300+ tools of the real npm
// servers the tool-search test starts (app/chat/toolsearch/testdata/npm and
// the manager's test servers). That test keeps this file equal to what the
// pinned servers list (checkFormCorpus), so these are their schemas as
// sent, without starting 18 node processes here.
const realSchemas = "../../../frontend/src/testdata/tool-schemas.json"

type schemaCase struct {
	Name   string          `json:"name"`
	Schema json.RawMessage `json:"schema"`
	// Valid are argument objects the schema accepts; the translation must
	// accept them too.
	Valid []json.RawMessage `json:"valid"`
	// Unsound says why the original cannot be run by a validator (it loops).
	Unsound string `json:"unsound"`
}

func loadCases(t *testing.T) (real, hostile []schemaCase) {
	t.Helper()
	b, err := os.ReadFile(realSchemas)
	if err != nil {
		t.Fatal(err)
	}
	var tools []struct {
		Name        string          `json:"name"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if err := json.Unmarshal(b, &tools); err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools {
		real = append(real, schemaCase{Name: tl.Name, Schema: tl.InputSchema})
	}
	b, err = os.ReadFile("testdata/schemas/hostile.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &hostile); err != nil {
		t.Fatal(err)
	}
	return real, append(hostile, generatedHostile()...)
}

// generatedHostile are schemas too big to write by hand.
func generatedHostile() []schemaCase {
	var out []schemaCase
	// 3,000 levels of nesting (encoding/json takes up to 10,000).
	deep := `{"type":"string"}`
	valid := `{}`
	for i := 0; i < 3000; i++ {
		deep = `{"type":"object","properties":{"n":` + deep + `}}`
		if i < 10 {
			valid = `{"n":` + valid + `}`
		}
	}
	out = append(out, schemaCase{Name: "3000 levels deep", Schema: json.RawMessage(deep), Valid: []json.RawMessage{json.RawMessage(valid)},
		Unsound: "the validator takes seconds to compile it"})
	// An enum of 20,000 values.
	var vals []string
	for i := 0; i < 20000; i++ {
		vals = append(vals, strconv.Quote("v"+strconv.Itoa(i)))
	}
	out = append(out, schemaCase{Name: "huge enum", Schema: json.RawMessage(`{"type":"object","properties":{"v":{"type":"string","enum":[` + strings.Join(vals, ",") + `]}}}`),
		Valid: []json.RawMessage{json.RawMessage(`{"v":"v3"}`)}})
	// References that double at every level: 2^30 schemas when inlined.
	var defs []string
	for i := 0; i < 30; i++ {
		defs = append(defs, fmt.Sprintf(`"D%d":{"type":"object","properties":{"a":{"$ref":"#/$defs/D%d"},"b":{"$ref":"#/$defs/D%d"}}}`, i, i+1, i+1))
	}
	defs = append(defs, `"D30":{"type":"string"}`)
	out = append(out, schemaCase{Name: "exponential references", Schema: json.RawMessage(`{"type":"object","properties":{"root":{"$ref":"#/$defs/D0"}},"$defs":{` + strings.Join(defs, ",") + `}}`),
		Valid: []json.RawMessage{json.RawMessage(`{"root":{"a":{"b":{}}}}`)}})
	// 5,000 properties.
	var props []string
	for i := 0; i < 5000; i++ {
		props = append(props, fmt.Sprintf(`"p%d":{"type":"integer"}`, i))
	}
	out = append(out, schemaCase{Name: "5000 properties", Schema: json.RawMessage(`{"type":"object","properties":{` + strings.Join(props, ",") + `}}`),
		Valid: []json.RawMessage{json.RawMessage(`{"p1":1}`)}})
	// A top-level anyOf of 500 alternatives.
	var alts []string
	for i := 0; i < 500; i++ {
		alts = append(alts, fmt.Sprintf(`{"type":"object","properties":{"k%d":{"type":"string"}},"required":["k%d"]}`, i, i))
	}
	out = append(out, schemaCase{Name: "500 alternatives", Schema: json.RawMessage(`{"anyOf":[` + strings.Join(alts, ",") + `]}`),
		Valid: []json.RawMessage{json.RawMessage(`{"k3":"x"}`)}})
	return out
}

var dialects = []provider.Dialect{provider.DialectOpenAI, provider.DialectAnthropic, provider.DialectGemini, provider.DialectOllama, provider.DialectLocal}

// Every real tool's schema and every hostile one, translated for each
// dialect, breaks none of that provider's documented rules, comes out the
// same every time, and still accepts the arguments the original accepts.
func TestSchemaCorpusMeetsEveryProvidersRules(t *testing.T) {
	real, hostile := loadCases(t)
	if len(real) < 300 {
		t.Fatalf("%d real tools in %s, want 300 or more", len(real), realSchemas)
	}
	examples := 0
	for _, c := range append(real, hostile...) {
		start := time.Now()
		isReal := c.Valid == nil
		valid := c.Valid
		var original *jsonschema.Resolved
		if c.Unsound == "" {
			original = compile(c.Schema)
		}
		if isReal {
			// Build arguments from the schema; keep those it accepts.
			var root any
			_ = json.Unmarshal(c.Schema, &root)
			for _, full := range []bool{false, true} {
				v, ok := exampleOf(root, root, 0, full)
				if b, err := json.Marshal(v); ok && err == nil && original != nil && original.Validate(decode(b)) == nil {
					valid = append(valid, b)
				}
			}
			if len(valid) > 0 {
				examples++
			}
		} else if original != nil {
			for _, v := range valid {
				if err := original.Validate(decode(v)); err != nil {
					t.Errorf("%s: testdata: the original refuses %s: %v", c.Name, v, err)
				}
			}
		}
		for _, d := range dialects {
			out := provider.ToolSchema(c.Schema, d)
			b, err := json.Marshal(out)
			if err != nil {
				t.Fatalf("%s (%s): the translation does not encode: %v", c.Name, d, err)
			}
			again, _ := json.Marshal(provider.TranslateSchema(c.Schema, d))
			if !bytes.Equal(b, again) {
				t.Errorf("%s (%s): two translations differ", c.Name, d)
			}
			for _, bad := range checkers[d](out) {
				t.Errorf("%s (%s): %s\n%s", c.Name, d, bad, clipped(b))
			}
			translated := compile(asJSONSchema(b))
			if translated == nil {
				t.Errorf("%s (%s): the translation does not compile as JSON Schema\n%s", c.Name, d, clipped(b))
				continue
			}
			for _, v := range valid {
				if err := translated.Validate(decode(v)); err != nil {
					t.Errorf("%s (%s): the translation refuses %s, which the original accepts: %v\n%s", c.Name, d, v, err, clipped(b))
				}
			}
		}
		if el := time.Since(start); el > 200*time.Millisecond {
			t.Logf("%s: %v", c.Name, el)
		}
	}
	t.Logf("arguments built for %d of %d real tools", examples, len(real))
	// The real tools' arguments are built from their schemas; most must be.
	if examples < len(real)*9/10 {
		t.Errorf("arguments were built for %d of %d real tools, want 90%%", examples, len(real))
	}
}

func clipped(b []byte) string {
	if len(b) > 1500 {
		return string(b[:1500]) + "…"
	}
	return string(b)
}

func decode(b []byte) any {
	var v any
	_ = json.Unmarshal(b, &v)
	return v
}

// compile resolves a schema for validation; nil when it does not compile
// (the chat then does not check arguments against it either).
func compile(raw json.RawMessage) *jsonschema.Resolved {
	var s jsonschema.Schema
	if json.Unmarshal(raw, &s) != nil {
		return nil
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return nil
	}
	return rs
}

// asJSONSchema reads Gemini's OpenAPI nullable as JSON Schema does: the
// type list gains null (and a string enum gains null).
func asJSONSchema(b []byte) json.RawMessage {
	var v any
	_ = json.Unmarshal(b, &v)
	var fix func(any)
	fix = func(x any) {
		switch t := x.(type) {
		case map[string]any:
			if t["nullable"] == true {
				delete(t, "nullable")
				if ty, ok := t["type"].(string); ok {
					t["type"] = []any{ty, "null"}
				}
				if e, ok := t["enum"].([]any); ok {
					t["enum"] = append(e, nil)
				}
				if alts, ok := t["anyOf"].([]any); ok {
					t["anyOf"] = append(alts, map[string]any{"type": "null"})
				}
			}
			delete(t, "example")
			for _, v := range t {
				fix(v)
			}
		case []any:
			for _, v := range t {
				fix(v)
			}
		}
	}
	fix(v)
	out, _ := json.Marshal(v)
	return out
}

// exampleOf builds a value s accepts, when it can: the required properties
// only, or (full) every property. A pattern it cannot meet and the like
// leave it to the validator to refuse.
func exampleOf(s, root any, depth int, full bool) (any, bool) {
	if b, ok := s.(bool); ok {
		return "x", b
	}
	m, ok := s.(map[string]any)
	if !ok || depth > 12 {
		return nil, false
	}
	if ref, ok := m["$ref"].(string); ok {
		target, found := pointer(root, ref)
		if !found {
			return nil, false
		}
		return exampleOf(target, root, depth+1, full)
	}
	if c, ok := m["const"]; ok {
		return c, true
	}
	if e, ok := m["enum"].([]any); ok && len(e) > 0 {
		return e[0], true
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, ok := m[k].([]any); ok && m["properties"] == nil {
			for _, a := range alts {
				if v, ok := exampleOf(a, root, depth+1, full); ok {
					return v, true
				}
			}
			return nil, false
		}
	}
	ty, _ := m["type"].(string)
	if list, ok := m["type"].([]any); ok && len(list) > 0 {
		ty, _ = list[0].(string)
	}
	if ty == "" && m["properties"] != nil {
		ty = "object"
	}
	switch ty {
	case "string":
		switch m["format"] {
		case "date-time":
			return "2024-01-02T03:04:05Z", true
		case "date":
			return "2024-01-02", true
		case "uri", "url":
			return "https://example.com/a", true
		case "email":
			return "a@example.com", true
		case "uuid":
			return "5f0c6c5e-1c1e-4b7a-9d43-0c6a2b1f4e2a", true
		}
		n := 1
		if f, ok := m["minLength"].(float64); ok {
			n = max(n, int(f))
		}
		return strings.Repeat("a", n), true
	case "integer", "number":
		n := 1.0
		if f, ok := m["minimum"].(float64); ok {
			n = f
		}
		if f, ok := m["exclusiveMinimum"].(float64); ok {
			n = f + 1
		}
		if f, ok := m["maximum"].(float64); ok && n > f {
			n = f
		}
		return n, true
	case "boolean":
		return true, true
	case "null":
		return nil, true
	case "array":
		n := 0
		if f, ok := m["minItems"].(float64); ok {
			n = int(f)
		}
		if full && n == 0 {
			n = 1
		}
		out := []any{}
		for i := 0; i < n; i++ {
			v, ok := exampleOf(m["items"], root, depth+1, full)
			if !ok {
				return nil, false
			}
			out = append(out, v)
		}
		return out, true
	case "object", "":
		out := map[string]any{}
		props, _ := m["properties"].(map[string]any)
		req, _ := m["required"].([]any)
		for name, ps := range props {
			isReq := false
			for _, r := range req {
				isReq = isReq || r == name
			}
			if !isReq && !full {
				continue
			}
			v, ok := exampleOf(ps, root, depth+1, full)
			if !ok {
				if isReq {
					return nil, false
				}
				continue
			}
			out[name] = v
		}
		return out, true
	}
	return nil, false
}

func pointer(root any, ref string) (any, bool) {
	if !strings.HasPrefix(ref, "#") {
		return nil, false
	}
	cur := root
	for _, part := range strings.Split(strings.TrimPrefix(ref[1:], "/"), "/") {
		if part == "" {
			continue
		}
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// BenchmarkToolSchemaCorpus is one step's translation of every real tool.
func BenchmarkToolSchemaCorpus(b *testing.B) {
	t := &testing.T{}
	real, _ := loadCases(t)
	for _, d := range dialects {
		b.Run(string(d), func(b *testing.B) {
			for b.Loop() {
				for _, c := range real {
					provider.ToolSchemaJSON(c.Schema, d)
				}
			}
		})
	}
}
