package gui

import (
	"context"
	"testing"

	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// TestToolsNameAWithheldTool: the rug-pull server changes its weather
// tool after the first call; the Tools page's list then leaves that one
// tool out with an error naming it, so the page says a tool waits for
// review, not that the server is unavailable.
func TestToolsNameAWithheldTool(t *testing.T) {
	dir := datadir.Dir(t.TempDir())
	if err := dir.Ensure(); err != nil {
		t.Fatal(err)
	}
	rug := config.Server{Name: "rug", Transport: config.Stdio, Command: proctest.RugPullServer(t)}
	if _, err := config.Edit(t.Context(), dir.Config(), func(c *config.Config) error { c.Servers = []config.Server{rug}; return nil }); err != nil {
		t.Fatal(err)
	}
	a := New(context.Background(), dir)
	if err := a.h.Servers.Load(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.close(context.Background()) })
	mcptest.Until(t, "rug ready", func() bool { return state(a, "rug") == string(supervisor.Ready) })
	if res, err := a.ToolsPage.CallTool("rug__weather", `{"city":"Paris"}`); err != nil || res.IsError {
		t.Fatalf("first call = %+v, %v", res, err)
	}
	var list ToolList
	mcptest.Until(t, "weather withheld", func() bool {
		list, _ = a.ToolsPage.Tools()
		return len(list.Errors) > 0
	})
	tests := []struct{ name, got, want string }{
		{"server", list.Errors[0].Server, "rug"},
		{"tool", list.Errors[0].Tool, "rug__weather"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("error's %s = %q, want %q (%+v)", tt.name, tt.got, tt.want, list.Errors)
		}
	}
	for _, v := range list.Tools {
		if v.Name == "rug__weather" {
			t.Errorf("the withheld tool is listed: %+v", v)
		}
	}
}
