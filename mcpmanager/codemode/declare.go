package codemode

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
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
// and output schemas, their descriptions as comments.
func Declare(f Function) string {
	var b strings.Builder
	if d := strings.TrimSpace(f.Description); d != "" {
		b.WriteString(comment(d, ""))
	}
	out := resultText
	if len(f.Output) > 0 {
		out = tsType(f.Output, "", 0)
	}
	fmt.Fprintf(&b, "async function %s(args: %s): Promise<%s>;\n", f.Path(), tsType(f.Input, "", 0), out)
	if len(f.Output) == 0 {
		b.WriteString("// Resolves to the result's text (its text parts joined) and its parts; a tool error is thrown.\n")
	}
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

// maxDepth bounds how deep a declaration follows nested schemas.
const maxDepth = 8

// tsType is the TypeScript type of a JSON schema.
func tsType(raw json.RawMessage, indent string, depth int) string {
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
	return schemaType(s, indent, depth)
}

func schemaType(s map[string]any, indent string, depth int) string {
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
	for _, key := range []string{"anyOf", "oneOf"} {
		if alts, ok := s[key].([]any); ok && len(alts) > 0 {
			var ts []string
			for _, a := range alts {
				if m, ok := a.(map[string]any); ok {
					ts = append(ts, schemaType(m, indent, depth+1))
				}
			}
			return strings.Join(ts, " | ")
		}
	}
	if ref, ok := s["$ref"].(string); ok {
		return "unknown /* " + ref + " */"
	}
	switch t := s["type"].(type) {
	case []any:
		var ts []string
		for _, one := range t {
			c := maps(s)
			c["type"] = one
			ts = append(ts, schemaType(c, indent, depth+1))
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
				item = schemaType(it, indent, depth+1)
			}
			if strings.ContainsAny(item, "|") {
				item = "(" + item + ")"
			}
			return item + "[]"
		case "object":
			return objectType(s, indent, depth)
		}
	}
	if _, ok := s["properties"]; ok {
		return objectType(s, indent, depth)
	}
	return "unknown"
}

func maps(s map[string]any) map[string]any {
	c := make(map[string]any, len(s))
	for k, v := range s {
		c[k] = v
	}
	return c
}

func objectType(s map[string]any, indent string, depth int) string {
	props, _ := s["properties"].(map[string]any)
	if len(props) == 0 {
		if ap, ok := s["additionalProperties"].(map[string]any); ok {
			return "{ [key: string]: " + schemaType(ap, indent, depth+1) + " }"
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
		if d, ok := p["description"].(string); ok && strings.TrimSpace(d) != "" {
			b.WriteString(comment(d, inner))
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
		fmt.Fprintf(&b, "%s%s%s: %s;\n", inner, key, opt, schemaType(p, inner, depth+1))
	}
	b.WriteString(indent + "}")
	return b.String()
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
