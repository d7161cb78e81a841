package supervisor

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// A tools/list answer with schemas mcp-go cannot decode ("properties": [],
// a type list) or clients refuse (no type) reaches mcp-go repaired: the
// server's tools are listed, not lost with one of them, and the schemas
// kept are the repaired ones.
func TestToolsListSchemasRepaired(t *testing.T) {
	result := `{"tools":[
		{"name":"php","inputSchema":{"type":"object","properties":[]}},
		{"name":"nullable","inputSchema":{"type":["object","null"],"properties":{"a":{"type":"string"}}}},
		{"name":"zod4","description":"kept","inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#"}},
		{"name":"fine","inputSchema":{"type":"object","properties":{"b":{"type":"number"}}}}
	],"nextCursor":"2"}`
	res := &transport.JSONRPCResponse{Result: json.RawMessage(result)}
	var k rawSchemas
	k.note(transport.JSONRPCRequest{Method: string(mcp.MethodToolsList)}, res)
	var decoded mcp.ListToolsResult
	if err := json.Unmarshal(res.Result, &decoded); err != nil {
		t.Fatalf("mcp-go cannot decode the answer given it: %v\n%s", err, res.Result)
	}
	if len(decoded.Tools) != 4 || decoded.NextCursor != "2" || decoded.Tools[2].Description != "kept" {
		t.Fatalf("answer %s", res.Result)
	}
	k.fill(decoded.Tools)
	for _, tool := range decoded.Tools {
		var schema struct {
			Type       string         `json:"type"`
			Properties map[string]any `json:"properties"`
		}
		if err := json.Unmarshal(tool.RawInputSchema, &schema); err != nil || schema.Type != "object" {
			t.Errorf("%s: kept schema %s (%v)", tool.Name, tool.RawInputSchema, err)
		}
	}
	if string(decoded.Tools[3].RawInputSchema) != `{"type":"object","properties":{"b":{"type":"number"}}}` {
		t.Errorf("a schema that needed nothing was rewritten: %s", decoded.Tools[3].RawInputSchema)
	}
}
