package mcptest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
)

// greeter is a server under test: one tool, greet, whose answer comes in two
// text parts.
func greeter() *server.MCPServer {
	s := server.NewMCPServer("greeter", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("greet", mcp.WithString("name", mcp.Required())),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				mcp.NewTextContent("Hello,"),
				mcp.NewTextContent(req.GetString("name", "") + "!"),
			}}, nil
		})
	return s
}

// TestGreet is how a package's test uses the kit: connect in process, call,
// read the joined text.
func TestGreet(t *testing.T) {
	cl := mcptest.Connect(t, greeter())
	res, text := mcptest.Call(t, cl, "greet", map[string]any{"name": "Ada"})
	if res.IsError || text != "Hello,\nAda!" {
		t.Fatalf("greet = %v %q", res.IsError, text)
	}
}

// Content finds a result's first part of a type.
func ExampleContent() {
	res := &mcp.CallToolResult{Content: []mcp.Content{
		mcp.NewTextContent("a tiny image:"),
		mcp.NewImageContent("iVBORw0KGgo=", "image/png"),
	}}
	img, ok := mcptest.Content[mcp.ImageContent](res)
	fmt.Println(img.MIMEType, ok)
	_, ok = mcptest.Content[mcp.AudioContent](res)
	fmt.Println(ok)
	// Output:
	// image/png true
	// false
}

// Text joins a result's text parts a line apart; the image is left out.
func ExampleText() {
	res := &mcp.CallToolResult{Content: []mcp.Content{
		mcp.NewTextContent("Hello,"),
		mcp.NewImageContent("iVBORw0KGgo=", "image/png"),
		mcp.NewTextContent("Ada!"),
	}}
	fmt.Println(mcptest.Text(res))
	// Output:
	// Hello,
	// Ada!
}
