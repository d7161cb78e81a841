package gui

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/chat/toolsearch"
	"github.com/switchboard-app/switchboard/app/host"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/library"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// whereServer is a Streamable HTTP MCP server on loopback whose one tool,
// "where", answers with its name.
func whereServer(t *testing.T, name string) string {
	t.Helper()
	s := server.NewMCPServer(name, "1.0.0")
	s.AddTool(mcp.NewTool("where", mcp.WithDescription("say which server this is"), mcp.WithReadOnlyHintAnnotation(true)),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(name), nil
		})
	srv := httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(func() {
		srv.CloseClientConnections() // the app's event stream would hold Close otherwise
		srv.Close()
	})
	return srv.URL + "/mcp"
}

func TestProfilesSwitchTheURLAServerConnectsTo(t *testing.T) {
	home, work := whereServer(t, "home-srv"), whereServer(t, "work-srv")
	api := config.Server{Name: "api", Transport: config.HTTP, URL: home}
	if err := library.SetProfile(&api, "work", library.Override{URL: work}); err != nil {
		t.Fatal(err)
	}
	a := appWith(t, []config.Server{api})
	where := func() string {
		if state(a, "api") != string(supervisor.Ready) {
			return ""
		}
		res, err := a.ToolsPage.CallTool("api__where", "{}")
		if err != nil || len(res.Content) == 0 {
			return ""
		}
		return res.Content[0].Text
	}
	mcptest.Until(t, "api at home", func() bool { return where() == "home-srv" })

	pv, err := a.ServersPage.Profiles()
	if err != nil || pv.Active != "" || len(pv.Names) != 1 || pv.Names[0] != "work" {
		t.Fatalf("profiles %+v %v", pv, err)
	}
	if err := a.ServersPage.SetProfile("work"); err != nil {
		t.Fatal(err)
	}
	mcptest.Until(t, "api at work", func() bool { return where() == "work-srv" })
	p, err := a.ServersPage.TestServer("api")
	if err != nil || !p.OK || p.ServerName != "work-srv" || len(p.Steps) != 3 || p.TotalMs <= 0 {
		t.Fatalf("test connection under work: %+v %v", p, err)
	}
	if err := a.ServersPage.SetProfile(""); err != nil {
		t.Fatal(err)
	}
	mcptest.Until(t, "api back home", func() bool { return where() == "home-srv" })
	if err := a.ServersPage.SetProfile("holiday"); err == nil || !strings.Contains(err.Error(), "work") {
		t.Fatalf("unknown profile: %v", err)
	}
}

func TestMetadataTemplatesAndUsedBy(t *testing.T) {
	home := whereServer(t, "home-srv") // first: cleanups run last first, the app must close before it
	c := newChatApp(t)
	if err := c.ServersPage.AddServerFromTemplate("github", "gh", map[string]string{"token": "not-a-token"}); err == nil || !strings.Contains(err.Error(), `parameter "token"`) {
		t.Fatalf("invalid token: %v", err)
	}
	if err := c.ServersPage.AddServerFromTemplate("filesystem", "docs", map[string]string{}); err == nil || !strings.Contains(err.Error(), "Folder is required") {
		t.Fatalf("missing folder: %v", err)
	}
	// A template declared in the config is offered and not run.
	if err := c.h.Servers.Add(config.Server{Name: "where-tmpl", Transport: config.HTTP, URL: "{{url}}",
		Extra: map[string]json.RawMessage{library.ParamsKey: json.RawMessage(`{"type":"object","properties":{"url":{"type":"string","pattern":"^http"}},"required":["url"]}`)}}); err != nil {
		t.Fatal(err)
	}
	ts, _ := c.ServersPage.Templates()
	var fromConfig *TemplateView
	for i := range ts {
		if ts[i].ID == "where-tmpl" {
			fromConfig = &ts[i]
		}
	}
	if fromConfig == nil || fromConfig.Source != "config" || len(fromConfig.Params) != 1 || len(ts) != 7 {
		t.Fatalf("templates %+v", ts)
	}
	if state(c.Window, "where-tmpl") != "" {
		t.Fatal("a template entry was started")
	}
	if err := c.ServersPage.AddServerFromTemplate("where-tmpl", "where", map[string]string{"url": home}); err != nil {
		t.Fatal(err)
	}
	mcptest.Until(t, "where ready", func() bool { return state(c.Window, "where") == string(supervisor.Ready) })

	// Metadata: edited by the user, else from initialize.
	if err := c.ServersPage.SetServerMeta("where", MetaView{Description: "Says where it runs", Tags: []string{"Network", "demo"}, Color: "#0a0"}); err != nil {
		t.Fatal(err)
	}
	if err := c.ServersPage.SetServerMeta("where", MetaView{Color: "green"}); err == nil || !strings.Contains(err.Error(), "mcpServers.where.metadata.color") {
		t.Fatalf("bad colour: %v", err)
	}
	if _, err := c.AgentsPage.SaveAgent(host.Agent{Name: "Locator", Servers: []string{"where"}}); err != nil {
		t.Fatal(err)
	}
	var v ServerView
	mcptest.Until(t, "metadata", func() bool {
		vs, _ := c.ServersPage.Servers()
		for _, x := range vs {
			if x.Name == "where" {
				v = x
			}
		}
		return v.Description == "Says where it runs"
	})
	if strings.Join(v.Meta.Tags, ",") != "network,demo" || v.Meta.Color != "#0a0" || strings.Join(v.UsedBy, ",") != "agent Locator" {
		t.Fatalf("view %+v", v)
	}
	var tags []string
	vs, _ := c.ServersPage.Servers()
	for _, x := range vs {
		for _, tag := range x.Meta.Tags {
			if !slices.Contains(tags, tag) {
				tags = append(tags, tag)
			}
		}
	}
	slices.Sort(tags)
	if strings.Join(tags, ",") != "built-in,demo,network" {
		t.Fatalf("tags %v", tags)
	}
}

