package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Dialect is the variety of JSON Schema a provider accepts in its tool
// definitions. Tool schemas arrive from MCP servers as they were written
// (JSON Schema 2020-12 or draft-07, whole); each provider refuses some of
// it, and one refused tool fails every request of a chat. ToolSchemaJSON
// translates a schema into its dialect at the provider's edge; the server
// still gets arguments checked against its own schema (package chat).
type Dialect string

// Dialects.
const (
	// DialectOpenAI is OpenAI's chat completions and hosted servers that
	// copy it: the top level must be one object schema, arrays need items.
	DialectOpenAI Dialect = "openai"
	// DialectLocal is an OpenAI-compatible server on this machine or the
	// local network (llama.cpp, LM Studio): it turns the schema into a
	// grammar, which cannot express some keywords and follows no $ref.
	DialectLocal Dialect = "local"
	// DialectAnthropic is the Messages API: draft 2020-12, one object at
	// the top level.
	DialectAnthropic Dialect = "anthropic"
	// DialectOllama is Ollama's native /api/chat, which decodes tools into
	// fixed Go structs and silently drops every other keyword.
	DialectOllama Dialect = "ollama"
	// DialectGemini is Gemini's OpenAI-compatible endpoint: its schema is
	// a subset of OpenAPI 3.0 and any other keyword refuses the request.
	DialectGemini Dialect = "gemini"
)

// geminiHost serves Gemini's OpenAI-compatible endpoint
// (https://generativelanguage.googleapis.com/v1beta/openai/).
const geminiHost = "generativelanguage.googleapis.com"

// DialectFor is the dialect of a provider of kind at base URL.
func DialectFor(kind Kind, baseURL string) Dialect {
	switch kind {
	case KindAnthropic:
		return DialectAnthropic
	case KindOllama:
		return DialectOllama
	}
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil {
		return DialectOpenAI
	}
	host := strings.ToLower(u.Hostname())
	switch {
	case host == geminiHost:
		return DialectGemini
	case host != "" && localHost(host):
		return DialectLocal
	}
	return DialectOpenAI
}

