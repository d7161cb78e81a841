package codemode

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/plain"
)

var identifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// Path is how a script names f: tools.server.tool, with brackets for
// names a JavaScript identifier cannot hold (tools["my-server"]["get.item"]).
func (f Function) Path() string {
	return "tools" + member(f.Server) + member(f.Tool)
}

func member(name string) string {
	if identifier.MatchString(name) {
		return "." + name
	}
	b, _ := json.Marshal(name)
	return "[" + string(b) + "]"
}

// List is the functions, one a line: the path to call and the first line
// of the description.
func List(fns []Function) string {
	var b strings.Builder
	for _, f := range fns {
		if f.Server == "then" || f.Tool == "then" {
			fmt.Fprintf(&b, "%s — (a script cannot call it: JavaScript's await takes an object with a then function for a promise)\n", f.Path())
			continue
		}
		fmt.Fprintf(&b, "%s — %s\n", f.Path(), firstLine(f.Description))
	}
	return b.String()
}

func firstLine(s string) string {
	s = plain.FirstLine(s, 160)
	if s == "" {
		return "(no description)"
	}
	return s
}

// resultText is the type a tool without an output schema resolves to.
const resultText = "{ text: string; parts: Array<{ type: string; [key: string]: unknown }> }"

// Declare is f as a TypeScript-style declaration generated from its input
// and output schemas, their descriptions (and each field's format,
// bounds and default) as comments. A $ref into a schema ($defs,
// definitions) is a named type, declared after the function.
func Declare(f Function) string {
	d := &declarer{names: map[string]string{}, taken: map[string]bool{}}
	var b strings.Builder
	if desc := strings.TrimSpace(f.Description); desc != "" {
		b.WriteString(comment(desc, ""))
	}
	in := d.root(f.Input, "Args")
	out := resultText
	if len(f.Output) > 0 {
		out = d.root(f.Output, "Result")
	}
	fmt.Fprintf(&b, "async function %s(args: %s): Promise<%s>;\n", f.Path(), in, out)
	if len(f.Output) == 0 {
		b.WriteString("// Resolves to the result's text (its text parts joined) and its parts; a tool error is thrown.\n")
	}
	b.WriteString(d.named())
	return b.String()
}

func comment(text, indent string) string {
	lines := strings.Split(strings.TrimSpace(strings.ReplaceAll(text, "*/", "* /")), "\n")
	if len(lines) == 1 {
		return indent + "/** " + lines[0] + " */\n"
	}
	var b strings.Builder
	b.WriteString(indent + "/**\n")
	for _, l := range lines {
		b.WriteString(indent + " * " + strings.TrimRight(l, " \t") + "\n")
	}
	b.WriteString(indent + " */\n")
	return b.String()
}

// maxDepth bounds how deep a declaration follows nested schemas (each
// named type starts again: a recursive schema is a name, not a nesting).
const maxDepth = 8

// maxNamed bounds the named types one declaration declares.
const maxNamed = 40

// declarer writes one function's declaration: it names each schema a
// $ref points to once, and declares the named types after the function.
type declarer struct {
	names map[string]string // root name + "\x00" + $ref → type name
	taken map[string]bool
	queue []named
}

// named is a type to declare: a schema a $ref points to, in its root.
type named struct {
	name   string
	schema map[string]any
	in     scope
}

// scope is the schema that $refs resolve in (the input's or the
// output's), named for a $ref to its root ("#").
type scope struct {
	d    *declarer
	root map[string]any
	name string
}

// root is the type of a whole schema, one of the function's.
func (d *declarer) root(raw json.RawMessage, name string) string {
	if len(raw) == 0 {
		return "{}"
	}
	var s map[string]any
	if json.Unmarshal(raw, &s) != nil {
		var b bool
		if json.Unmarshal(raw, &b) == nil && !b {
			return "never"
		}
		return "unknown"
	}
	return scope{d: d, root: s, name: name}.typeOf(s, "", 0)
}

// named declares the named types, in the order they were first met; one
// may name more, which are declared after it.
func (d *declarer) named() string {
	var b strings.Builder
	for i := 0; i < len(d.queue); i++ {
		n := d.queue[i]
		if doc := propertyDoc(n.schema); doc != "" {
			b.WriteString(comment(doc, ""))
		}
		fmt.Fprintf(&b, "type %s = %s;\n", n.name, n.in.typeOf(n.schema, "", 0))
	}
	return b.String()
}

// ref is the name of the type ref points to, declared once; an unknown
// /* ref */ when it points outside the schema or to nothing.
func (sc scope) ref(ref string) string {
	key := sc.name + "\x00" + ref
	if n, ok := sc.d.names[key]; ok {
		return n
	}
	target, last, ok := resolve(sc.root, ref)
	if !ok || len(sc.d.queue) >= maxNamed {
		return "unknown /* " + strings.ReplaceAll(ref, "*/", "* /") + " */"
	}
	if last == "" {
		last = sc.name
	}
	n := sc.d.unique(typeName(last))
	sc.d.names[key] = n
	sc.d.queue = append(sc.d.queue, named{name: n, schema: target, in: sc})
	return n
}

