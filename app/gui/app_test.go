package gui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

func state(a *Window, name string) string {
	vs, _ := a.ServersPage.Servers()
	for _, v := range vs {
		if v.Name == name {
			return v.State
		}
	}
	return ""
}

func TestServersLifecycleThroughFacade(t *testing.T) {
	fs := proctest.FaultServer(t)
	dir := datadir.Dir(t.TempDir())
	if err := dir.Ensure(); err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{Servers: []config.Server{
		{Name: "one", Transport: config.Stdio, Command: fs},
		{Name: "two", Transport: config.Stdio, Command: fs, Args: []string{"-mode", "exit-init"}, Restart: &config.Restart{Enabled: false}},
	}}
	if _, err := config.Edit(t.Context(), dir.Config(), func(c *config.Config) error { *c = *cfg; return nil }); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var events []string
	a := New(context.Background(), dir)
	a.emit = func(v ServerView) {
		mu.Lock()
		events = append(events, v.Name+":"+v.State)
		mu.Unlock()
	}
	if err := a.h.Servers.Load(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.close(context.Background()) })
	mcptest.Until(t, "one ready", func() bool { return state(a, "one") == string(supervisor.Ready) })
	mcptest.Until(t, "two error", func() bool { return state(a, "two") == string(supervisor.Error) })

	res, err := a.ToolsPage.CallTool("one__echo", `{"text":"via facade"}`)
	if err != nil || res.IsError || res.Content[0].Text != "via facade" {
		t.Fatalf("CallTool = %+v, %v", res, err)
	}
	tl, _ := a.ToolsPage.Tools()
	if len(tl.Errors) != 1 || tl.Errors[0].Server != "two" {
		t.Errorf("tool list errors = %+v", tl.Errors)
	}

	if err := a.ServersPage.SetServerEnabled("one", false); err != nil {
		t.Fatal(err)
	}
	mcptest.Until(t, "one disabled", func() bool { return state(a, "one") == string(supervisor.Disabled) })
	saved, _ := config.Load(dir.Config())
	if s, _ := saved.Lookup("one"); !s.Disabled {
		t.Error("disabled state not saved")
	}
	mcptest.Until(t, "disabled event", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(events) > 0 && events[len(events)-1] == "one:disabled" || strings.Contains(strings.Join(events, ","), "one:disabled")
	})
	if err := a.ServersPage.SetServerEnabled("one", true); err != nil {
		t.Fatal(err)
	}
	mcptest.Until(t, "one ready again", func() bool { return state(a, "one") == string(supervisor.Ready) })
	if err := a.ServersPage.RemoveServer("two", true); err != nil {
		t.Fatal(err)
	}
	if state(a, "two") != "" {
		t.Error("removed server still listed")
	}
	if err := a.ServersPage.RemoveServer("nope", true); err == nil {
		t.Error("removing an unknown server should fail")
	}
	_ = fmt.Sprint
	_ = os.Getpid
}

// TestNothingLeaksToTheFrontend runs a server that prints its token to
// stderr and a tool that returns it, and checks every event, view and result
// the frontend gets holds it masked.
func TestNothingLeaksToTheFrontend(t *testing.T) {
	const token = "ghp_FrontendLeakCheck000042"
	dir := datadir.Dir(t.TempDir())
	if err := dir.Ensure(); err != nil {
		t.Fatal(err)
	}
	if err := secrets.NewStore().Set("gh_TOKEN", token); err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{Servers: []config.Server{{Name: "gh", Transport: config.Stdio, Command: proctest.FaultServer(t),
		Env: map[string]string{"GH_TOKEN": "${secret:gh_TOKEN}", "FAULT_LEAK": "GH_TOKEN"}}}}
	if _, err := config.Edit(t.Context(), dir.Config(), func(c *config.Config) error { *c = *cfg; return nil }); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	a := New(context.Background(), dir)
	a.emit = func(v ServerView) {
		b, _ := json.Marshal(v)
		mu.Lock()
		seen = append(seen, string(b))
		mu.Unlock()
	}
	if err := a.h.Servers.Load(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.close(context.Background()) })
	mcptest.Until(t, "gh ready", func() bool { return state(a, "gh") == string(supervisor.Ready) })
	mcptest.Until(t, "stderr line", func() bool {
		l, _ := a.ServersPage.ServerLog("gh", 10)
		return strings.Contains(strings.Join(l, "\n"), "GH_TOKEN=")
	})
	res, err := a.ToolsPage.CallTool("gh__getenv", `{"name":"GH_TOKEN"}`)
	if err != nil {
		t.Fatal(err)
	}
	views, _ := a.ServersPage.Servers()
	logLines, _ := a.ServersPage.ServerLog("gh", 10)
	list, _ := a.SettingsPage.Secrets()
	all := []any{res, views, logLines, list}
	mu.Lock()
	all = append(all, seen)
	mu.Unlock()
	b, _ := json.Marshal(all)
	if strings.Contains(string(b), token) {
		t.Fatalf("the secret reached the frontend: %s", b)
	}
	if res.Content[0].Text != "••••0042" || !strings.Contains(strings.Join(logLines, "\n"), "GH_TOKEN=••••0042") {
		t.Fatalf("masked forms missing: %+v %q", res.Content, logLines)
	}
	logFile, _ := os.ReadFile(filepath.Join(dir.Logs(), "gh.log"))
	if strings.Contains(string(logFile), token) || !strings.Contains(string(logFile), "••••0042") {
		t.Fatalf("log file: %s", logFile)
	}
}

func TestBuiltinContentStoreThroughFacade(t *testing.T) {
	dir := datadir.Dir(t.TempDir())
	if err := dir.Ensure(); err != nil {
		t.Fatal(err)
	}
	a := New(context.Background(), dir)
	a.emit = func(ServerView) {}
	a.h.Servers.StartBuiltins()
	t.Cleanup(func() { a.close(context.Background()) })
	tl, _ := a.ToolsPage.Tools()
	var names []string
	for _, tool := range tl.Tools {
		names = append(names, tool.Name)
	}
	if !strings.Contains(strings.Join(names, ","), "content-store__search") {
		t.Fatalf("tools = %v", names)
	}
	res, err := a.ToolsPage.CallTool("content-store__createStore", `{"name":"notes","description":"test"}`)
	if err != nil || res.IsError {
		t.Fatalf("createStore = %+v %v", res, err)
	}
	if entries, _ := os.ReadDir(dir.Stores()); len(entries) == 0 {
		t.Error("store not created under the data dir")
	}
}