// rules is what a dialect refuses, as switches the translation reads.
type rules struct {
	inlineRefs  bool            // no $ref/$defs: inline local references
	mergeAllOf  bool            // no allOf: merge its branches into one schema
	oneOfAnyOf  bool            // no oneOf: offer it as anyOf (the server checks "only one")
	constEnum   bool            // no const: a one-value enum
	allowed     map[string]bool // keywords kept; nil keeps all but refused
	topOnly     map[string]bool // allowed keywords kept only at the top level
	refused     map[string]bool // keywords refused below the top level
	nullable    bool            // no type lists or null type: OpenAPI's nullable
	stringEnums bool            // enum holds strings only, on string schemas
	formats     map[string]map[string]bool
	arrayItems  bool // an array schema must have items
	noEmptyObj  bool // properties must not be empty: leave them out
	definedReq  bool // required names must be properties
	anchored    bool // a pattern must start with ^ and end with $
	noMixedAny  bool // properties never next to anyOf/oneOf
	typedBranch bool // every anyOf branch names its type
	inferType   bool // a schema with properties/items/enum names its type
	// keyNames: a top-level property name must match
	// ^[a-zA-Z0-9_.-]{1,64}$; others are renamed (propertyKeys)
	keyNames bool
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

var dialectRules = map[Dialect]rules{
	// OpenAI: "array schema missing items" is refused anywhere; the top
	// level is handled for every dialect.
	DialectOpenAI: {arrayItems: true},
	// Anthropic refuses a whole request for one top-level property name
	// outside ^[a-zA-Z0-9_.-]{1,64}$ ("Property keys should match
	// pattern"): PHP-style "rule_name[]", OData's "$filter" and "$top"
	// (Microsoft Graph servers), "Account Number".
	DialectAnthropic: {keyNames: true},
	// llama.cpp's json-schema-to-grammar (grammars/README.md): no not,
	// if/then/else, dependentSchemas, uniqueItems, contains,
	// patternProperties, $anchor; prefixItems and nested $refs broken;
	// patterns anchored; properties cannot be mixed with anyOf/oneOf;
	// string formats only date, time, date-time and uuid.
	DialectLocal: {
		inlineRefs: true, anchored: true, noMixedAny: true,
		formats: map[string]map[string]bool{"string": set("date", "time", "date-time", "uuid")},
		refused: set("not", "if", "then", "else", "dependentSchemas", "dependencies", "uniqueItems", "contains",
			"minContains", "maxContains", "patternProperties", "prefixItems", "$anchor", "$dynamicAnchor",
			"unevaluatedProperties", "unevaluatedItems", "propertyNames"),
	},
	// Ollama's api.Tool: parameters {type, $defs, items, required,
	// properties}, each property {anyOf, type, items, description, enum,
	// properties}; anything else is dropped before the model sees it.
	DialectOllama: {
		inlineRefs: true, mergeAllOf: true, oneOfAnyOf: true, constEnum: true,
		allowed: set("type", "description", "enum", "items", "properties", "required", "anyOf"),
		topOnly: set("required"),
	},
	// Gemini's Schema (ai.google.dev/api/caching#Schema), an OpenAPI 3.0
	// subset; unknown fields fail with "Invalid JSON payload received.
	// Unknown name".
	DialectGemini: {
		inlineRefs: true, mergeAllOf: true, oneOfAnyOf: true, constEnum: true, nullable: true,
		stringEnums: true, arrayItems: true, noEmptyObj: true, definedReq: true, typedBranch: true, inferType: true,
		allowed: set("type", "format", "description", "nullable", "enum", "maxItems", "minItems", "properties",
			"required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "example",
			"anyOf", "default", "items", "minimum", "maximum"),
		formats: map[string]map[string]bool{
			"string":  set("enum", "date-time"),
			"number":  set("float", "double"),
			"integer": set("int32", "int64"),
		},
	},
}

// Limits that keep a hostile schema from costing more than a normal one.
const (
	maxSchemaDepth = 32      // nesting kept; deeper is any value
	maxSchemaNodes = 4000    // schemas emitted per tool; later ones are any value
	maxRefDepth    = 8       // references expanded inside one another
	maxEnum        = 1000    // enum values kept
	maxNoteLen     = 300     // characters of one keyword explained in a description
	maxMerge       = 64      // allOf rounds merged into one schema
	maxDescLen     = 4000    // description characters once notes are added
	maxBranches    = 64      // anyOf/oneOf branches kept
	maxPropsPerObj = 1000    // properties kept per object
	maxRawSchema   = 1 << 20 // bytes of schema read; a larger one is an empty object schema
)

// typeOnly are keywords that apply to one type only.
var typeOnly = map[string]string{
	"items": "array", "minItems": "array", "maxItems": "array",
	"properties": "object", "required": "object", "minProperties": "object", "maxProperties": "object",
	"minLength": "string", "maxLength": "string", "pattern": "string",
	"minimum": "number", "maximum": "number",
}

var jsonTypes = set("string", "number", "integer", "boolean", "array", "object", "null")

// ToolSchemaJSON is raw (a tool's input schema as its server sent it) in
// a form the dialect accepts: an object schema at the top level (a
// top-level oneOf/anyOf/allOf of object schemas merged into one, saying in
// its description which alternatives exist), local references inlined
// where the dialect follows none, refused keywords dropped with their
// meaning kept in the description where it matters. The result accepts at
// least every argument object raw accepts, except values past a kept limit
// (maxEnum); the server checks them. It never fails: what cannot be read
// is the empty object schema.
//
// It is JSON as the SDKs write request bodies (keys sorted, as
// encoding/json writes a map; <, > and & not escaped). Every step of a
// chat sends its tools again, so each translation is kept, encoded:
// encoding every tool's schema again at every step took about a
// millisecond of a step with 40 tools of real servers
// (BenchmarkRequestBody). Shared: do not change it.
func ToolSchemaJSON(raw json.RawMessage, d Dialect) json.RawMessage {
	return toolSchema(raw, d).schema
}

// translation is a tool's input schema as a dialect takes it: its JSON,
// and the top-level property names it renamed (sent → the server's; nil
// when none), by which a call's arguments go back to the server's names.
type translation struct {
	schema json.RawMessage
	keys   map[string]string
}

// toolSchema is ToolSchemaJSON with the property names it renamed.
func toolSchema(raw json.RawMessage, d Dialect) translation {
	translated.Lock()
	tr, ok := translated.m[d][string(raw)] // indexing by string(raw) copies nothing
	translated.Unlock()
	if ok {
		return tr
	}
	s, keys := translate(raw, d)
	b, err := marshalNoEscape(s)
	if err != nil { // translate builds only JSON values; never happens
		b, keys = []byte(`{"type":"object"}`), nil
	}
	tr = translation{b, keys}
	translated.Lock()
	defer translated.Unlock()
	size := len(raw) + len(b) // the key is a copy of raw
	if translated.n >= maxTranslated || translated.size+size > maxTranslatedBytes {
		// Tools changed a lot: start over.
		translated.m, translated.n, translated.size = map[Dialect]map[string]translation{}, 0, 0
	}
	if translated.m[d] == nil {
		translated.m[d] = map[string]translation{}
	}
	if had, ok := translated.m[d][string(raw)]; ok { // another step made it meanwhile
		return had
	}
	translated.m[d][string(raw)] = tr
	translated.n++
	translated.size += size
	return tr
}

// marshalNoEscape is json.Marshal without escaping <, > and &, as the
// provider SDKs write request bodies.
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// translated are the translations made, encoded, by dialect and schema
// text; n counts them and size their bytes, keys and JSON.
var translated = struct {
	sync.Mutex
	m       map[Dialect]map[string]translation
	n, size int
}{m: map[Dialect]map[string]translation{}}

// maxTranslated bounds the translations kept (a few per tool), and
// maxTranslatedBytes their bytes: a server may send large schemas, and
// new ones at every tools/list_changed.
const maxTranslated = 4096

var maxTranslatedBytes = 32 << 20 // a var for tests

// translate is raw in dialect d, and the top-level property names it
// renamed (sent → the server's), if any.
func translate(raw json.RawMessage, d Dialect) (map[string]any, map[string]string) {
	var root any
	if len(raw) > maxRawSchema || json.Unmarshal(raw, &root) != nil {
		root = nil
	}
	r, ok := dialectRules[d]
	if !ok {
		r = dialectRules[DialectOpenAI]
	}
	t := &translator{r: r, root: root}
	out := t.top(root)
	if !r.keyNames {
		return out, nil
	}
	return out, propertyKeys(out)
}

type translator struct {
	r     rules
	root  any
	nodes int
}

// object is v as a schema object: a map as is, true as {} (any value).
func object(v any) (map[string]any, bool) {
	switch s := v.(type) {
	case map[string]any:
		return s, true
	case bool:
		if s {
			return map[string]any{}, true
		}
	}
	return nil, false
}

func clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func (t *translator) top(root any) map[string]any {
	s, ok := object(root)
	if !ok {
		s = map[string]any{}
	}
	s = clone(s)
	var notes []string
	var refs []string
	s, refs, notes = t.deref(s, nil, notes)
	// Every dialect refuses these at the top: OpenAI ("schema must have
	// type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at
	// the top level"), Anthropic ("input_schema does not support oneOf,
	// allOf, or anyOf at the top level"), Gemini's and Ollama's parameters
	// are one object.
	for round := 0; round < maxMerge && s["allOf"] != nil; round++ {
		s, notes = t.mergeAllOf(s, refs, notes)
	}
	if _, ok := s["anyOf"]; ok {
		s, notes = t.mergeAlternatives(s, "anyOf", refs, notes)
	}
	if _, ok := s["oneOf"]; ok {
		s, notes = t.mergeAlternatives(s, "oneOf", refs, notes)
	}
	for _, k := range []string{"not", "if", "then", "else", "enum", "const", "dependentSchemas", "dependencies", "dependentRequired"} {
		if v, ok := s[k]; ok {
			notes = append(notes, explain(k, v))
			delete(s, k)
		}
	}
	delete(s, "$schema")
	delete(s, "$id")
	delete(s, "$comment")
	defs := map[string]any{}
	for _, k := range []string{"$defs", "definitions"} {
		if m, ok := s[k].(map[string]any); ok && !t.r.inlineRefs {
			defs[k] = m
		}
		delete(s, k)
	}
	s["type"] = "object"
	out := t.node(s, 0, refs, notes)
	out["type"] = "object"
	delete(out, "nullable")
	if _, ok := out["properties"].(map[string]any); !ok {
		out["properties"] = map[string]any{}
	}
	// Anthropic omits an input_schema with no fields set, then refuses the
	// tool for lacking one; OpenAI wants properties too. Gemini refuses an
	// empty one ("properties: should be non-empty for OBJECT type").
	if t.r.noEmptyObj && len(out["properties"].(map[string]any)) == 0 {
		delete(out, "properties")
	}
	for k, v := range defs {
		m := v.(map[string]any)
		tr := make(map[string]any, len(m))
		for _, name := range sortedKeys(m) {
			if sub, ok := object(m[name]); ok {
				tr[name] = t.node(sub, 1, nil, nil)
			}
		}
		out[k] = tr
	}
	return out
}

// deref replaces a local $ref in s by what it points at, merged with s's
// other keywords (2020-12 applies both), following chains up to
// maxRefDepth. refs are the references being expanded above s: one seen
// again is a cycle, cut to any value with a note.
func (t *translator) deref(s map[string]any, refs []string, notes []string) (map[string]any, []string, []string) {
	for i := 0; i < maxRefDepth; i++ {
		ref, ok := s["$ref"].(string)
		if !ok {
			if _, has := s["$ref"]; has {
				s = clone(s)
				delete(s, "$ref")
			}
			return s, refs, notes
		}
		rest := clone(s)
		delete(rest, "$ref")
		if slices.Contains(refs, ref) || len(refs) >= maxRefDepth {
			// Cut: any value, of the type it points at when it names one.
			if target, ok := resolvePointer(t.root, ref); ok {
				if ty, ok := mapOf(target)["type"].(string); ok && jsonTypes[ty] && rest["type"] == nil {
					rest["type"] = ty
				}
			}
			return rest, refs, append(notes, "the same shape as "+refName(ref)+", nested")
		}
		target, found := resolvePointer(t.root, ref)
		tm, isObj := object(target)
		if !found || !isObj {
			return rest, refs, append(notes, "see "+refName(ref))
		}
		refs = append(slices.Clip(refs), ref)
		merged := clone(tm)
		for k, v := range rest {
			if k == "description" || k == "title" || k == "default" || k == "examples" {
				merged[k] = v // the referring schema's own words win
				continue
			}
			if _, ok := merged[k]; ok {
				merged["allOf"] = append(anySlice(merged["allOf"]), map[string]any{k: v})
				continue
			}
			merged[k] = v
		}
		s = merged
	}
	delete(s, "$ref")
	return s, refs, notes
}

// refName is the last part of a reference, for a note.
func refName(ref string) string {
	if i := strings.LastIndex(ref, "/"); i >= 0 && i < len(ref)-1 {
		return ref[i+1:]
	}
	return ref
}

// resolvePointer finds a local reference ("#", "#/a/b") in root.
func resolvePointer(root any, ref string) (any, bool) {
	if !strings.HasPrefix(ref, "#") {
		return nil, false
	}
	frag, err := url.PathUnescape(ref[1:])
	if err != nil {
		return nil, false
	}
	if frag == "" {
		return root, true
	}
	if !strings.HasPrefix(frag, "/") {
		return nil, false // an $anchor name: not followed
	}
	cur := root
	for _, part := range strings.Split(frag[1:], "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[part]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// keptRef says whether a dialect that follows references can keep ref:
// it points into the top level's $defs or definitions, which are kept.
func (t *translator) keptRef(ref string) bool {
	for _, p := range []string{"#/$defs/", "#/definitions/"} {
		if name, ok := strings.CutPrefix(ref, p); ok && name != "" && !strings.Contains(name, "/") {
			target, found := resolvePointer(t.root, ref)
			_, isObj := object(target)
			return found && isObj
		}
	}
	return false
}

// mergeAllOf merges s's allOf branches into s: properties united (one
// named twice must match both), required united, the first of other
// keywords kept.
func (t *translator) mergeAllOf(s map[string]any, refs []string, notes []string) (map[string]any, []string) {
	branches := anySlice(s["allOf"])
	out := clone(s)
	delete(out, "allOf")
	for _, b := range branches {
		bm, ok := object(b)
		if !ok {
			continue // false: nothing is valid; the server says so
		}
		bm, _, notes = t.deref(clone(bm), refs, notes)
		for _, k := range sortedKeys(bm) {
			v := bm[k]
			cur, has := out[k]
			switch {
			case !has:
				out[k] = v
			case k == "properties":
				props := clone(mapOf(cur))
				for name, ps := range mapOf(v) {
					if old, ok := props[name]; ok && !jsonEqual(old, ps) {
						props[name] = map[string]any{"allOf": []any{old, ps}}
					} else {
						props[name] = ps
					}
				}
				out[k] = props
			case k == "required":
				out[k] = unionStrings(cur, v)
			case k == "description":
				if a, b := str(cur), str(v); b != "" && a != b {
					out[k] = strings.TrimSpace(a + " " + b)
				}
			case k == "type":
				out[k] = intersectTypes(cur, v)
			case k == "enum":
				if a, b := anySlice(cur), anySlice(v); a != nil && b != nil {
					var both []any
					for _, x := range a {
						if slices.ContainsFunc(b, func(y any) bool { return jsonEqual(x, y) }) {
							both = append(both, x)
						}
					}
					out[k] = both
				}
			case k == "allOf":
				out[k] = append(anySlice(cur), anySlice(v)...)
			case jsonEqual(cur, v):
			default:
				// Two constraints of one keyword (two minimums, two anyOf):
				// the first stays, the second is told.
				notes = append(notes, "also "+explain(k, v))
			}
		}
	}
	return out, notes
}

// mergeAlternatives turns s's anyOf or oneOf (key) of object schemas into
// one object schema: every alternative's properties (a property the
// alternatives describe differently may be any of them), required only
// what all alternatives require, and a note naming the alternatives.
// Alternatives that are not objects cannot be arguments and are told only.
func (t *translator) mergeAlternatives(s map[string]any, key string, refs []string, notes []string) (map[string]any, []string) {
	branches := anySlice(s[key])
	out := clone(s)
	delete(out, key)
	props := clone(mapOf(out["properties"]))
	var common []string
	first := true
	var forms []string
	alternatives := map[string][]any{}
	for i, b := range branches {
		if i >= maxBranches {
			break
		}
		bm, ok := object(b)
		if !ok {
			continue
		}
		bm, _, notes = t.deref(clone(bm), refs, notes)
		for round := 0; round < maxMerge && bm["allOf"] != nil; round++ {
			bm, notes = t.mergeAllOf(bm, refs, notes)
		}
		if ty, ok := bm["type"]; ok && !hasType(ty, "object") {
			forms = append(forms, "not "+explain("type", ty)) // no argument object matches it
			continue
		}
		for _, name := range sortedKeys(mapOf(bm["properties"])) {
			alternatives[name] = append(alternatives[name], mapOf(bm["properties"])[name])
		}
		req := strs(bm["required"])
		if first {
			common, first = req, false
		} else {
			common = slices.DeleteFunc(common, func(n string) bool { return !slices.Contains(req, n) })
		}
		forms = append(forms, "("+strconv.Itoa(len(forms)+1)+") "+describeForm(bm))
	}
	for _, name := range sortedKeys(alternatives) {
		alts := alternatives[name]
		if old, ok := props[name]; ok {
			alts = append([]any{old}, alts...)
		}
		var distinct []any
		for _, a := range alts {
			if !slices.ContainsFunc(distinct, func(d any) bool { return jsonEqual(a, d) }) {
				distinct = append(distinct, a)
			}
		}
		if len(distinct) == 1 {
			props[name] = distinct[0]
		} else {
			props[name] = map[string]any{"anyOf": distinct}
		}
	}
	if len(props) > 0 {
		out["properties"] = props
	}
	if req := unionStrings(out["required"], toAny(common)); len(anySlice(req)) > 0 {
		out["required"] = req
	}
	if len(forms) > 0 {
		word := "any"
		if key == "oneOf" {
			word = "exactly one"
		}
		notes = append(notes, "give the arguments of "+word+" of these forms: "+strings.Join(forms, "; "))
	}
	return out, notes
}

// describeForm says in a few words what an alternative object needs.
func describeForm(b map[string]any) string {
	var parts []string
	if s := str(b["title"]); s != "" {
		parts = append(parts, s+":")
	}
	if s := str(b["description"]); s != "" {
		parts = append(parts, clip(s, 120))
	}
	if req := strs(b["required"]); len(req) > 0 {
		parts = append(parts, "with "+strings.Join(req, ", "))
	} else if props := sortedKeys(mapOf(b["properties"])); len(props) > 0 {
		parts = append(parts, "with any of "+strings.Join(props, ", "))
	} else if len(parts) == 0 {
		parts = append(parts, "any object")
	}
	return strings.Join(parts, " ")
}

// node translates one schema below (or at, depth 0) the top level.
func (t *translator) node(in map[string]any, depth int, refs []string, notes []string) map[string]any {
	t.nodes++
	if depth > maxSchemaDepth || t.nodes > maxSchemaNodes {
		return map[string]any{"description": "Any value (nested too deep to describe)."}
	}
	s := clone(in)
	r := t.r
	if ref, ok := s["$ref"].(string); ok && !r.inlineRefs && t.keptRef(ref) {
		// Kept: the dialect follows references into the kept $defs.
	} else if _, ok := s["$ref"]; ok {
		s, refs, notes = t.deref(s, refs, notes)
	}
	for _, k := range []string{"$schema", "$id", "$comment", "$defs", "definitions", "$dynamicRef", "$recursiveRef", "$recursiveAnchor", "$vocabulary"} {
		delete(s, k)
	}
	if r.mergeAllOf || r.nullable {
		for round := 0; round < maxMerge && s["allOf"] != nil; round++ {
			s, notes = t.mergeAllOf(s, refs, notes)
		}
	}
	if r.oneOfAnyOf {
		if one, ok := s["oneOf"]; ok {
			if _, both := s["anyOf"]; both {
				notes = append(notes, explain("oneOf", one))
			} else {
				s["anyOf"] = one
			}
			delete(s, "oneOf")
		}
	}
	if r.noMixedAny {
		if _, hasProps := s["properties"]; hasProps {
			for _, k := range []string{"anyOf", "oneOf"} {
				if _, ok := s[k]; ok {
					s, notes = t.mergeAlternatives(s, k, refs, notes)
				}
			}
		}
	}
	if r.constEnum {
		if c, ok := s["const"]; ok {
			if e := anySlice(s["enum"]); e == nil || slices.ContainsFunc(e, func(x any) bool { return jsonEqual(x, c) }) {
				s["enum"] = []any{c}
			}
			delete(s, "const")
		}
	}

	out := map[string]any{}
	addNote := func(n string) { notes = append(notes, n) }

	// Types: valid names only; OpenAPI dialects have one type and nullable.
	types := typeList(s["type"])
	if _, ok := s["type"]; ok && types == nil {
		addNote(explain("type", s["type"]))
	}
	if r.nullable {
		if slices.Contains(types, "null") {
			out["nullable"] = true
			types = slices.DeleteFunc(types, func(x string) bool { return x == "null" })
			if len(types) == 0 {
				addNote("always null")
			}
		}
		// An anyOf branch that is only null is nullable.
		if br := anySlice(s["anyOf"]); br != nil {
			kept := br[:0:0]
			for _, b := range br {
				if bm, ok := b.(map[string]any); ok && len(bm) == 1 && bm["type"] == "null" {
					out["nullable"] = true
					continue
				}
				kept = append(kept, b)
			}
			switch {
			case len(kept) == 1 && len(kept) != len(br):
				delete(s, "anyOf")
				if one, ok := object(kept[0]); ok {
					s = mergeInto(s, one)
					types = typeList(s["type"])
					if r.nullable && slices.Contains(types, "null") {
						types = slices.DeleteFunc(types, func(x string) bool { return x == "null" })
					}
				}
			case len(kept) == 0:
				delete(s, "anyOf")
			default:
				s["anyOf"] = kept
			}
		}
	}
	if r.inferType && len(types) == 0 {
		switch {
		case s["properties"] != nil || s["additionalProperties"] != nil && s["items"] == nil:
			types = []string{"object"}
		case s["items"] != nil || s["prefixItems"] != nil:
			types = []string{"array"}
		case s["enum"] != nil && allStrings(anySlice(s["enum"])):
			types = []string{"string"}
		}
	}
	if r.nullable && len(types) > 1 {
		// Several types: one branch each, with the keywords of its type.
		return t.splitTypes(s, types, out, depth, refs, notes)
	}
	switch {
	case len(types) == 1:
		out["type"] = types[0]
	case len(types) > 1:
		out["type"] = toAny(types)
	}

	keep := func(k string) bool {
		if depth > 0 && r.topOnly[k] {
			return false
		}
		if r.allowed != nil {
			return r.allowed[k]
		}
		return !r.refused[k]
	}
	sub := func(v any) (map[string]any, bool) {
		m, ok := object(v)
		if !ok {
			return nil, false
		}
		return t.node(m, depth+1, refs, nil), true
	}
	for _, k := range sortedKeys(s) {
		v := s[k]
		switch k {
		case "type", "$ref":
			if k == "$ref" {
				out[k] = v
			}
			continue
		case "description", "title":
			continue // below, with the notes
		}
		if !keep(k) {
			if n := explain(k, v); n != "" {
				addNote(n)
			}
			continue
		}
		switch k {
		case "properties":
			props, ok := v.(map[string]any)
			if !ok {
				continue
			}
			cut := false
			defer func() {
				if cut && out["additionalProperties"] == false {
					delete(out, "additionalProperties") // the unlisted ones stay allowed
				}
			}()
			tp := map[string]any{}
			for i, name := range sortedKeys(props) {
				if i >= maxPropsPerObj {
					addNote("more properties than can be listed")
					cut = true
					break
				}
				ps := props[name]
				if b, ok := ps.(bool); ok && !b {
					addNote(name + " must not be given")
					continue
				}
				if pm, ok := ps.(map[string]any); ok && pm["required"] == true {
					// draft-03's required flag on the property itself.
					s["required"] = unionStrings(s["required"], []any{name})
				}
				if m, ok := sub(ps); ok {
					tp[name] = m
				}
			}
			out[k] = tp
		case "required":
			if req := strs(v); len(req) > 0 {
				out[k] = toAny(req)
			}
		case "items":
			switch it := v.(type) {
			case []any: // draft-04 tuple: any of its item schemas
				var alts []any
				rest := s["additionalItems"]
				if rest == nil {
					rest = true // items after the tuple's may be anything
				}
				if b, ok := rest.(bool); !ok || b {
					it = append(slices.Clip(it), rest)
				}
				for _, x := range it {
					m, ok := sub(x)
					if ok && len(m) == 0 {
						alts = nil // any item
						break
					}
					if ok {
						alts = append(alts, m)
					}
				}
				switch {
				case len(alts) == 1:
					out[k] = alts[0]
				case len(alts) > 1 && keep("anyOf"):
					out[k] = map[string]any{"anyOf": alts}
				default:
					out[k] = map[string]any{}
				}
			default:
				if m, ok := sub(it); ok {
					out[k] = m
				}
			}
		case "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
			"unevaluatedProperties", "unevaluatedItems", "additionalItems":
			if b, ok := v.(bool); ok {
				out[k] = b
			} else if m, ok := sub(v); ok {
				out[k] = m
			}
		case "anyOf", "oneOf", "allOf", "prefixItems":
			var alts []any
			for i, x := range anySlice(v) {
				if i >= maxBranches {
					addNote("more alternatives than can be listed")
					break
				}
				if m, ok := sub(x); ok {
					alts = append(alts, m)
				}
			}
			if len(alts) > 0 {
				out[k] = alts
			}
		case "patternProperties", "dependentSchemas":
			m, ok := v.(map[string]any)
			if !ok {
				continue
			}
			tm := map[string]any{}
			for _, name := range sortedKeys(m) {
				if sm, ok := sub(m[name]); ok {
					tm[name] = sm
				} else if b, ok := m[name].(bool); ok {
					tm[name] = b
				}
			}
			out[k] = tm
		case "enum":
			e := anySlice(v)
			if e == nil {
				continue
			}
			if len(e) > maxEnum {
				addNote(fmt.Sprintf("%d more values are accepted than listed", len(e)-maxEnum))
				e = e[:maxEnum]
			}
			if r.stringEnums {
				if slices.Contains(e, nil) {
					out["nullable"] = true
					e = slices.DeleteFunc(slices.Clone(e), func(x any) bool { return x == nil })
				}
				ty, _ := out["type"].(string)
				if !allStrings(e) || ty != "" && ty != "string" {
					addNote(explain("enum", e))
					continue
				}
				if len(e) == 0 {
					continue
				}
				out["type"] = "string"
			}
			out[k] = e
		case "format":
			f, ok := v.(string)
			if !ok {
				continue
			}
			if r.formats != nil {
				ty, _ := out["type"].(string)
				if !r.formats[ty][f] {
					addNote(explain(k, f))
					continue
				}
			}
			out[k] = f
		case "pattern":
			p, ok := v.(string)
			if !ok {
				continue
			}
			if r.anchored && !anchoredPattern(p) {
				addNote(explain(k, p))
				continue
			}
			out[k] = p
		case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains":
			if n, ok := v.(float64); ok && n >= 0 && n == math.Trunc(n) {
				out[k] = v
			}
		case "minimum", "maximum", "multipleOf":
			if n, ok := v.(float64); ok && (k != "multipleOf" || n > 0) {
				out[k] = v
			}
		case "exclusiveMinimum", "exclusiveMaximum":
			switch n := v.(type) {
			case float64:
				out[k] = n
			case bool: // draft-04: a flag on minimum/maximum
				bound := "minimum"
				if k == "exclusiveMaximum" {
					bound = "maximum"
				}
				if m, ok := s[bound].(float64); ok && n && keep(k) {
					out[k] = m
					s[bound] = nil
					delete(out, bound)
				}
			}
		case "uniqueItems", "nullable", "readOnly", "writeOnly", "deprecated":
			if b, ok := v.(bool); ok {
				out[k] = b
			}
		case "dependentRequired":
			if _, ok := v.(map[string]any); ok {
				out[k] = v
			}
		default:
			out[k] = v
		}
	}
	if _, ok := s["prefixItems"]; ok && !keep("prefixItems") && out["items"] != nil {
		// items applies after the prefix only: without the prefix, any item.
		addNote(explain("items", out["items"]))
		out["items"] = map[string]any{}
	}
	if v, ok := s["minimum"]; ok && v == nil {
		delete(out, "minimum")
	}
	if v, ok := s["maximum"]; ok && v == nil {
		delete(out, "maximum")
	}

	ty, _ := out["type"].(string)
	if r.inferType && ty != "" {
		// Gemini: "field predicate failed: $type == Type.ARRAY" for items
		// on another type; likewise each type's own keywords.
		for _, k := range sortedKeys(typeOnly) {
			if want := typeOnly[k]; want != ty && !(want == "number" && ty == "integer") {
				if v, ok := out[k]; ok {
					addNote(explain(k, v))
					delete(out, k)
				}
			}
		}
	}
	if r.arrayItems && (ty == "array" || hasType(out["type"], "array")) && out["items"] == nil {
		// OpenAI: "array schema missing items". Any item.
		out["items"] = map[string]any{}
	}
	if r.noEmptyObj {
		if p, ok := out["properties"].(map[string]any); ok && len(p) == 0 {
			delete(out, "properties")
		}
	}
	if r.definedReq {
		props := mapOf(out["properties"])
		var kept []any
		var missing []string
		for _, n := range strs(out["required"]) {
			if _, ok := props[n]; ok {
				kept = append(kept, n)
			} else {
				missing = append(missing, n)
			}
		}
		if len(missing) > 0 {
			addNote("required keys: " + strings.Join(missing, ", "))
		}
		if len(kept) > 0 {
			out["required"] = kept
		} else {
			delete(out, "required")
		}
	}
	if r.typedBranch {
		if br := anySlice(out["anyOf"]); br != nil {
			for _, b := range br {
				if bm, ok := b.(map[string]any); !ok || bm["type"] == nil {
					// Gemini: "schema didn't specify the schema type field".
					addNote(explain("anyOf", br))
					delete(out, "anyOf")
					break
				}
			}
		}
	}

	desc := str(s["description"])
	if title := str(s["title"]); title != "" {
		if keep("title") {
			out["title"] = title
		} else if desc == "" {
			desc = title
		}
	}
	notes = slices.DeleteFunc(notes, func(n string) bool { return n == "" })
	desc = joinNote(desc, strings.Join(slices.Compact(notes), "; "))
	if desc != "" {
		out["description"] = clip(desc, maxDescLen)
	}
	return out
}

// splitTypes is s, whose types are several, as anyOf one branch per type,
// each with the keywords that apply to its type; the rest stay on out.
func (t *translator) splitTypes(s map[string]any, types []string, out map[string]any, depth int, refs []string, notes []string) map[string]any {
	forType := map[string]string{
		"items": "array", "minItems": "array", "maxItems": "array", "prefixItems": "array", "uniqueItems": "array", "contains": "array",
		"properties": "object", "required": "object", "additionalProperties": "object", "minProperties": "object", "maxProperties": "object", "patternProperties": "object", "propertyNames": "object",
		"minLength": "string", "maxLength": "string", "pattern": "string", "format": "string", "enum": "string",
		"minimum": "number", "maximum": "number", "exclusiveMinimum": "number", "exclusiveMaximum": "number", "multipleOf": "number",
	}
	var branches []any
	for _, ty := range types {
		b := map[string]any{"type": ty}
		for k, v := range s {
			want, specific := forType[k]
			if specific && (want == ty || want == "number" && ty == "integer") {
				b[k] = v
			}
		}
		branches = append(branches, t.node(b, depth+1, refs, nil))
	}
	rest := map[string]any{}
	for _, k := range []string{"description", "title", "default", "example", "examples"} {
		if v, ok := s[k]; ok {
			rest[k] = v
		}
	}
	if prior := anySlice(s["anyOf"]); prior != nil {
		notes = append(notes, explain("anyOf", prior))
	}
	rest["anyOf"] = branches
	m := t.node(rest, depth, refs, notes)
	if out["nullable"] == true {
		m["nullable"] = true
	}
	return m
}

// mergeInto is s with one's keywords added (s's own win).
func mergeInto(s, one map[string]any) map[string]any {
	out := clone(one)
	for k, v := range s {
		if k == "type" {
			if _, ok := out[k]; ok {
				continue
			}
		}
		out[k] = v
	}
	return out
}

// explain says in a few words what keyword k with value v asks, for a
// description; "" for keywords that say nothing a model needs.
func explain(k string, v any) string {
	num := func() string { return compact(v) }
	switch k {
	case "additionalProperties":
		if _, ok := v.(bool); ok {
			return "" // a model need not be told; the server checks it
		}
		if m, ok := v.(map[string]any); ok && len(m) == 0 {
			return "other keys allowed"
		}
		return "other keys allowed, each " + summary(v)
	case "minimum":
		return "at least " + num()
	case "maximum":
		return "at most " + num()
	case "exclusiveMinimum":
		if _, ok := v.(bool); ok {
			return ""
		}
		return "greater than " + num()
	case "exclusiveMaximum":
		if _, ok := v.(bool); ok {
			return ""
		}
		return "less than " + num()
	case "multipleOf":
		return "a multiple of " + num()
	case "minLength":
		return "at least " + count(v, "character")
	case "maxLength":
		return "at most " + count(v, "character")
	case "minItems":
		return "at least " + count(v, "item")
	case "maxItems":
		return "at most " + count(v, "item")
	case "minProperties":
		return "at least " + count(v, "key")
	case "maxProperties":
		return "at most " + count(v, "key")
	case "uniqueItems":
		if v == true {
			return "items unique"
		}
		return ""
	case "pattern":
		return "matching the pattern " + clip(str(v), maxNoteLen)
	case "format":
		return "format: " + clip(str(v), 60)
	case "default":
		return "default: " + clip(compact(v), maxNoteLen)
	case "examples":
		if e := anySlice(v); len(e) > 0 {
			return "for example " + clip(compact(e[0]), maxNoteLen)
		}
		return ""
	case "example":
		return "for example " + clip(compact(v), maxNoteLen)
	case "const":
		return "always " + clip(compact(v), maxNoteLen)
	case "enum":
		vals := anySlice(v)
		parts := make([]string, 0, len(vals))
		for _, x := range vals {
			parts = append(parts, compact(x))
		}
		return "one of " + clip(strings.Join(parts, ", "), maxNoteLen)
	case "type":
		return "type " + clip(compact(v), 80)
	case "required":
		if req := strs(v); len(req) > 0 {
			return "required keys: " + strings.Join(req, ", ")
		}
		return ""
	case "then", "else":
		if m, ok := v.(map[string]any); ok && len(m) == 0 {
			return ""
		}
	case "items", "prefixItems", "contains":
		return k + ": " + summary(v)
	case "title", "readOnly", "writeOnly", "deprecated", "nullable", "$anchor", "$dynamicAnchor", "contentEncoding", "contentMediaType", "contentSchema", "minContains", "maxContains", "$comment":
		return ""
	}
	return k + ": " + clip(compact(v), maxNoteLen)
}

// count is "1 item", "3 items".
func count(v any, noun string) string {
	if n, ok := v.(float64); ok && n == 1 {
		return "1 " + noun
	}
	return compact(v) + " " + noun + "s"
}

// summary is a schema in a few words: its type, or its JSON cut short.
func summary(v any) string {
	if m, ok := v.(map[string]any); ok {
		if ty, ok := m["type"]; ok && len(m) <= 2 {
			return "of type " + compact(ty)
		}
	}
	return clip(compact(v), maxNoteLen)
}

// joinNote adds note to a description: in brackets after it, or as its
// first sentence. The note's own closing periods are dropped — brackets
// need none, a sentence gets exactly one — so whatever a caller passes, a
// description never ends in ".." or ".)".
func joinNote(desc, note string) string {
	note = strings.TrimRight(strings.TrimSpace(note), ".")
	if note == "" {
		return desc
	}
	desc = strings.TrimSpace(desc)
	if desc == "" {
		if !strings.HasSuffix(note, "?") && !strings.HasSuffix(note, "!") && !strings.HasSuffix(note, "…") {
			note += "."
		}
		return strings.ToUpper(note[:1]) + note[1:]
	}
	return desc + " (" + note + ")"
}

func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

func anchoredPattern(p string) bool {
	return strings.HasPrefix(p, "^") && strings.HasSuffix(p, "$") && !strings.HasSuffix(p, `\$`)
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func mapOf(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func anySlice(v any) []any {
	s, _ := v.([]any)
	return s
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// strs is the distinct strings of a JSON array, in order.
func strs(v any) []string {
	var out []string
	for _, x := range anySlice(v) {
		if s, ok := x.(string); ok && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func unionStrings(a, b any) any {
	return toAny(strs(append(slices.Clone(anySlice(a)), anySlice(b)...)))
}

func allStrings(vs []any) bool {
	for _, v := range vs {
		if _, ok := v.(string); !ok {
			return false
		}
	}
	return true
}

// typeList is a type keyword's valid names, nil when none are.
func typeList(v any) []string {
	var out []string
	switch t := v.(type) {
	case string:
		if jsonTypes[t] {
			out = append(out, t)
		}
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok && jsonTypes[s] && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

func hasType(v any, name string) bool { return slices.Contains(typeList(v), name) }

// intersectTypes is the types both a and b allow (integer is a number);
// a when they share none (the server will refuse every value anyway).
func intersectTypes(a, b any) any {
	ta, tb := typeList(a), typeList(b)
	var both []string
	for _, x := range ta {
		switch {
		case slices.Contains(tb, x):
			both = append(both, x)
		case x == "number" && slices.Contains(tb, "integer"):
			both = append(both, "integer")
		case x == "integer" && slices.Contains(tb, "number"):
			both = append(both, "integer")
		}
	}
	switch len(both) {
	case 0:
		return a
	case 1:
		return both[0]
	}
	return toAny(both)
}

func jsonEqual(a, b any) bool { return compact(a) == compact(b) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
