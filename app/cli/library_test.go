package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

func TestServersTest(t *testing.T) {
	fs := proctest.FaultServer(t)
	file := writeFile(t, "mcp.json", fmt.Sprintf(`{"mcpServers": {
		"fault": {"command": %q},
		"dies": {"command": %q, "args": ["-mode", "exit-init"]}}}`, fs, fs))
	data := t.TempDir()
	code, out, errOut := runIn(t, data, "servers", "test", "fault", "--config", file)
	if code != 0 {
		t.Fatalf("test fault: %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"start", "server/discover", "tools/list", "MCP 2026-07-28", " ms", "fault: ok in"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = runIn(t, data, "--json", "servers", "test", "dies", "--config", file)
	var p struct {
		OK     bool     `json:"ok"`
		Failed string   `json:"failed"`
		Stderr []string `json:"stderr"`
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if code != ExitRuntime || p.OK || p.Failed != "initialize" || !strings.Contains(errOut, "the initialize step failed") || !strings.Contains(strings.Join(p.Stderr, "\n"), "missing API key") {
		t.Fatalf("test dies: %d %+v %s", code, p, errOut)
	}
	if code, _, e := runIn(t, data, "servers", "test", "nope", "--config", file); code != ExitUsage || !strings.Contains(e, `no server named "nope"`) {
		t.Fatalf("unknown server: %d %s", code, e)
	}
}

func TestServersFromTemplateAndProfiles(t *testing.T) {
	data := t.TempDir()
	code, out, _ := runIn(t, data, "servers", "templates")
	if code != 0 || !strings.Contains(out, "filesystem") || !strings.Contains(out, "path*") || !strings.Contains(out, "github") {
		t.Fatalf("templates: %d %s", code, out)
	}
	// Missing and invalid parameters are usage errors naming the parameter.
	if code, _, e := runIn(t, data, "servers", "add", "docs", "--template", "filesystem"); code != ExitUsage || !strings.Contains(e, `parameter "path"`) || !strings.Contains(e, "--param") {
		t.Fatalf("missing param: %d %s", code, e)
	}
	if code, _, e := runIn(t, data, "servers", "add", "docs", "--template", "filesystem", "--param", "path=relative/dir"); code != ExitUsage || !strings.Contains(e, `"relative/dir"`) {
		t.Fatalf("invalid param: %d %s", code, e)
	}
	if code, _, e := runIn(t, data, "servers", "add", "docs", "--template", "nosuch"); code != ExitUsage || !strings.Contains(e, "no such template") {
		t.Fatalf("unknown template: %d %s", code, e)
	}
	if code, out, e := runIn(t, data, "servers", "add", "docs", "--template", "filesystem", "--param", "path=/srv/docs"); code != 0 || !strings.Contains(out, "added docs") {
		t.Fatalf("add: %d %s %s", code, out, e)
	}
	if code, out, e := runIn(t, data, "servers", "add", "gh", "--template", "github", "--param", "token=ghp_secret123"); code != 0 {
		t.Fatalf("add github: %d %s %s", code, out, e)
	}
	if code, out, _ := runIn(t, data, "servers", "list"); code != 0 || !strings.Contains(out, "TAGS") || !strings.Contains(out, "files,official") {
		t.Fatalf("servers list shows no tags: %s", out)
	}
	cfgPath := datadir.Dir(data).Config()
	raw, _ := os.ReadFile(cfgPath)
	if strings.Contains(string(raw), "ghp_secret123") || !strings.Contains(string(raw), "${secret:"+ownName(t, data, "gh", "token")+"}") || !strings.Contains(string(raw), "/srv/docs") {
		t.Fatalf("config after templates:\n%s", raw)
	}

	// Profiles: declared on a server, switched in one place.
	cfg, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	for i := range cfg.Servers {
		if cfg.Servers[i].Name == "gh" {
			cfg.Servers[i].Extra["profiles"] = json.RawMessage(`{"work": {"url": "https://github.example.com/mcp/"}}`)
		}
	}
	if _, err := config.Edit(t.Context(), cfgPath, func(c *config.Config) error { *c = *cfg; return nil }); err != nil {
		t.Fatal(err)
	}
	if code, _, e := runIn(t, data, "servers", "profile", "home"); code != ExitUsage || !strings.Contains(e, "[work]") {
		t.Fatalf("unknown profile: %d %s", code, e)
	}
	if code, _, e := runIn(t, data, "servers", "profile", "work"); code != 0 {
		t.Fatalf("profile work: %d %s", code, e)
	}
	code, out, _ = runIn(t, data, "servers", "profile")
	if code != 0 || !strings.Contains(out, "work") || !strings.Contains(out, "active") {
		t.Fatalf("profile list: %s", out)
	}
	servers, err := loadServers(&Invocation{Env: Env{Stderr: os.Stderr}, Globals: Globals{DataDir: data}}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range servers {
		if s.Name == "gh" && s.URL != "https://github.example.com/mcp/" {
			t.Fatalf("under the work profile gh connects to %s", s.URL)
		}
	}
}
