package router

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
)

// MetaOutputSchemaError is the _meta key under which Call notes, on a
// result it turned into an error, why the structured result did not match
// the tool's outputSchema, so a window can show it apart from the text.
const MetaOutputSchemaError = "io.switchboard/outputSchemaError"

// outputSchema returns the tool's outputSchema as JSON, or nil when it
// declares none.
func outputSchema(t mcp.Tool) json.RawMessage {
	if len(t.RawOutputSchema) > 0 {
		return t.RawOutputSchema
	}
	if t.OutputSchema.Type == "" {
		return nil
	}
	b, err := json.Marshal(t.OutputSchema)
	if err != nil {
		return nil
	}
	return b
}

// resolvedSchemas caches compiled output schemas by their JSON text.
var resolvedSchemas sync.Map // string → *jsonschema.Resolved or error

func resolveSchema(raw json.RawMessage) (*jsonschema.Resolved, error) {
	if v, ok := resolvedSchemas.Load(string(raw)); ok {
		if rs, ok := v.(*jsonschema.Resolved); ok {
			return rs, nil
		}
		return nil, v.(error)
	}
	var s jsonschema.Schema
	var rs *jsonschema.Resolved
	err := json.Unmarshal(raw, &s)
	if err == nil {
		rs, err = s.Resolve(nil)
	}
	if err != nil {
		resolvedSchemas.Store(string(raw), err)
		return nil, err
	}
	resolvedSchemas.Store(string(raw), rs)
	return rs, nil
}

// CheckOutput checks a successful result of t against t's outputSchema,
// as the MCP spec asks clients to: a tool that declares one must return
// structuredContent matching it. It returns nil when the tool declares
// none, the result is an error, or it matches; a schema that cannot be
// compiled is not held against the result.
func CheckOutput(t mcp.Tool, res *mcp.CallToolResult) error {
	raw := outputSchema(t)
	if raw == nil || res == nil || res.IsError {
		return nil
	}
	if res.StructuredContent == nil {
		return fmt.Errorf("the tool declares an outputSchema but returned no structuredContent")
	}
	rs, err := resolveSchema(raw)
	if err != nil {
		return nil
	}
	// Validate walks plain JSON values: decode the content as JSON would.
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return fmt.Errorf("structuredContent cannot be encoded: %w", err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("structuredContent is not JSON: %w", err)
	}
	if err := rs.Validate(v); err != nil {
		return fmt.Errorf("structuredContent does not match the tool's outputSchema: %w", err)
	}
	return nil
}

// outputs checks tools' results against their outputSchema; list gives a
// server's tools (Router.ServerTools, cached). Safe for concurrent use.
type outputs struct {
	list func(ctx context.Context, server string) ([]mcp.Tool, error)
}

// check makes a result whose structuredContent does not match its
// tool's outputSchema an error result: the text says why (the model and
// the CLI see it), _meta[MetaOutputSchemaError] carries the same for a
// window, and the structured content stays for inspection. A tool whose
// definition is not at hand is not checked. It reports whether it changed
// res.
func (o outputs) check(ctx context.Context, server, tool string, res *mcp.CallToolResult) bool {
	if res == nil || res.IsError {
		return false
	}
	t, ok := o.tool(ctx, server, tool)
	if !ok {
		return false
	}
	err := CheckOutput(t, res)
	if err == nil {
		return false
	}
	msg := fmt.Sprintf("%s: %s: %v (the server has a bug: tell its author)", server, tool, err)
	res.IsError = true
	res.Content = append(res.Content, mcp.NewTextContent(msg))
	if res.Meta == nil {
		res.Meta = &mcp.Meta{}
	}
	if res.Meta.AdditionalFields == nil {
		res.Meta.AdditionalFields = map[string]any{}
	}
	res.Meta.AdditionalFields[MetaOutputSchemaError] = msg
	return true
}

// checkRaw is check for a relayed result: it is decoded only
// when the tool declares an outputSchema (few do), and encoded again only
// when checkOutput changed it.
func (o outputs) checkRaw(ctx context.Context, server, tool string, raw json.RawMessage) json.RawMessage {
	if _, ok := o.tool(ctx, server, tool); !ok || toolError(raw) {
		return raw
	}
	res, err := mcp.ParseCallToolResult(&raw)
	if err != nil || !o.check(ctx, server, tool, res) {
		return raw
	}
	out, err := json.Marshal(res)
	if err != nil {
		return raw
	}
	return out
}

// tool returns server's tool when it declares an outputSchema.
func (o outputs) tool(ctx context.Context, server, tool string) (mcp.Tool, bool) {
	tools, err := o.list(ctx, server)
	if err != nil {
		return mcp.Tool{}, false
	}
	for _, t := range tools {
		if t.Name == tool {
			return t, outputSchema(t) != nil
		}
	}
	return mcp.Tool{}, false
}
