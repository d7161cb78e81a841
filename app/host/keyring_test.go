package host

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
)

// onDisk is config.json and its backup as one text, for "no copy stays".
func onDisk(t *testing.T, h *Host) string {
	t.Helper()
	cur, err := os.ReadFile(h.dir.Config())
	if err != nil {
		t.Fatal(err)
	}
	bak, _ := os.ReadFile(h.dir.Config() + config.BackupSuffix)
	return string(cur) + "\n" + string(bak)
}

// resolved is one configured server as it would start now.
func resolved(t *testing.T, h *Host, name string) (env map[string]string, headers map[string]string, args []string, startErr string) {
	t.Helper()
	cfg, err := h.readConfig()
	if err != nil {
		t.Fatal(err)
	}
	s, ok := cfg.Lookup(name)
	if !ok {
		t.Fatalf("no server %q in %+v", name, cfg.Servers)
	}
	c := h.Servers.prepared(cfg, s)
	if c.Remote != nil {
		headers = c.Remote.Headers
	}
	return c.Env, headers, c.Args, c.StartError
}

func importText(t *testing.T, h *Host, name, text string, inputs map[string]string) ImportResult {
	t.Helper()
	res, err := h.ServerFiles.Import(context.Background(), ImportRequest{Name: name, Data: []byte(text), Inputs: inputs})
	if err != nil {
		t.Fatalf("import %s: %v", name, err)
	}
	return res
}

const vscodeWithPassword = `{
  "inputs": [
    {"type": "promptString", "id": "docs-token", "description": "Docs API token", "password": true},
    {"type": "promptString", "id": "ai-key", "description": "AI key"}
  ],
  "servers": {
    "docs": {"type": "http", "url": "https://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer ${input:docs-token}"}},
    "cli": {"command": "/nonexistent/cli", "args": ["--token=${input:docs-token}"], "env": {"OPENAI_API_KEY": "${input:ai-key}"}}
  }
}`

