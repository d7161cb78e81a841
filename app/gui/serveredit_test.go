package gui

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// TestServerFormThroughTheBinding: the form's view of an entry hides a
// stored secret, a save with a stored secret untouched keeps its
// reference, problems come back by field (form) or line:column (JSON),
// and Open config file opens config.json.
func TestServerFormThroughTheBinding(t *testing.T) {
	fs := proctest.FaultServer(t)
	dir := datadir.Dir(t.TempDir())
	if err := dir.Ensure(); err != nil {
		t.Fatal(err)
	}
	a := New(context.Background(), dir)
	a.emit = func(ServerView) {}
	if err := a.h.Servers.Load(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.close(context.Background()) })

	blank, err := a.ServersPage.ServerForm("")
	if err != nil || blank.Transport != "stdio" || !blank.Enabled || blank.Base != "" || blank.ConfigPath != dir.Config() {
		t.Fatalf("blank form = %+v, %v", blank, err)
	}
	blank.Name, blank.Command = "fault", fs
	blank.Env = []KeyValueView{{Key: "TOKEN", Value: "tok-binding-0007", Secret: true}}
	res, err := a.ServersPage.SaveServerForm("", blank)
	if err != nil || !res.Saved || res.Server.State != "ready" || res.Tools == 0 {
		t.Fatalf("save = %+v, %v", res, err)
	}

	ownRef := regexp.MustCompile(`^\$\{secret:server\.[0-9a-f]{12}\.env\.TOKEN\}$`) // the server's own entry
	f, err := a.ServersPage.ServerForm("fault")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Env) != 1 || f.Env[0].Value != "" || !f.Env[0].Secret || !ownRef.MatchString(f.Env[0].SecretRef) || strings.Contains(f.JSON+f.Base, "tok-binding") {
		t.Fatalf("the form shows a stored secret: %+v", f)
	}
	// A tool left out is not counted; a name the server does not list is said.
	f.ExcludeTools = []string{" getenv ", "no_such_tool", ""}
	left, err := a.ServersPage.SaveServerForm("fault", f)
	if err != nil || left.Tools != res.Tools-1 || strings.Join(left.UnknownTools, ",") != "no_such_tool" {
		t.Fatalf("save leaving out getenv = %d tools (of %d), unknown %q, %v", left.Tools, res.Tools, left.UnknownTools, err)
	}
	if f, _ = a.ServersPage.ServerForm("fault"); strings.Join(f.ExcludeTools, ",") != "getenv,no_such_tool" {
		t.Fatalf("the form's excludeTools = %q", f.ExcludeTools)
	}
	f.Command, f.Args = "switchboard-test-no-such-command", []string{"-x", "y"}
	if res, err := a.ServersPage.SaveServerForm("fault", f); err != nil || res.Server.State != "error" || !strings.Contains(res.Server.Error, "no-such-command") {
		t.Fatalf("a save that fails to start = %+v, %v", res, err)
	}
	cfg, _ := config.Load(dir.Config())
	if s, _ := cfg.Lookup("fault"); !ownRef.MatchString(s.Env["TOKEN"]) || len(s.Args) != 2 {
		t.Fatalf("saved = %+v", s)
	}

	f, _ = a.ServersPage.ServerForm("fault")
	f.Command, f.Env = "", append(f.Env, KeyValueView{Key: "TOKEN", Value: "x"})
	probs, err := a.ServersPage.CheckServerForm("fault", f)
	if err != nil || len(probs) != 1 || probs[0].Field != "env.TOKEN" || !strings.Contains(probs[0].Message, "set twice") {
		t.Fatalf("problems = %+v, %v", probs, err)
	}
	f.Env = f.Env[:1]
	if probs, _ := a.ServersPage.CheckServerForm("fault", f); len(probs) != 1 || probs[0].Field != "command" {
		t.Fatalf("problems = %+v", probs)
	}

	res, err = a.ServersPage.SaveServerJSON("fault", "fault", "{\n  \"command\": \"x\"\n  \"args\": []\n}", f.Base)
	if err != nil || res.Saved || len(res.Problems) != 1 || res.Problems[0].Line != 3 {
		t.Fatalf("JSON with a syntax error = %+v, %v", res, err)
	}

	var opened string
	old := openInEditor
	openInEditor = func(path string) error { opened = path; return nil }
	t.Cleanup(func() { openInEditor = old })
	path, err := a.ServersPage.OpenConfigFile()
	if err != nil || path != dir.Config() || opened != path {
		t.Fatalf("OpenConfigFile = %q, %v (opened %q)", path, err, opened)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}