func (d *declarer) unique(name string) string {
	n := name
	for i := 2; d.taken[n]; i++ {
		n = fmt.Sprintf("%s%d", name, i)
	}
	d.taken[n] = true
	return n
}

// builtinTypes are names a declared type may not take.
var builtinTypes = map[string]bool{
	"string": true, "number": true, "boolean": true, "null": true, "undefined": true, "unknown": true, "never": true,
	"object": true, "any": true, "void": true, "Array": true, "Promise": true, "Record": true, "Object": true,
	"String": true, "Number": true, "Boolean": true, "Function": true, "Date": true,
}

var notIdentifier = regexp.MustCompile(`[^A-Za-z0-9_$]+`)

// typeName is a definition's name as a TypeScript type name.
func typeName(s string) string {
	n := notIdentifier.ReplaceAllString(s, "_")
	if n == "" || n[0] >= '0' && n[0] <= '9' {
		n = "T" + n
	}
	if builtinTypes[n] {
		n += "Type"
	}
	return n
}

// resolve follows a JSON pointer $ref ("#/$defs/Node") in root: the
// schema there and the pointer's last segment ("" for "#").
func resolve(root map[string]any, ref string) (target map[string]any, last string, ok bool) {
	rest, ok := strings.CutPrefix(ref, "#")
	if !ok || rest != "" && !strings.HasPrefix(rest, "/") {
		return nil, "", false
	}
	var at any = root
	if rest != "" {
		for _, seg := range strings.Split(rest[1:], "/") {
			if u, err := url.PathUnescape(seg); err == nil {
				seg = u
			}
			seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
			switch v := at.(type) {
			case map[string]any:
				at = v[seg]
			case []any:
				i, err := strconv.Atoi(seg)
				if err != nil || i < 0 || i >= len(v) {
					return nil, "", false
				}
				at = v[i]
			default:
				return nil, "", false
			}
			last = seg
		}
	}
	target, ok = at.(map[string]any)
	return target, last, ok
}

// typeOf is the TypeScript type of a JSON schema.
func (sc scope) typeOf(s map[string]any, indent string, depth int) string {
	if depth > maxDepth {
		return "unknown"
	}
	if c, ok := s["const"]; ok {
		b, _ := json.Marshal(c)
		return string(b)
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		var alts []string
		for _, v := range e {
			b, _ := json.Marshal(v)
			alts = append(alts, string(b))
		}
		return strings.Join(alts, " | ")
	}
	if parts, ok := s["allOf"].([]any); ok && len(parts) > 0 {
		return sc.allOf(s, parts, indent, depth)
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		if alts, ok := s[key].([]any); ok && len(alts) > 0 {
			var ts []string
			for _, a := range alts {
				if m, ok := a.(map[string]any); ok {
					ts = append(ts, sc.typeOf(m, indent, depth+1))
				}
			}
			return strings.Join(ts, " | ")
		}
	}
	if ref, ok := s["$ref"].(string); ok {
		return sc.ref(ref)
	}
	switch t := s["type"].(type) {
	case []any:
		var ts []string
		for _, one := range t {
			c := maps.Clone(s)
			c["type"] = one
			ts = append(ts, sc.typeOf(c, indent, depth+1))
		}
		return strings.Join(ts, " | ")
	case string:
		switch t {
		case "string":
			return "string"
		case "number", "integer":
			return "number"
		case "boolean":
			return "boolean"
		case "null":
			return "null"
		case "array":
			item := "unknown"
			if it, ok := s["items"].(map[string]any); ok {
				item = sc.typeOf(it, indent, depth+1)
			}
			return group(item) + "[]"
		case "object":
			return sc.objectType(s, indent, depth)
		}
	}
	if _, ok := s["properties"]; ok {
		return sc.objectType(s, indent, depth)
	}
	return "unknown"
}

// group puts a union in parentheses, to be one operand.
func group(t string) string {
	if strings.Contains(t, "|") {
		return "(" + t + ")"
	}
	return t
}

