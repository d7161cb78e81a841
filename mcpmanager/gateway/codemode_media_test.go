package gateway

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/codemode"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// everythingSource is the pinned server-everything from npm, over stdio.
type everythingSource struct{ npmSource }

func (everythingSource) Name() string { return "everything" }

// TestServeScriptImagesAreParts: an image a client's script returns (what
// server-everything's get-tiny-image gave it) reaches the client as an
// image part, as a direct call's does; the text leaves its base64 out.
func TestServeScriptImagesAreParts(t *testing.T) {
	cl, err := client.NewStdioMCPClient(proctest.NPM(t, "mcp-server-everything"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	if _, err := cl.Initialize(t.Context(), initAt(mcp.LATEST_PROTOCOL_VERSION)); err != nil {
		t.Fatal(err)
	}
	reg := router.New(router.Options{})
	reg.Add(everythingSource{npmSource{cl}})
	g := New(reg, Options{Code: CodeOnly})
	g.Refresh(t.Context())
	c := serveTo(t, g, nil)
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = codemode.RunScriptName, map[string]any{"script": `return await tools.everything["get-tiny-image"]({});`}
	res, err := c.CallTool(t.Context(), req)
	if err != nil || res.IsError || len(res.Content) != 2 {
		t.Fatalf("run_script = %+v, %v; want its text and the image", res, err)
	}
	text, _ := res.Content[0].(mcp.TextContent)
	img, ok := res.Content[1].(mcp.ImageContent)
	if !ok || img.MIMEType != "image/png" || len(img.Data) < 1000 {
		t.Fatalf("second part %+v, want get-tiny-image's PNG", res.Content[1])
	}
	if strings.Contains(text.Text, img.Data[:100]) || !strings.Contains(text.Text, "left out of this text") {
		t.Errorf("the text holds the base64, or no note of it: %.300s", text.Text)
	}
}
