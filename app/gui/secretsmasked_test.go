package gui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// TestWindowViewsShowSecretsMasked: a server that says its keyring secret
// wherever it can (envsrv) reaches the window's views masked — its
// instructions on the Servers page, its descriptions on the Tools page,
// a call's result and error, a prompt and a resource — now that they are
// masked at the source rather than view by view.
func TestWindowViewsShowSecretsMasked(t *testing.T) {
	const token = "SEKRIT43input-0123456789"
	dir := datadir.Dir(t.TempDir())
	if err := dir.Ensure(); err != nil {
		t.Fatal(err)
	}
	if err := secrets.NewStore().Set("envsrv_TOKEN", token); err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{Servers: []config.Server{{Name: "envsrv", Transport: config.Stdio, Command: proctest.Server(t, "envsrv"),
		Env: map[string]string{"S_INPUTKEY": "${secret:envsrv_TOKEN}"}}}}
	if _, err := config.Edit(t.Context(), dir.Config(), func(c *config.Config) error { *c = *cfg; return nil }); err != nil {
		t.Fatal(err)
	}
	a := New(context.Background(), dir)
	if err := a.h.Servers.Load(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.close(context.Background()) })
	mcptest.Until(t, "envsrv ready", func() bool { return state(a, "envsrv") == string(supervisor.Ready) })

	servers, _ := a.ServersPage.Servers()
	tools, _ := a.ToolsPage.Tools()
	res, resErr := a.ToolsPage.CallTool("envsrv__env", `{}`)
	_, failErr := a.ToolsPage.CallTool("envsrv__fail", `{}`)
	prompt, promptErr := a.ChatPage.UsePrompt("envsrv", "envprompt", nil)
	attached, attachErr := a.ChatPage.AttachResource("envsrv", "env://leak")
	read, readErr := a.Content.ReadResource("envsrv", "env://leak")
	if resErr != nil || failErr == nil || promptErr != nil || attachErr != nil || readErr != nil {
		t.Fatalf("call %v, fail %v, prompt %v, attach %v, read %v", resErr, failErr, promptErr, attachErr, readErr)
	}
	for view, v := range map[string]any{"ServersPage.Servers": servers, "ToolsPage.Tools": tools, "CallTool": res, "CallTool's error": failErr.Error(),
		"UsePrompt": prompt, "AttachResource": attached, "Content.ReadResource": read} {
		b, _ := json.Marshal(v)
		if strings.Contains(string(b), token) || !strings.Contains(string(b), "••••6789") {
			t.Errorf("%s: %.1500s; want the secret masked", view, b)
		}
	}
}
