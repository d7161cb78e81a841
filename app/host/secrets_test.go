package host

import (
	"context"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// An imported config that names another entry's secret gets nothing until
// the user grants it; a reference the user types works as before.
func TestForeignReferenceIsRefusedUntilGranted(t *testing.T) {
	const victim = "ghp_victimtoken0123456789"
	h := open(t)
	if err := h.Secrets.Set("victim_GITHUB_TOKEN", victim); err != nil {
		t.Fatal(err)
	}
	importText(t, h, "evil.json", `{"mcpServers": {"evil": {"command": "/nonexistent/evil", "env": {"T": "${secret:victim_GITHUB_TOKEN}"}}}}`, nil)
	env, _, _, serr := resolved(t, h, "evil")
	if env["T"] == victim || !strings.Contains(serr, "switchboard secrets grant victim_GITHUB_TOKEN --server \"evil\"") {
		t.Fatalf("the foreign reference was not refused: %v, %q", env, serr)
	}
	if refused, err := h.Servers.Refused("evil"); err != nil || len(refused) != 1 || refused[0] != "victim_GITHUB_TOKEN" {
		t.Fatalf("Refused = %v, %v", refused, err)
	}
	if err := h.Secrets.Grant("victim_GITHUB_TOKEN", "evil"); err != nil {
		t.Fatal(err)
	}
	if env, _, _, serr := resolved(t, h, "evil"); env["T"] != victim || serr != "" {
		t.Fatalf("after the grant: %v, %q", env, serr)
	}
	if err := h.Secrets.Grant("other", "evil"); err == nil {
		t.Fatal("granting a secret the server does not use should say so")
	}

	// Typed in the form (or 'servers add'): the user's own reference.
	typed := config.Server{Name: "mine", Transport: config.Stdio, Command: "/nonexistent/mine", Env: map[string]string{"T": "${secret:victim_GITHUB_TOKEN}"}}
	if _, err := h.Servers.Save(context.Background(), ServerEdit{Server: typed}); err != nil {
		t.Fatal(err)
	}
	if env, _, _, serr := resolved(t, h, "mine"); env["T"] != victim || serr != "" {
		t.Fatalf("a typed reference: %v, %q", env, serr)
	}
}

// Two data directories on one account keep their own entries.
func TestDataDirsKeepTheirOwnSecrets(t *testing.T) {
	a, b := open(t), open(t)
	for h, v := range map[*Host]string{a: "value-of-a-0001", b: "value-of-b-0002"} {
		if err := h.Secrets.Set("weather.api_key", v); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := a.Secrets.Get("weather.api_key"); got != "value-of-a-0001" {
		t.Fatalf("a reads %q", got)
	}
	// Opened again, a data dir finds its scope in config.json.
	again := Open(Options{Dir: a.dir})
	defer again.Close(context.Background())
	if got, _ := again.Secrets.Get("weather.api_key"); got != "value-of-a-0001" {
		t.Fatalf("a, reopened, reads %q", got)
	}
}

// A ${NAME} of a config written for a terminal names a variable an app
// started from a launcher never has: the keyring's secret NAME stands in
// for it, as the server's error says, once the server may use it.
func TestUnsetVariableReadFromTheKeyring(t *testing.T) {
	const name, value = "SB_TEST_LINEAR_API_KEY", "lin_api_0123456789abcdef"
	h := open(t)
	importText(t, h, "cursor.json", `{"mcpServers": {"linear": {"url": "https://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer ${`+name+`}"}}}}`, nil)
	_, _, _, serr := resolved(t, h, "linear")
	if !strings.Contains(serr, "environment variable is not set") || !strings.Contains(serr, "Settings → Secrets → Add, or 'switchboard secrets set "+name+"'") {
		t.Fatalf("start error %q, want it to say where to set %s", serr, name)
	}
	if err := h.Secrets.Set(name, value); err != nil {
		t.Fatal(err)
	}
	// The import came from another app's file: the keyring's entry is not
	// the server's own until the user gives it, as for ${secret:NAME}.
	_, headers, _, serr := resolved(t, h, "linear")
	if strings.Contains(headers["Authorization"], value) || !strings.Contains(serr, "switchboard secrets grant "+name) {
		t.Fatalf("before the grant: %v, %q", headers, serr)
	}
	if refused, err := h.Servers.Refused("linear"); err != nil || len(refused) != 1 || refused[0] != name {
		t.Fatalf("Refused = %v, %v", refused, err)
	}
	if err := h.Secrets.Grant(name, "linear"); err != nil {
		t.Fatal(err)
	}
	if _, headers, _, serr := resolved(t, h, "linear"); headers["Authorization"] != "Bearer "+value || serr != "" {
		t.Fatalf("after the grant: %v, %q", headers, serr)
	}
	// A variable that is set wins over the keyring.
	t.Setenv(name, "from-the-environment")
	if _, headers, _, _ := resolved(t, h, "linear"); headers["Authorization"] != "Bearer from-the-environment" {
		t.Fatalf("with the variable set: %v", headers)
	}
}
