package supervisor

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// Client is a ready server's MCP client. Its ListTools keeps each tool's
// input and output schema as the server sent it (RawInputSchema,
// RawOutputSchema): mcp-go decodes a schema into a struct that drops every
// JSON Schema 2020-12 keyword it has no field for ($schema, $defs, allOf,
// if/then/else, ...), and a tool relayed by 'switchboard serve' or checked
// against its schema must keep them all, $refs unresolved.
type Client struct {
	*client.Client
	schemas *rawSchemas // nil: the transport keeps none (in-process servers)
}

// ListTools implements router.Client.
func (c *Client) ListTools(ctx context.Context, req mcp.ListToolsRequest) (*mcp.ListToolsResult, error) {
	res, err := c.Client.ListTools(ctx, req)
	if err == nil && c.schemas != nil {
		c.schemas.fill(res.Tools)
	}
	return res, err
}

// CallTool implements router.Client. A server that keeps answering
// input_required past MaxInputRounds gets an error saying so; one that
// stopped during the call, the StoppedError alone (mcp-go's "transport
// error" before it adds nothing for the person reading it).
func (c *Client) CallTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	res, err := c.Client.CallTool(ctx, req)
	if errors.Is(err, client.ErrMaxInputRoundTripsExceeded) {
		return nil, roundsError(err)
	}
	if stopped := (*StoppedError)(nil); errors.As(err, &stopped) {
		return nil, stopped
	}
	return res, err
}

// rawSchemas are the schemas of the tools in the server's tools/list
// answers, by tool name, as the transport received them. Safe for
// concurrent use.
type rawSchemas struct {
	mu      sync.Mutex
	in, out map[string]json.RawMessage
}

// schemaKeeper is a transport that keeps the schemas of the tools/list
// answers it carries.
type schemaKeeper interface {
	keptSchemas() *rawSchemas
}

// note keeps the schemas of a tools/list answer, each input schema typed
// as MCP requires (wire.ObjectSchema); an answer whose schemas needed that is
// given mcp-go so repaired, which would otherwise refuse the whole list.
func (k *rawSchemas) note(req transport.JSONRPCRequest, res *transport.JSONRPCResponse) {
	if req.Method != string(mcp.MethodToolsList) || res == nil || res.Error != nil {
		return
	}
	var list struct {
		Tools []struct {
			Name         string          `json:"name"`
			InputSchema  json.RawMessage `json:"inputSchema"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		} `json:"tools"`
	}
	if json.Unmarshal(res.Result, &list) != nil {
		return // mcp-go reports the malformed answer
	}
	repaired := map[int]json.RawMessage{}
	for i, t := range list.Tools {
		if fixed, ok := wire.ObjectSchema(t.InputSchema); ok {
			list.Tools[i].InputSchema, repaired[i] = fixed, fixed
		}
	}
	if len(repaired) > 0 {
		res.Result = withInputSchemas(res.Result, repaired)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.in == nil {
		k.in, k.out = map[string]json.RawMessage{}, map[string]json.RawMessage{}
	}
	for _, t := range list.Tools {
		k.in[t.Name] = t.InputSchema
		if len(t.OutputSchema) > 0 && string(t.OutputSchema) != "null" {
			k.out[t.Name] = t.OutputSchema
		} else {
			delete(k.out, t.Name)
		}
	}
}

// fill puts the kept schemas into tools, in place of the decoded ones.
func (k *rawSchemas) fill(tools []mcp.Tool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for i := range tools {
		t := &tools[i]
		if raw, ok := k.in[t.Name]; ok && len(raw) > 0 && string(raw) != "null" {
			t.RawInputSchema, t.InputSchema = raw, mcp.ToolInputSchema{}
		}
		if raw, ok := k.out[t.Name]; ok {
			t.RawOutputSchema, t.OutputSchema = raw, mcp.ToolOutputSchema{}
		}
	}
}

// withInputSchemas is a tools/list result with the input schemas of the
// tools at the given indexes replaced; the rest as it was.
func withInputSchemas(result json.RawMessage, schemas map[int]json.RawMessage) json.RawMessage {
	var r map[string]json.RawMessage
	var tools []map[string]json.RawMessage
	if json.Unmarshal(result, &r) != nil || json.Unmarshal(r["tools"], &tools) != nil {
		return result
	}
	for i, s := range schemas {
		if i < len(tools) {
			tools[i]["inputSchema"] = s
		}
	}
	list, err := json.Marshal(tools)
	if err != nil {
		return result
	}
	r["tools"] = list
	out, err := json.Marshal(r)
	if err != nil {
		return result
	}
	return out
}
