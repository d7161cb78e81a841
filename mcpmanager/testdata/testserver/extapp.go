package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"regexp"
	"strings"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

const (
	uri             = "ui://extapp/app.html"
	extAppReportURI = "test://extapp/report.csv"
)

// serveExtApp serves mode extapp: an MCP server (stdio) whose MCP App uses the 2026
// additions of ext-apps 2.x through the SDK's own App class (the bundle
// dist/src/app-with-deps.js of @modelcontextprotocol/ext-apps, whose path
// is the first argument; the example servers' apps send none of these):
// on load it asks for full screen without a user gesture; its buttons ask
// for full screen, picture-in-picture and inline, save a file
// (ui/download-file, under a name that needs sanitising), save a linked
// resource of this server, ask the model (sampling/createMessage) and close
// the app (ui/notifications/request-teardown). It writes each answer into
// its page, where the e2e test reads it.
//
// Tools: show (renders the app), torn_down (app-only: the app calls it when
// told ui/resource-teardown), hits. Resources: the app, and
// test://extapp/report.csv (the linked file).
func serveExtApp() {
	sdk := "/* no SDK bundle given */"
	if flag.NArg() > 0 {
		b, err := os.ReadFile(flag.Arg(0))
		if err != nil {
			log.Fatal(err)
		}
		sdk = classic(string(b))
	}
	var teardowns atomic.Int64
	s := server.NewMCPServer("extapp", "1.0.0", server.WithToolCapabilities(false), server.WithResourceCapabilities(false, false))
	ui := func(vis ...string) *mcp.Meta {
		m := map[string]any{"resourceUri": uri}
		if vis != nil {
			m["visibility"] = vis
		}
		return &mcp.Meta{AdditionalFields: map[string]any{"ui": m}}
	}
	show := mcp.NewTool("show", mcp.WithDescription("Show the ext-apps 2.x test app"), mcp.WithReadOnlyHintAnnotation(true))
	show.Meta = ui()
	s.AddTool(show, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("the test app is shown"), nil
	})
	tornDown := mcp.NewTool("torn_down", mcp.WithDescription("The app was told it goes away"), mcp.WithReadOnlyHintAnnotation(true))
	tornDown.Meta = ui("app")
	s.AddTool(tornDown, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		teardowns.Add(1)
		return mcp.NewToolResultText("noted"), nil
	})
	s.AddTool(mcp.NewTool("hits", mcp.WithDescription("How often torn_down was reached"), mcp.WithReadOnlyHintAnnotation(true)),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(fmt.Sprintf(`{"teardowns":%d}`, teardowns.Load())), nil
		})
	s.AddResource(mcp.NewResource(uri, "ext-apps 2.x test app", mcp.WithMIMEType("text/html;profile=mcp-app")),
		func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: "text/html;profile=mcp-app",
				Text: strings.Replace(extAppPage, "__SDK__", sdk, 1)}}, nil
		})
	s.AddResource(mcp.NewResource(extAppReportURI, "report", mcp.WithMIMEType("text/csv")),
		func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: extAppReportURI, MIMEType: "text/csv", Text: "quarter,total\nQ4,42\n"}}, nil
		})
	if err := server.ServeStdio(s); err != nil {
		log.Fatal(err)
	}
}

// classic turns the SDK's ES module bundle (no imports, one export list at
// its end) into a classic script that sets window.ExtApps.App and
// .PostMessageTransport: the app's HTML is one document, with no module to
// import from.
func classic(bundle string) string {
	i := strings.LastIndex(bundle, "export{")
	if i < 0 {
		log.Fatal("the SDK bundle has no export list")
	}
	exports := bundle[i:]
	pick := func(name string) string {
		m := regexp.MustCompile(`([A-Za-z0-9_$]+) as ` + name + `\b`).FindStringSubmatch(exports)
		if m == nil {
			log.Fatalf("the SDK bundle exports no %s", name)
		}
		return m[1]
	}
	// "</script" inside the bundle would end the inline script early.
	code := strings.ReplaceAll(bundle[:i], "</script", `<\/script`)
	return "(function(){" + code + ";window.ExtApps={App:" + pick("App") + ",PostMessageTransport:" + pick("PostMessageTransport") + "};})();"
}

const extAppPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>ext-apps 2.x test app</title>
<style>body{font:13px system-ui;margin:8px;color:var(--color-text-primary,#222)} li{margin:2px 0} button{margin:2px}</style></head>
<body><h1>Ext-apps 2.x test app</h1>
<p>Display mode: <span id="mode">?</span></p>
<div>
<button id="full">Full screen</button><button id="pip">Picture in picture</button><button id="inline">Inline</button>
<button id="download">Download report</button><button id="link">Download linked report</button>
<button id="ask">Ask the model</button><button id="close">Close the app</button>
</div>
<ul id="out"></ul>
<script>__SDK__</script>
<script>
const out = document.getElementById('out');
function report(k, v) { const li = document.createElement('li'); li.dataset.attempt = k; li.textContent = k + ': ' + v; out.appendChild(li); }
const app = new window.ExtApps.App({ name: 'extapp', version: '1.0.0' }, { availableDisplayModes: ['inline', 'fullscreen', 'pip'] });
const showMode = (ctx) => { if (ctx && ctx.displayMode) document.getElementById('mode').textContent = ctx.displayMode; };
app.onhostcontextchanged = showMode;
// Told to go away: note it on the server, then answer (the SDK answers once this resolves).
app.onteardown = async () => { await app.callServerTool({ name: 'torn_down', arguments: {} }); return {}; };
const mode = (m) => app.requestDisplayMode({ mode: m }).then((r) => report('display-' + m, r.mode), (e) => report('display-' + m, 'refused: ' + e.message));
document.getElementById('full').onclick = () => mode('fullscreen');
document.getElementById('pip').onclick = () => mode('pip');
document.getElementById('inline').onclick = () => mode('inline');
document.getElementById('download').onclick = async () => {
  try {
    const r = await app.downloadFile({ contents: [{ type: 'resource', resource: { uri: 'file:///../../.Q4 report:final.csv', mimeType: 'text/csv', text: 'quarter,total\nQ4,42\n' } }] });
    report('download', r.isError ? 'not saved' : 'saved');
  } catch (e) { report('download', 'error: ' + e.message); }
};
document.getElementById('link').onclick = async () => {
  try {
    const r = await app.downloadFile({ contents: [{ type: 'resource_link', uri: 'test://extapp/report.csv', name: 'Linked report', mimeType: 'text/csv' }] });
    report('link', r.isError ? 'not saved' : 'saved');
  } catch (e) { report('link', 'error: ' + e.message); }
};
document.getElementById('ask').onclick = async () => {
  try {
    const r = await app.createSamplingMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarise Q4 in one line.' } }], maxTokens: 50 });
    report('sampling', (r.content && r.content.text) || JSON.stringify(r.content));
  } catch (e) { report('sampling', 'error: ' + e.message); }
};
document.getElementById('close').onclick = () => { app.requestTeardown(); report('close', 'asked'); };
(async () => {
  await app.connect();
  showMode(app.getHostContext());
  const caps = app.getHostCapabilities() || {};
  report('caps', ['downloadFile', 'sampling'].filter((k) => caps[k]).join(',') || 'none');
  // No user gesture yet: the host must refuse.
  await mode('fullscreen');
  report('ready', 'yes');
})();
</script></body></html>`