func TestAgentChatDelegatesToBuiltins(t *testing.T) {
	c := newChatApp(t)
	mcptest.Until(t, "built-ins", func() bool {
		return state(c.Window, "workspace") == string(supervisor.Ready) && state(c.Window, "content-store") == string(supervisor.Ready)
	})
	ag, err := c.AgentsPage.SaveAgent(host.Agent{Name: "Librarian", System: "You keep the user's files and notes.", Servers: []string{"workspace", "content-store"}, Delegate: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.AgentsPage.SaveAgent(host.Agent{Name: "librarian"}); err == nil {
		t.Fatal("a second agent with the same name was saved")
	}
	ch, err := c.AgentsPage.NewAgentChat(ag.ID)
	if err != nil || ch.Agent != ag.ID || ch.Model != "m1" {
		t.Fatalf("chat %+v %v", ch, err)
	}
	c.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "a1", Name: "ask_workspace", Arguments: `{"query":"list the root folder"}`}}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "s1", Name: "workspace__list_directory", Arguments: `{"path":"."}`}}},
		providertest.Reply{Text: "The folder is empty."},
		providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "a2", Name: "ask_content-store", Arguments: `{"query":"list the stores"}`}}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "s2", Name: "content-store__listStores", Arguments: `{}`}}},
		providertest.Reply{Text: "There are no stores."},
		providertest.Reply{Text: "Your workspace is empty and you have no stores."},
	)
	if err := c.ChatPage.SendMessage(ch.ID, "what do I have?"); err != nil {
		t.Fatal(err)
	}
	mcptest.Until(t, "the turn", func() bool { return c.done(ch.ID) })
	reqs := c.llm.Requests()
	if len(reqs) != 7 {
		t.Fatalf("%d requests", len(reqs))
	}
	var first struct {
		Tools []struct {
			Function struct{ Name string } `json:"function"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(reqs[0], &first)
	var names []string
	for _, tl := range first.Tools {
		names = append(names, tl.Function.Name)
	}
	slices.Sort(names)
	if strings.Join(names, ",") != "ask_content-store,ask_workspace" {
		t.Fatalf("main model tools %+v", first.Tools)
	}
	if !strings.Contains(string(reqs[0]), "You keep the user's files and notes.") {
		t.Fatal("the agent's system prompt was not sent")
	}
	var nested []string
	for _, ev := range c.chatEvents() {
		if ev.Call != nil && ev.Call.Parent != "" && ev.Call.Status == chat.CallDone {
			nested = append(nested, ev.Call.Name)
		}
	}
	if strings.Join(nested, ",") != "workspace__list_directory,content-store__listStores" {
		t.Fatalf("nested steps %v", nested)
	}
	msgs, _ := c.ChatPage.ChatMessages(ch.ID)
	if last := msgs[len(msgs)-1]; last.Text != "Your workspace is empty and you have no stores." {
		t.Fatalf("last message %+v", last)
	}
}

func TestToolSearchSetting(t *testing.T) {
	c := newChatApp(t)
	v, err := c.SettingsPage.ChatSettings()
	if err != nil || v.ToolSearchBy != "size" || v.ToolSearchShare != toolsearch.DefaultShare || v.ToolSearchAbove != chat.ToolSearchThreshold || len(v.Pinned) != 0 {
		t.Fatalf("defaults %+v %v", v, err)
	}
	if err := c.SettingsPage.SetToolSearch("count", 0, 10, []string{"workspace__read_file", " "}); err != nil {
		t.Fatal(err)
	}
	s, _ := c.h.Settings.Chat()
	if s.ToolSearchAbove != 10 || strings.Join(s.Pinned, ",") != "workspace__read_file" {
		t.Fatalf("saved %+v", s)
	}
	if v, _ := c.SettingsPage.ChatSettings(); v.ToolSearchBy != "count" || v.ToolSearchAbove != 10 {
		t.Fatalf("count: %+v", v)
	}
	if err := c.SettingsPage.SetToolSearch("size", 40, 10, nil); err != nil {
		t.Fatal(err)
	}
	if s, _ := c.h.Settings.Chat(); s.ToolSearchAbove != 0 || s.ToolSearchShare != 40 {
		t.Fatalf("size is stored as %+v", s)
	}
	if err := c.SettingsPage.SetToolSearch("off", 0, 0, nil); err != nil {
		t.Fatal(err)
	}
	if v, _ := c.SettingsPage.ChatSettings(); v.ToolSearchBy != "off" {
		t.Fatalf("off: %+v", v)
	}
	if s, _ := c.h.Settings.Chat(); s.ToolSearchAbove >= 0 {
		t.Fatalf("off is stored as %d", s.ToolSearchAbove)
	}
	for _, bad := range []struct {
		by           string
		share, above int
	}{{"size", 0, 0}, {"size", 101, 0}, {"count", 25, 0}, {"sometimes", 25, 40}} {
		if err := c.SettingsPage.SetToolSearch(bad.by, bad.share, bad.above, nil); err == nil {
			t.Errorf("%+v was accepted", bad)
		}
	}
	if err := c.SettingsPage.SetToolSearch("count", 0, 5, []string{"read_file"}); err == nil || !strings.Contains(err.Error(), "server__tool") {
		t.Fatalf("bad pinned name: %v", err)
	}
}