// allOf is the type of a schema with allOf: its object parts (and its
// own properties) merged into one object, intersected (&) with the parts
// that are not plain objects (a $ref, a union).
func (sc scope) allOf(s map[string]any, parts []any, indent string, depth int) string {
	merged := map[string]any{"properties": map[string]any{}}
	var required []any
	var others []string
	merge := func(m map[string]any) bool {
		props, ok := m["properties"].(map[string]any)
		_, ref := m["$ref"]
		if t, typed := m["type"]; !ok || ref || typed && t != "object" {
			return false
		}
		for k, v := range props {
			merged["properties"].(map[string]any)[k] = v
		}
		if r, ok := m["required"].([]any); ok {
			required = append(required, r...)
		}
		return true
	}
	own := maps.Clone(s)
	delete(own, "allOf")
	if !merge(own) {
		for _, k := range []string{"$ref", "anyOf", "oneOf", "enum", "const", "items"} {
			if _, ok := own[k]; ok {
				others = append(others, group(sc.typeOf(own, indent, depth+1)))
				break
			}
		}
	}
	for _, p := range parts {
		if m, ok := p.(map[string]any); ok && !merge(m) {
			others = append(others, group(sc.typeOf(m, indent, depth+1)))
		}
	}
	if len(merged["properties"].(map[string]any)) > 0 {
		merged["required"] = required
		others = append([]string{sc.objectType(merged, indent, depth)}, others...)
	}
	if len(others) == 0 {
		return "unknown"
	}
	return strings.Join(others, " & ")
}

func (sc scope) objectType(s map[string]any, indent string, depth int) string {
	props, _ := s["properties"].(map[string]any)
	if len(props) == 0 {
		if ap, ok := s["additionalProperties"].(map[string]any); ok {
			return "{ [key: string]: " + sc.typeOf(ap, indent, depth+1) + " }"
		}
		return "{ [key: string]: unknown }"
	}
	var required []string
	if r, ok := s["required"].([]any); ok {
		for _, v := range r {
			if name, ok := v.(string); ok {
				required = append(required, name)
			}
		}
	}
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	// Required first, then by name: one order for one schema.
	slices.SortFunc(names, func(a, b string) int {
		ra, rb := slices.Contains(required, a), slices.Contains(required, b)
		if ra != rb {
			if ra {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	inner := indent + "  "
	var b strings.Builder
	b.WriteString("{\n")
	for _, n := range names {
		p, _ := props[n].(map[string]any)
		if doc := propertyDoc(p); doc != "" {
			b.WriteString(comment(doc, inner))
		}
		opt := "?"
		if slices.Contains(required, n) {
			opt = ""
		}
		key := n
		if !identifier.MatchString(n) {
			q, _ := json.Marshal(n)
			key = string(q)
		}
		fmt.Fprintf(&b, "%s%s%s: %s;\n", inner, key, opt, sc.typeOf(p, inner, depth+1))
	}
	b.WriteString(indent + "}")
	return b.String()
}

// constraintKeys are the schema keywords a field's comment keeps: what a
// TypeScript type cannot say but a call must respect.
var constraintKeys = []string{"format", "pattern", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum",
	"minLength", "maxLength", "minItems", "maxItems", "default"}

// propertyDoc is a field's (or a named type's) comment: its description,
// then its constraints on one line ("format: date-time; minimum: 1").
func propertyDoc(p map[string]any) string {
	desc, _ := p["description"].(string)
	var cs []string
	for _, k := range constraintKeys {
		if v, ok := p[k]; ok {
			b, _ := json.Marshal(v)
			if k == "format" || k == "pattern" {
				b = []byte(fmt.Sprint(v))
			}
			cs = append(cs, k+": "+plain.Clip(string(b), 80))
		}
	}
	doc := strings.TrimSpace(desc)
	if len(cs) > 0 {
		doc = strings.TrimSpace(doc + "\n" + strings.Join(cs, "; "))
	}
	return doc
}

// Value is what a script's await gets for a tool's result: its structured
// content when the tool declares an output schema (declaresOutput), else
// {text, parts}: its text parts joined and every part as MCP sent it. A
// result marked as an error is an error, with its text.
func Value(res *mcp.CallToolResult, declaresOutput bool) (any, error) {
	if res == nil {
		return nil, fmt.Errorf("the tool returned no result")
	}
	var text []string
	for _, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok {
			text = append(text, t.Text)
		}
	}
	joined := strings.Join(text, "\n")
	if res.IsError {
		if joined == "" {
			joined = "the tool reported an error without a message"
		}
		return nil, toolError(joined)
	}
	if declaresOutput && res.StructuredContent != nil {
		return res.StructuredContent, nil
	}
	parts := res.Content
	if parts == nil {
		parts = []mcp.Content{}
	}
	return map[string]any{"text": joined, "parts": parts}, nil
}

type toolError string

func (e toolError) Error() string { return string(e) }

// OutputSchema is t's output schema as JSON, nil when it declares none
// (a script's call then returns the content, not structured output).
func OutputSchema(t mcp.Tool) json.RawMessage {
	if len(t.RawOutputSchema) > 0 {
		return t.RawOutputSchema
	}
	if t.OutputSchema.Type == "" {
		return nil
	}
	raw, err := json.Marshal(t.OutputSchema)
	if err != nil {
		return nil
	}
	return raw
}
