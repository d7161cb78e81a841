package gui

import (
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// contentApp is a Window running the testserver in mode contentserver
// (icons, a resource link, structured output).
func contentApp(t *testing.T) *Window {
	t.Helper()
	bin := proctest.Server(t, "contentserver")
	a := appWith(t, []config.Server{{Name: "content", Transport: config.Stdio, Command: bin}})
	mcptest.Until(t, "content ready", func() bool { return state(a, "content") == string(supervisor.Ready) })
	return a
}

// TestIconsInViews: the server's, tools', prompts' and resources' icons
// reach the views as data: URLs when usable (an http: or file: source is
// skipped), and Content.Icon serves only sources a view named.
func TestIconsInViews(t *testing.T) {
	a := contentApp(t)
	servers, err := a.ServersPage.Servers()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(servers, func(v ServerView) bool { return v.Name == "content" })
	if i < 0 || !strings.HasPrefix(servers[i].Icon, "data:image/svg+xml;base64,") {
		t.Fatalf("server icon = %q, want the data: SVG (the http: one skipped)", servers[i].Icon)
	}
	tools, err := a.ToolsPage.Tools()
	if err != nil {
		t.Fatal(err)
	}
	icon := map[string]string{}
	for _, tl := range tools.Tools {
		icon[tl.Tool] = tl.Icon
	}
	if !strings.HasPrefix(icon["sum"], "data:image/svg+xml;base64,") || icon["broken_sum"] != "" || icon["report"] != "" {
		t.Errorf("tool icons = %v; want sum's data: SVG, none for broken_sum (file:) and report", icon)
	}
	prompts, err := a.ChatPage.Prompts()
	if err != nil || len(prompts) != 1 || !strings.HasPrefix(prompts[0].Icon, "data:image/svg+xml") {
		t.Errorf("prompts = %+v, %v; want summarize with its icon", prompts, err)
	}
	resources, err := a.ChatPage.Resources()
	if err != nil || len(resources) != 1 || !strings.HasPrefix(resources[0].Icon, "data:image/svg+xml") {
		t.Errorf("resources = %+v, %v; want the report with its icon", resources, err)
	}
	if got, err := a.Content.Icon(icon["sum"]); err != nil || got != icon["sum"] {
		t.Errorf("Icon(sum's icon) = %.40q, %v", got, err)
	}
	for _, src := range []string{"https://example.com/tracker.png", "file:///etc/icon.png", "http://127.0.0.1:1/never.png"} {
		if _, err := a.Content.Icon(src); err == nil {
			t.Errorf("Icon(%q) was served; only sources a view named are", src)
		}
	}
}

// TestStructuredOutputAndLinks: a structured result matching the tool's
// outputSchema comes through as is; one that does not is an error with the
// reason in schemaError; a resource link's chip data is there and the
// resource it names reads.
func TestStructuredOutputAndLinks(t *testing.T) {
	a := contentApp(t)
	good, err := a.ToolsPage.CallTool("content__sum", "{}")
	if err != nil || good.IsError || good.SchemaError != "" || good.Structured != `{"sum":6,"terms":[1,2,3]}` {
		t.Fatalf("sum = %+v, %v", good, err)
	}
	bad, err := a.ToolsPage.CallTool("content__broken_sum", "{}")
	if err != nil || !bad.IsError || !strings.Contains(bad.SchemaError, "does not match the tool's outputSchema") || bad.Structured != `{"sum":"six"}` {
		t.Fatalf("broken_sum = %+v, %v; want an error with schemaError and the content kept", bad, err)
	}
	tools, _ := a.ToolsPage.Tools()
	i := slices.IndexFunc(tools.Tools, func(v ToolView) bool { return v.Tool == "sum" })
	if i < 0 || !strings.Contains(tools.Tools[i].OutputSchema, `"required":["sum","terms"]`) {
		t.Errorf("sum's outputSchema in the view = %+v", tools.Tools[i])
	}

	rep, err := a.ToolsPage.CallTool("content__report", "{}")
	if err != nil || len(rep.Content) != 2 {
		t.Fatalf("report = %+v, %v", rep, err)
	}
	link := rep.Content[1]
	if link.Type != "resource_link" || link.URI != "report://2026/q3" || link.Title != "Q3 report" || link.Name != "q3-report" || link.MIMEType != "text/markdown" {
		t.Fatalf("link = %+v", link)
	}
	read, err := a.Content.ReadResource("content", link.URI)
	if err != nil || len(read.Contents) != 1 || !strings.Contains(read.Contents[0].Text, "Revenue grew 12%") {
		t.Fatalf("ReadResource = %+v, %v", read, err)
	}
	if _, err := a.Content.ReadResource("content", "report://none"); err == nil {
		t.Error("reading a resource that does not exist gave no error")
	}
}