// A VS Code password input typed during import goes to the keyring,
// whatever the string around it (a header, an argument), and a plain input
// whose value looks like a key is found after it is put in.
func TestImportKeepsPasswordInputsInTheKeyring(t *testing.T) {
	const token, key = "docs-0123456789-token", "sk-proj-abcdefghijklmnop"
	h := open(t)
	if err := h.Servers.Add(config.Server{Name: "before", Transport: config.Stdio, Command: "x"}); err != nil {
		t.Fatal(err) // so the import's save keeps a previous version as .bak
	}
	preview, err := h.ServerFiles.Import(context.Background(), ImportRequest{Name: "mcp.json", Data: []byte(vscodeWithPassword), DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	where := map[string]string{}
	for _, m := range preview.Moves {
		where[m.Server] = m.Field
	}
	if where["docs"] != "headers.Authorization" || where["cli"] != "args[0]" {
		t.Fatalf("the preview does not say where each password input goes: %+v", preview.Moves)
	}
	importText(t, h, "mcp.json", vscodeWithPassword, map[string]string{"docs-token": token, "ai-key": key})
	disk := onDisk(t, h)
	for _, v := range []string{token, key} {
		if strings.Contains(disk, v) {
			t.Fatalf("config.json or its backup holds %q:\n%s", v, disk)
		}
	}
	if !strings.Contains(disk, `"Authorization": "Bearer ${secret:server.`) || !strings.Contains(disk, `"--token=${secret:server.`) {
		t.Fatalf("the references are not inside the header and the argument:\n%s", disk)
	}
	_, headers, _, serr := resolved(t, h, "docs")
	if headers["Authorization"] != "Bearer "+token || serr != "" {
		t.Fatalf("docs starts with %q (%s)", headers["Authorization"], serr)
	}
	env, _, args, serr := resolved(t, h, "cli")
	if args[0] != "--token="+token || env["OPENAI_API_KEY"] != key || serr != "" {
		t.Fatalf("cli starts with %v %v (%s)", args, env, serr)
	}
	list, err := h.Secrets.InUse()
	if err != nil || len(list) != 3 {
		t.Fatalf("secrets list = %+v, %v; want the two password copies and the key", list, err)
	}
}

// Ticking Secret on a value kept in plaintext leaves no copy in
// config.json.bak (the save's previous version).
func TestMovingAValueToTheKeyringLeavesNoBackupCopy(t *testing.T) {
	const token = "ghp_plaintextfirst0123456789"
	h := open(t)
	srv := config.Server{Name: "gh", Transport: config.Stdio, Command: "/nonexistent/gh", Env: map[string]string{"GITHUB_TOKEN": token}}
	if _, err := h.Servers.Save(context.Background(), ServerEdit{Server: srv}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(onDisk(t, h), token) {
		t.Fatal("the first save should keep the value in plaintext: the user did not tick Secret")
	}
	if _, err := h.Servers.Save(context.Background(), ServerEdit{Old: "gh", Server: srv, Secrets: map[string]string{"env.GITHUB_TOKEN": token}}); err != nil {
		t.Fatal(err)
	}
	if disk := onDisk(t, h); strings.Contains(disk, token) {
		t.Fatalf("a copy stayed behind:\n%s", disk)
	}
}

// 'servers add --env' follows the import's rule (Detect).
func TestSaveDetectMovesSecretsLikeAnImport(t *testing.T) {
	const token = "ghp_addedonthecommandline0123"
	h := open(t)
	srv := config.Server{Name: "gh", Transport: config.Stdio, Command: "/nonexistent/gh", Env: map[string]string{"GITHUB_TOKEN": token, "LOG_LEVEL": "debug"}}
	if _, err := h.Servers.Save(context.Background(), ServerEdit{Server: srv, Detect: true}); err != nil {
		t.Fatal(err)
	}
	if disk := onDisk(t, h); strings.Contains(disk, token) || !strings.Contains(disk, `"LOG_LEVEL": "debug"`) {
		t.Fatalf("config.json:\n%s", disk)
	}
	if env, _, _, serr := resolved(t, h, "gh"); env["GITHUB_TOKEN"] != token || serr != "" {
		t.Fatalf("gh starts with %v (%s)", env, serr)
	}
}

// "my server" and "my_server" were one keyring name: the second import
// overwrote the first's token.
func TestServersWhoseNamesCollideKeepTwoSecrets(t *testing.T) {
	h := open(t)
	importText(t, h, "a.json", `{"mcpServers": {"my server": {"command": "/nonexistent/a", "env": {"GITHUB_TOKEN": "ghp_AAAAAAAAAAAAAAAAAAAAAA"}}}}`, nil)
	importText(t, h, "b.json", `{"mcpServers": {"my_server": {"command": "/nonexistent/b", "env": {"GITHUB_TOKEN": "ghp_BBBBBBBBBBBBBBBBBBBBBB"}}}}`, nil)
	a, _, _, _ := resolved(t, h, "my server")
	b, _, _, _ := resolved(t, h, "my_server")
	if a["GITHUB_TOKEN"] != "ghp_AAAAAAAAAAAAAAAAAAAAAA" || b["GITHUB_TOKEN"] != "ghp_BBBBBBBBBBBBBBBBBBBBBB" {
		t.Fatalf("my server got %q, my_server got %q", a["GITHUB_TOKEN"], b["GITHUB_TOKEN"])
	}
	if secrets.ProviderName("openai") == secrets.ServerName("openai", "API_KEY") || oauth.KeyFor("my server") == oauth.KeyFor("my_server") {
		t.Fatal("provider, server and login names still collide")
	}
}

// A renamed server keeps its secrets: they are named by its id.
func TestRenameKeepsTheSecrets(t *testing.T) {
	h := open(t)
	importText(t, h, "a.json", `{"mcpServers": {"gh": {"command": "/nonexistent/gh", "env": {"GITHUB_TOKEN": "ghp_renamedkeepsit01234"}}}}`, nil)
	cfg, _ := h.readConfig()
	s, _ := cfg.Lookup("gh")
	s.Name = "github"
	if _, err := h.Servers.Save(context.Background(), ServerEdit{Old: "gh", Server: s}); err != nil {
		t.Fatal(err)
	}
	if env, _, _, serr := resolved(t, h, "github"); env["GITHUB_TOKEN"] != "ghp_renamedkeepsit01234" || serr != "" {
		t.Fatalf("after the rename: %v (%s)", env, serr)
	}
}

// Removing a server can delete its secrets, and a new server of the same
// name never inherits them: not by its name, not by naming the old entry.
func TestRemovedServersSecretsAreNotInherited(t *testing.T) {
	const token = "ghp_removedserver0123456789"
	h := open(t)
	importText(t, h, "a.json", `{"mcpServers": {"gh": {"command": "/nonexistent/gh", "env": {"GITHUB_TOKEN": "`+token+`"}}}}`, nil)
	cfg, _ := h.readConfig()
	old, _ := cfg.Lookup("gh")
	ref := old.Env["GITHUB_TOKEN"]
	names, err := h.Servers.SecretsOf("gh")
	if err != nil || len(names) != 1 {
		t.Fatalf("SecretsOf = %v, %v", names, err)
	}
	if err := h.Servers.RemoveWith("gh", true); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Secrets.Get(names[0]); !errors.Is(err, secrets.ErrNotFound) {
		t.Fatalf("the secret is still in the keyring: %v", err)
	}
	importText(t, h, "b.json", `{"mcpServers": {"gh": {"command": "/nonexistent/gh", "env": {"GITHUB_TOKEN": "`+ref+`"}}}}`, nil)
	if env, _, _, _ := resolved(t, h, "gh"); env["GITHUB_TOKEN"] == token {
		t.Fatal("the new gh inherited the removed one's token")
	}

	// Kept in the keyring by choice: still not the new server's.
	importText(t, h, "c.json", `{"mcpServers": {"kept": {"command": "/nonexistent/k", "env": {"GITHUB_TOKEN": "`+token+`"}}}}`, nil)
	cfg, _ = h.readConfig()
	k, _ := cfg.Lookup("kept")
	if err := h.Servers.RemoveWith("kept", false); err != nil {
		t.Fatal(err)
	}
	importText(t, h, "d.json", `{"mcpServers": {"kept": {"command": "/nonexistent/k", "env": {"GITHUB_TOKEN": "`+k.Env["GITHUB_TOKEN"]+`"}}}}`, nil)
	if env, _, _, serr := resolved(t, h, "kept"); env["GITHUB_TOKEN"] == token || serr == "" {
		t.Fatalf("the new kept got %v (%q)", env, serr)
	}
}

// A config.json of an older version (no scope, no ids, entries named
// <server>_<VAR> and oauth.<server> at the top of the keyring) keeps
// working: its entries are carried over when it is opened.
func TestOpenCarriesOldEntriesOver(t *testing.T) {
	legacy := secrets.NewStore()
	for name, v := range map[string]string{
		"weather_API_KEY":         "legacy-weather-0001",
		"provider_openai_API_KEY": "sk-legacy-provider-0002",
		"oauth.remote":            `{"access_token":"legacy-login"}`,
	} {
		if err := legacy.Set(name, v); err != nil {
			t.Fatal(err)
		}
	}
	old := `{
  "mcpServers": {
    "weather": {"command": "/nonexistent/weather", "env": {"API_KEY": "${secret:weather_API_KEY}"}},
    "remote": {"url": "https://127.0.0.1:9/mcp"}
  },
  "settings": {"secrets": ["provider_openai_API_KEY", "weather_API_KEY"],
    "chat": {"providers": [{"name": "openai", "kind": "openai", "apiKey": "${secret:provider_openai_API_KEY}"}]}}
}`
	for range 2 { // two data dirs upgraded from one account's entries
		dir := datadir.Dir(t.TempDir())
		if err := os.WriteFile(dir.Config(), []byte(old), 0o600); err != nil {
			t.Fatal(err)
		}
		h := Open(Options{Dir: dir})
		defer h.Close(context.Background())
		cfg, err := h.readConfig()
		if err != nil {
			t.Fatal(err)
		}
		if secrets.ScopeOf(cfg.Settings) == "" || !secrets.ValidID(cfg.Servers[0].ID) {
			t.Fatalf("not upgraded: %+v", cfg)
		}
		if env, _, _, serr := resolved(t, h, "weather"); env["API_KEY"] != "legacy-weather-0001" || serr != "" {
			t.Fatalf("weather after the upgrade: %v (%s)", env, serr)
		}
		if v, err := h.Secrets.Lookup("secret", "provider_openai_API_KEY"); err != nil || v != "sk-legacy-provider-0002" {
			t.Fatalf("the provider key: %q, %v", v, err)
		}
		if v, err := h.store.Get(oauth.KeyFor("remote")); err != nil || !strings.Contains(v, "legacy-login") {
			t.Fatalf("the login: %q, %v", v, err)
		}
		if h.store.Scope() == "" {
			t.Fatal("the store is not scoped")
		}
	}
}

// An input with a "default" (VS Code's) needs no value: the import takes
// the default, in the preview and on disk; a value given wins.
func TestImportInputDefaults(t *testing.T) {
	const file = `{
  "inputs": [
    {"type": "promptString", "id": "region", "default": "eu-west-1"},
    {"type": "pickString", "id": "mode", "options": ["ro", "rw"], "default": "ro"}
  ],
  "servers": {"s": {"command": "/nonexistent/s", "args": ["--region=${input:region}", "--mode=${input:mode}"]}}
}`
	h := open(t)
	given := map[string]string{"mode": "rw"}
	dry, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: "mcp.json", Data: []byte(file), DryRun: true, Inputs: given})
	if err != nil {
		t.Fatal(err)
	}
	if got := dry.Plan.Items[0].Incoming.Args; strings.Join(got, " ") != "--region=eu-west-1 --mode=rw" {
		t.Errorf("preview args %q", got)
	}
	if _, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: "mcp.json", Data: []byte(file)}); err != nil {
		t.Fatal(err)
	}
	s, _ := h.Servers.Get("s")
	if strings.Join(s.Args, " ") != "--region=eu-west-1 --mode=ro" {
		t.Errorf("imported args %q", s.Args)
	}
}
