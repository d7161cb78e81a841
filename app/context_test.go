package app

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// everythingApp is an App running the real server-everything from npm.
func everythingApp(t *testing.T) *App {
	t.Helper()
	bin, err := filepath.Abs("../mcpmanager/testdata/npm/node_modules/.bin/mcp-server-everything")
	if err != nil {
		t.Fatal(err)
	}
	dir := datadir.Dir(t.TempDir())
	if err := dir.Ensure(); err != nil {
		t.Fatal(err)
	}
	if err := config.Save(dir.Config(), &config.Config{Servers: []config.Server{{Name: "everything", Transport: config.Stdio, Command: bin}}}); err != nil {
		t.Fatal(err)
	}
	a := New(context.Background(), dir)
	a.emitHook = func(string, any) {}
	a.emit = func(ServerView) {}
	if err := a.loadServers(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.close(context.Background()) })
	waitFor(t, "everything ready (run 'make test-go' to install the npm test servers)", func() bool {
		return state(a, "everything") == string(supervisor.Ready)
	})
	return a
}

func TestPromptsAndResourcesOfARealServer(t *testing.T) {
	a := everythingApp(t)
	ps, err := a.Prompts()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(ps, func(p PromptView) bool { return p.Name == "args-prompt" })
	if i < 0 || ps[i].Server != "everything" || len(ps[i].Arguments) != 2 || !ps[i].Arguments[0].Required {
		t.Fatalf("prompts %+v", ps)
	}
	text, err := a.UsePrompt("everything", "args-prompt", map[string]string{"city": "Lisbon"})
	if err != nil || text != "What's weather in Lisbon?" {
		t.Fatalf("UsePrompt = %q, %v", text, err)
	}
	if _, err := a.UsePrompt("everything", "no-such-prompt", nil); err == nil {
		t.Fatal("an unknown prompt gave no error")
	}

	rs, err := a.Resources()
	if err != nil || len(rs) == 0 {
		t.Fatalf("resources %v, %v", rs, err)
	}
	var doc ResourceView
	for _, r := range rs {
		if strings.HasPrefix(r.MIMEType, "text/") {
			doc = r
			break
		}
	}
	if doc.URI == "" {
		t.Fatalf("no text resource in %+v", rs)
	}
	block, err := a.AttachResource("everything", doc.URI)
	if err != nil || !strings.HasPrefix(block, "<resource uri=\""+doc.URI+"\" server=\"everything\">\n") || len(block) < 60 {
		t.Fatalf("AttachResource = %q, %v", block, err)
	}
}
