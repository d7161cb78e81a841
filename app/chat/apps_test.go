package chat_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

// An MCP App's own tools (_meta.ui.visibility ["app"]) never reach the
// model: not in the plain tool list, not through find_tools, not to a
// delegated sub-agent; and a model naming one anyway gets no call.
func TestAppOnlyToolsNeverReachTheModel(t *testing.T) {
	const secret = "refresh_dashboard_app_only"
	for _, tc := range []struct {
		name    string
		turn    func(*chat.Turn)
		replies []providertest.Reply
	}{
		{"plain", nil, []providertest.Reply{
			{ToolCalls: []providertest.ToolCall{call("c1", "dash__"+secret, `{}`)}},
			{Text: "done"},
		}},
		{"find_tools", func(tn *chat.Turn) { tn.SearchAbove = 1 }, []providertest.Reply{
			{ToolCalls: []providertest.ToolCall{call("f1", chat.FindToolsName, `{"query":"refresh dashboard"}`)}},
			{Text: "done"},
		}},
		{"delegated", func(tn *chat.Turn) { tn.Delegate = true }, []providertest.Reply{
			{ToolCalls: []providertest.ToolCall{call("a1", "ask_dash", `{"query":"refresh the dashboard"}`)}},
			{Text: "nothing to refresh with"},
			{Text: "done"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, provider.KindOpenAI, nil)
			reg := testServer(t, nil)
			s := server.NewMCPServer("dash", "1")
			show := mcp.NewTool("show", mcp.WithDescription("show the dashboard"), mcp.WithReadOnlyHintAnnotation(true))
			show.Meta = &mcp.Meta{AdditionalFields: map[string]any{"ui": map[string]any{"resourceUri": "ui://dash/app.html"}}}
			hidden := mcp.NewTool(secret, mcp.WithDescription("refresh dashboard data"), mcp.WithReadOnlyHintAnnotation(true))
			hidden.Meta = &mcp.Meta{AdditionalFields: map[string]any{"ui": map[string]any{"resourceUri": "ui://dash/app.html", "visibility": []any{"app"}}}}
			ran := false
			s.AddTool(show, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText("ok"), nil
			})
			s.AddTool(hidden, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				ran = true
				return mcp.NewToolResultText("refreshed"), nil
			})
			addInProcess(t, reg, "dash", s)
			f.eng.SetTools(reg)
			f.llm.Enqueue(tc.replies...)
			mods := []func(*chat.Turn){}
			if tc.turn != nil {
				mods = append(mods, tc.turn)
			}
			if _, err := f.send(t.Context(), "refresh the dashboard", mods...); err != nil {
				t.Fatal(err)
			}
			reqs := f.llm.Requests()
			if len(reqs) < 2 {
				t.Fatalf("%d model requests", len(reqs))
			}
			sawShow := false
			for i, r := range reqs {
				body := string(r)
				// The name may appear only as the model's own call, echoed back.
				if strings.Contains(strings.ReplaceAll(body, `"dash__`+secret+`"`, ""), "refresh dashboard data") {
					t.Errorf("request %d offers the app-only tool: %s", i, body)
				}
				names, _ := offered(t, r)
				for _, n := range names {
					if strings.Contains(n, secret) {
						t.Errorf("request %d offers %s", i, n)
					}
					sawShow = sawShow || n == "dash__show"
				}
			}
			if tc.name == "plain" && !sawShow {
				t.Error("the model-visible tool of the same server was not offered")
			}
			if ran {
				t.Error("the app-only tool ran on the model's call")
			}
		})
	}
}
