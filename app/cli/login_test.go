package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth/oauthtest"
)

func TestServersLogin(t *testing.T) {
	oauthtest.FollowRedirects(t)
	srv := oauthtest.New(t)
	data := t.TempDir()
	if code, _, e := runIn(t, data, "servers", "import", writeFile(t, "s.json",
		`{"mcpServers": {"locked": {"url": "`+srv.URL+`"}, "local": {"command": "true"}}}`)); code != ExitOK {
		t.Fatalf("import: %d %s", code, e)
	}

	code, out, errOut := runIn(t, data, "servers", "login", "locked")
	if code != ExitOK || out != "logged in to locked: ready with 1 tools\n" {
		t.Fatalf("login: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "Opening your browser to log in to locked. If it does not open, visit:\n  http://127.0.0.1:") {
		t.Errorf("the login link is not offered: %q", errOut)
	}
	// The token is in the keyring (the mock keyring of TestMain) ...
	raw, err := keyringOf(t, data, oauth.KeyFor("locked"))
	if err != nil || srv.Token() == "" || !strings.Contains(raw, srv.Token()) {
		t.Fatalf("keyring holds %q (%v), want the token %q", raw, err, srv.Token())
	}
	// ... and nowhere in the data directory or the output.
	_ = filepath.WalkDir(data, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), srv.Token()) {
				t.Errorf("%s holds the token", p)
			}
		}
		return nil
	})
	if strings.Contains(out+errOut, srv.Token()) {
		t.Error("the token was printed")
	}

	cases := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no name", []string{"servers", "login"}, ExitUsage, "needs exactly one NAME"},
		{"unknown server", []string{"servers", "login", "nope"}, ExitUsage, `no server named "nope"`},
		{"stdio server", []string{"servers", "login", "local"}, ExitUsage, "local runs a command; only remote (http/sse) servers log in"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut := runIn(t, data, c.args...)
			if code != c.code || !strings.Contains(errOut, c.msg) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, c.code, c.msg)
			}
		})
	}

	// The login is one of the keyring's entries: listed (masked), and
	// named among what removing the server deletes.
	code, out, _ = runIn(t, data, "secrets", "list")
	if code != ExitOK || !strings.Contains(out, oauth.KeyFor("locked")) || !strings.Contains(out, "OAuth login of locked") || strings.Contains(out, srv.Token()) {
		t.Errorf("secrets list: %d\n%s", code, out)
	}
	code, out, _ = runIn(t, data, "servers", "remove", "locked")
	if code != ExitOK || !strings.Contains(out, "deleted from the keyring: "+oauth.KeyFor("locked")) {
		t.Errorf("servers remove: %d\n%s", code, out)
	}
	if _, err := keyringOf(t, data, oauth.KeyFor("locked")); err == nil {
		t.Error("the login outlived the server")
	}
}

// Without dynamic registration, the login says how to register by hand
// and where the entry to change is.
func TestServersLoginWithoutRegistration(t *testing.T) {
	oauthtest.FollowRedirects(t)
	srv := oauthtest.New(t)
	srv.NoRegistration()
	data := t.TempDir()
	if code, _, e := runIn(t, data, "servers", "import", writeFile(t, "s.json", `{"mcpServers": {"locked": {"url": "`+srv.URL+`"}}}`)); code != ExitOK {
		t.Fatalf("import: %d %s", code, e)
	}
	code, _, errOut := runIn(t, data, "servers", "login", "locked")
	for _, want := range []string{"offers no dynamic client registration", `"redirectPort": PORT`, `"clientId"`, "mcpServers.locked in " + filepath.Join(data, "config.json")} {
		if code == ExitOK || !strings.Contains(errOut, want) {
			t.Errorf("exit %d, stderr %q\nlacks %q", code, errOut, want)
		}
	}
}
