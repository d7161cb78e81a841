package router

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
)

const sumSchema = `{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}`

// TestCallChecksOutputSchema: a result whose structuredContent does not
// match the tool's outputSchema (or is missing) comes back from Call as an
// error result saying so, with the content kept; a matching one and a tool
// without a schema are untouched.
func TestCallChecksOutputSchema(t *testing.T) {
	srv := server.NewMCPServer("test", "1.0.0", server.WithToolCapabilities(true))
	structured := map[string]any{
		"good":     map[string]any{"sum": 3},
		"wrong":    map[string]any{"sum": "three"},
		"missing":  nil,
		"noschema": map[string]any{"anything": true},
	}
	for name, sc := range structured {
		opts := []mcp.ToolOption{}
		if name != "noschema" {
			opts = append(opts, mcp.WithRawOutputSchema(json.RawMessage(sumSchema)))
		}
		srv.AddTool(mcp.NewTool(name, opts...), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res := mcp.NewToolResultText("text of " + name)
			if sc != nil {
				res.StructuredContent = sc
			}
			return res, nil
		})
	}
	cl := mcptest.Connect(t, srv)
	s := &src{name: "calc"}
	s.cl.Store(cl)
	r := New(Options{})
	r.Add(s)

	for _, tc := range []struct {
		tool    string
		isError bool
		msg     string // in the added text and _meta
	}{
		{"good", false, ""},
		{"noschema", false, ""},
		{"wrong", true, "does not match the tool's outputSchema"},
		{"missing", true, "returned no structuredContent"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			res, err := r.Call(t.Context(), "calc", tc.tool, nil, CallOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError != tc.isError {
				t.Fatalf("isError = %v, want %v (%+v)", res.IsError, tc.isError, res.Content)
			}
			if first := res.Content[0].(mcp.TextContent).Text; first != "text of "+tc.tool {
				t.Errorf("first content = %q, want the tool's own text kept", first)
			}
			if !tc.isError {
				if len(res.Content) != 1 || res.Meta != nil && res.Meta.AdditionalFields[MetaOutputSchemaError] != nil {
					t.Errorf("a valid result was changed: %+v", res)
				}
				return
			}
			note := res.Content[len(res.Content)-1].(mcp.TextContent).Text
			meta, _ := res.Meta.AdditionalFields[MetaOutputSchemaError].(string)
			if !strings.Contains(note, tc.msg) || !strings.HasPrefix(note, "calc: "+tc.tool+":") || meta != note {
				t.Errorf("note %q, _meta %q; want both naming the server, tool and %q", note, meta, tc.msg)
			}
			if tc.tool == "wrong" && res.StructuredContent == nil {
				t.Error("the structured content was dropped; the window shows it")
			}
		})
	}
}

// TestCheckOutput: the check itself, for schemas sent raw or parsed, and
// results it must leave alone.
func TestCheckOutput(t *testing.T) {
	raw := mcp.Tool{Name: "raw", RawOutputSchema: json.RawMessage(sumSchema)}
	parsed := mcp.Tool{Name: "parsed", OutputSchema: mcp.ToolOutputSchema{Type: "object", Properties: map[string]any{"sum": map[string]any{"type": "number"}}, Required: []string{"sum"}}}
	broken := mcp.Tool{Name: "broken", RawOutputSchema: json.RawMessage(`{"type": 12}`)}
	ok := func(v any) *mcp.CallToolResult { return &mcp.CallToolResult{StructuredContent: v} }
	for _, tc := range []struct {
		name string
		tool mcp.Tool
		res  *mcp.CallToolResult
		bad  bool
	}{
		{"raw match", raw, ok(map[string]any{"sum": 1.5}), false},
		{"raw mismatch", raw, ok(map[string]any{"sum": "x"}), true},
		{"raw missing required", raw, ok(map[string]any{}), true},
		{"parsed match", parsed, ok(map[string]any{"sum": 2}), false},
		{"parsed mismatch", parsed, ok([]any{1}), true},
		{"struct content", raw, ok(struct {
			Sum int `json:"sum"`
		}{4}), false},
		{"error result", raw, &mcp.CallToolResult{IsError: true}, false},
		{"no schema", mcp.Tool{Name: "plain"}, ok("anything"), false},
		{"schema that does not compile", broken, ok(1), false},
		{"nil result", raw, nil, false},
	} {
		if err := CheckOutput(tc.tool, tc.res); (err != nil) != tc.bad {
			t.Errorf("%s: CheckOutput = %v, want error %v", tc.name, err, tc.bad)
		}
	}
}
