package gateway

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/apps"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// serve passes MCP Apps through: the real example server
// (@modelcontextprotocol/server-basic-vanillajs, pinned under
// mcpmanager/apps/testdata/npm) is listed with its _meta.ui, the ui://
// resource it names is published under the server's prefix, and reading
// it reaches the server and returns the app's HTML.
func TestServePassesAppsThrough(t *testing.T) {
	bin, err := filepath.Abs(filepath.Join("..", "apps", "testdata", "npm", "node_modules", ".bin", "mcp-server-basic-vanillajs"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%v: install the test servers with 'make test-go' (npm ci in mcpmanager/apps/testdata/npm)", err)
	}
	up, err := client.NewStdioMCPClient(bin, nil, "--stdio")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { up.Close() })
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.Capabilities.Extensions = map[string]any{apps.Extension: apps.Capability()}
	if _, err := up.Initialize(t.Context(), init); err != nil {
		t.Fatal(err)
	}
	reg := router.New(router.Options{})
	reg.Add(named{"clock", up})
	g := New(reg, Options{Version: "test"})
	ctx, cancel := context.WithCancel(t.Context())
	g.Refresh(ctx)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- g.ServeStdio(ctx, inR, outW)
		outW.Close()
	}()
	c := caller(t, inW, bufio.NewReader(outR))
	t.Cleanup(func() {
		c.Close()
		inW.Close()
		cancel()
		<-served
	})

	const want = "ui://clock/get-time/mcp-app.html"
	tools, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var tool *mcp.Tool
	for i := range tools.Tools {
		if tools.Tools[i].Name == "clock__get-time" {
			tool = &tools.Tools[i]
		}
	}
	if tool == nil {
		t.Fatalf("clock__get-time not listed: %+v", tools.Tools)
	}
	if got := apps.ToolUI(*tool).ResourceURI; got != want {
		t.Errorf("listed _meta.ui.resourceUri = %q, want %q (meta %+v)", got, want, tool.Meta)
	}

	res, err := c.ListResources(t.Context(), mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	listed := false
	for _, r := range res.Resources {
		listed = listed || (r.URI == want && r.MIMEType == apps.MIMEType)
	}
	if !listed {
		t.Errorf("resources/list lacks %s: %+v", want, res.Resources)
	}

	rctx, rcancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer rcancel()
	read := mcp.ReadResourceRequest{}
	read.Params.URI = want
	got, err := c.ReadResource(rctx, read)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Contents) != 1 {
		t.Fatalf("%d contents", len(got.Contents))
	}
	tc, ok := got.Contents[0].(mcp.TextResourceContents)
	if !ok || tc.URI != want || !strings.HasPrefix(tc.MIMEType, apps.MIMEType) || !strings.Contains(tc.Text, `id="get-time-btn"`) {
		t.Errorf("read %s = %T %q %q (%d bytes of HTML)", want, got.Contents[0], tc.URI, tc.MIMEType, len(tc.Text))
	}

	// A ui:// URI Switchboard did not publish is not read from any server.
	read.Params.URI = "ui://get-time/mcp-app.html"
	if _, err := c.ReadResource(rctx, read); err == nil {
		t.Error("the server's own, unprefixed URI was read")
	}
}
