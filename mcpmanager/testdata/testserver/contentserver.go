package main

import (
	"context"
	"encoding/json"
	"log"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Icons are SVGs in data: URLs: a green disc for the server, an orange
// square for tools, and the like.
const (
	serverIcon = "data:image/svg+xml;base64,PHN2ZyB4bWxucz0naHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmcnIHZpZXdCb3g9JzAgMCAxNiAxNic+PGNpcmNsZSBjeD0nOCcgY3k9JzgnIHI9JzcnIGZpbGw9JyMxYTkzNmYnLz48L3N2Zz4="
	toolIcon   = "data:image/svg+xml;base64,PHN2ZyB4bWxucz0naHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmcnIHZpZXdCb3g9JzAgMCAxNiAxNic+PHJlY3QgeD0nMicgeT0nMicgd2lkdGg9JzEyJyBoZWlnaHQ9JzEyJyByeD0nMycgZmlsbD0nI2U4NmExNycvPjwvc3ZnPg=="
)

// sumSchema is the outputSchema of both sum tools.
const sumSchema = `{"type":"object","properties":{"sum":{"type":"number"},"terms":{"type":"array","items":{"type":"number"}}},"required":["sum","terms"]}`

// serveContentServer serves mode contentserver: an MCP server over stdio for the window's tests
// of what servers show besides text: icons (data: sources on the server,
// its tools, a prompt and a resource, plus sources the window must not
// use), a resource link, and structured output both matching and not
// matching the tool's outputSchema.
func serveContentServer() {
	s := server.NewMCPServer("content-test", "1.0.0",
		server.WithIcons(mcp.Icon{Src: "http://127.0.0.1:1/never.png"}, mcp.Icon{Src: serverIcon, MIMEType: "image/svg+xml"}),
		server.WithToolCapabilities(false), server.WithResourceCapabilities(false, false), server.WithPromptCapabilities(false))

	s.AddTool(mcp.NewTool("sum", mcp.WithDescription("Adds numbers; the structured result matches its outputSchema"),
		mcp.WithToolIcons(mcp.Icon{Src: toolIcon, MIMEType: "image/svg+xml"}), mcp.WithRawOutputSchema(json.RawMessage(sumSchema))),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res := mcp.NewToolResultText(`{"sum":6,"terms":[1,2,3]}`)
			res.StructuredContent = map[string]any{"sum": 6, "terms": []any{1, 2, 3}}
			return res, nil
		})
	s.AddTool(mcp.NewTool("broken_sum", mcp.WithDescription("Adds numbers, but its structured result breaks its outputSchema"),
		mcp.WithToolIcons(mcp.Icon{Src: "file:///etc/icon.png"}), mcp.WithRawOutputSchema(json.RawMessage(sumSchema))),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res := mcp.NewToolResultText(`{"sum":"six"}`)
			res.StructuredContent = map[string]any{"sum": "six"}
			return res, nil
		})
	s.AddTool(mcp.NewTool("report", mcp.WithDescription("Writes a report and links to it")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				mcp.NewTextContent("The report is ready."),
				mcp.ResourceLink{Type: "resource_link", URI: "report://2026/q3", Name: "q3-report", Title: "Q3 report", Description: "Quarterly numbers", MIMEType: "text/markdown"},
			}}, nil
		})
	s.AddResource(mcp.NewResource("report://2026/q3", "q3-report", mcp.WithMIMEType("text/markdown"),
		mcp.WithResourceIcons(mcp.Icon{Src: toolIcon})),
		func(_ context.Context, r mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: r.Params.URI, MIMEType: "text/markdown", Text: "# Q3 report\n\nRevenue grew 12%."}}, nil
		})
	s.AddPrompt(mcp.NewPrompt("summarize", mcp.WithPromptDescription("Summarize the report"), mcp.WithPromptIcons(mcp.Icon{Src: serverIcon})),
		func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult("summary", []mcp.PromptMessage{mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("Summarize the Q3 report."))}), nil
		})
	if err := server.ServeStdio(s); err != nil {
		log.Fatal(err)
	}
}
