package host

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth/oauthtest"
)

func TestSpecsResolveSecretsAtStart(t *testing.T) {
	h := open(t)
	if err := h.Secrets.Set("gh_GH_TOKEN", "ghp_secretvalue0001"); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SB_TEST_REGION", "eu-west-1")
	specs := h.Servers.Specs([]config.Server{
		{Name: "gh", Transport: config.Stdio, Command: "x", Env: map[string]string{"GH_TOKEN": "${secret:gh_GH_TOKEN}", "REGION": "${env:SB_TEST_REGION}"}},
		{Name: "missing", Transport: config.Stdio, Command: "x", Env: map[string]string{"K": "${secret:nope}"}},
		{Name: "remote", Transport: config.HTTP, URL: "https://${secret:nope}.example.com/mcp"},
	})
	if specs[0].Env["GH_TOKEN"] != "ghp_secretvalue0001" || specs[0].Env["REGION"] != "eu-west-1" || specs[0].StartError != "" {
		t.Fatalf("resolved = %+v", specs[0])
	}
	for _, s := range specs[1:] {
		if !strings.Contains(s.StartError, `secret "nope": secret not found in the keyring`) || !strings.Contains(s.StartError, "Settings → Secrets") {
			t.Fatalf("%s: missing secret error = %q", s.Name, s.StartError)
		}
	}
	if got := h.Redact("auth failed for ghp_secretvalue0001!"); got != "auth failed for ••••0001!" {
		t.Fatalf("Redact = %q", got)
	}
}

// TestNameTakenSaysWhatCanBeDone: a name taken where the user chose it
// says to pick another; one a registry or bundle fixes says how to free it,
// never to pick another where there is no way to.
func TestNameTakenSaysWhatCanBeDone(t *testing.T) {
	cfg := &config.Config{Servers: []config.Server{{Name: "weather", Command: "x"}}}
	if err := nameFree(cfg, "weather", pickAnother); !errors.Is(err, ErrNameTaken) || !strings.Contains(err.Error(), "pick another name") {
		t.Errorf("chosen name: %v", err)
	}
	err := nameFree(cfg, "weather", "")
	if !errors.Is(err, ErrNameTaken) || strings.Contains(err.Error(), "pick another") || !strings.Contains(err.Error(), `rename or remove the server named "weather" first`) {
		t.Errorf("fixed name: %v", err)
	}
	if err := nameFree(cfg, "free", ""); err != nil {
		t.Errorf("a free name: %v", err)
	}
}

// The OAuth client form under Details: each save, in order, and what
// config.json and the keyring hold afterwards.
func TestSetOAuth(t *testing.T) {
	h := open(t)
	data := `{"mcpServers": {"fs": {"command": "/bin/true"}, "linear": {"url": "https://example.com/mcp", "oauth": {"clientId": "old", "authorizationUrl": "https://a/authorize"}}}}`
	if _, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: "c.json", Data: []byte(data)}); err != nil {
		t.Fatal(err)
	}
	linear, _ := h.Servers.Get("linear")
	kept := secrets.ServerName(linear.ID, "oauth.clientSecret") // the server's own entry
	ref := "${secret:" + kept + "}"
	for _, c := range []struct {
		name   string
		server string
		edit   OAuthEdit
		want   string // the entry's "oauth" as config.json holds it afterwards
		err    string
	}{
		{"a new secret goes to the keyring", "linear", OAuthEdit{OAuth: &config.OAuth{ClientID: "sb", RedirectPort: 8765, Scopes: []string{"read"}}, Secret: "s3cret-value"},
			`{"clientId":"sb","clientSecret":"` + ref + `","redirectPort":8765,"scopes":["read"],"authorizationUrl":"https://a/authorize"}`, ""},
		{"the stored secret is kept", "linear", OAuthEdit{OAuth: &config.OAuth{ClientID: "sb2"}, KeepSecret: true},
			`{"clientId":"sb2","clientSecret":"` + ref + `","authorizationUrl":"https://a/authorize"}`, ""},
		{"a bad port names its JSON path", "linear", OAuthEdit{OAuth: &config.OAuth{ClientID: "sb2", RedirectPort: 70000}, KeepSecret: true},
			`{"clientId":"sb2","clientSecret":"` + ref + `","authorizationUrl":"https://a/authorize"}`, "linear.oauth.redirectPort: 70000 is not a port number"},
		{"a secret without a client is refused", "linear", OAuthEdit{OAuth: &config.OAuth{}, KeepSecret: true},
			`{"clientId":"sb2","clientSecret":"` + ref + `","authorizationUrl":"https://a/authorize"}`, `linear.oauth.clientSecret: needs "clientId"`},
		{"the secret removed", "linear", OAuthEdit{OAuth: &config.OAuth{ClientID: "sb2"}},
			`{"clientId":"sb2","authorizationUrl":"https://a/authorize"}`, ""},
		{"the entry removed", "linear", OAuthEdit{}, ``, ""},
		{"a local server does not log in", "fs", OAuthEdit{OAuth: &config.OAuth{ClientID: "x"}}, ``, "only a remote (http/sse) server logs in"},
		{"unknown", "nope", OAuthEdit{OAuth: &config.OAuth{ClientID: "x"}}, ``, `no server named "nope"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := h.Servers.SetOAuth(c.server, c.edit)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if s, ok := h.Servers.Get(c.server); ok {
				got := ""
				if s.OAuth != nil {
					b, _ := s.OAuth.MarshalJSON()
					got = string(b)
				}
				if got != c.want {
					t.Errorf("config.json holds %s, want %s", got, c.want)
				}
			}
		})
	}
	if v, err := h.Secrets.Get(kept); err != nil || v != "s3cret-value" {
		t.Errorf("keyring holds %q, %v", v, err)
	}
	cfg, err := h.readConfig()
	if err != nil || !slices.Contains(secrets.Names(cfg.Settings), kept) {
		t.Errorf("the secret is not indexed in the settings: %v", err)
	}
	var ve *config.ValidationError
	if err := h.Servers.SetOAuth("linear", OAuthEdit{OAuth: &config.OAuth{Scopes: []string{"a b"}}}); !errors.As(err, &ve) {
		t.Errorf("err = %v, want a *config.ValidationError", err)
	}
}

// The OAuth form shows the client, port and scopes only: a save keeps the
// entry's redirect URI (Claude Code's callbackPort, on localhost), moved
// to the form's port, and its "resource" and "clientMetadataUrl".
func TestSetOAuthKeepsWhatTheFormDoesNotShow(t *testing.T) {
	h := open(t)
	data := `{"mcpServers": {"slack": {"url": "https://example.com/mcp", "oauth": {"clientId": "a", "callbackPort": 3118, "resource": false, "clientMetadataUrl": "https://sb.example/c.json"}}}}`
	if _, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: "c.json", Data: []byte(data)}); err != nil {
		t.Fatal(err)
	}
	const hidden = `"resource":false,"clientMetadataUrl":"https://sb.example/c.json"`
	for _, c := range []struct {
		name string
		edit *config.OAuth
		want string
	}{
		{"saved as shown", &config.OAuth{ClientID: "a", RedirectPort: 3118}, `{"clientId":"a","redirectUri":"http://localhost:3118/callback",` + hidden + `}`},
		{"another port", &config.OAuth{ClientID: "b", RedirectPort: 3119}, `{"clientId":"b","redirectUri":"http://localhost:3119/callback",` + hidden + `}`},
		{"no port", &config.OAuth{ClientID: "b"}, `{"clientId":"b",` + hidden + `}`},
		{"the form emptied", nil, `{` + hidden + `}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := h.Servers.SetOAuth("slack", OAuthEdit{OAuth: c.edit}); err != nil {
				t.Fatal(err)
			}
			s, _ := h.Servers.Get("slack")
			if b, _ := s.OAuth.MarshalJSON(); string(b) != c.want {
				t.Errorf("config.json holds %s, want %s", b, c.want)
			}
		})
	}
}

func TestSetSandbox(t *testing.T) {
	h := open(t)
	data := `{"mcpServers": {"fs": {"command": "/bin/true"}, "remote": {"url": "https://example.com/mcp"}}}`
	if _, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: "c.json", Data: []byte(data)}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		server string
		sb     *config.Sandbox
		want   *config.Sandbox // what config.json holds afterwards
		err    string
	}{
		{"on", "fs", &config.Sandbox{}, &config.Sandbox{}, ""},
		{"settings", "fs", &config.Sandbox{Network: true, AllowWrite: []string{"/srv"}, Roots: "read"}, &config.Sandbox{Network: true, AllowWrite: []string{"/srv"}, Roots: "read"}, ""},
		{"a relative folder names its JSON path", "fs", &config.Sandbox{AllowRead: []string{"notes"}}, &config.Sandbox{Network: true, AllowWrite: []string{"/srv"}, Roots: "read"},
			`fs.sandbox.allowRead[0]: "notes" is not an absolute path`},
		{"off", "fs", nil, nil, ""},
		{"remote", "remote", &config.Sandbox{}, nil, "only a local (stdio) server runs in a sandbox"},
		{"unknown", "nope", &config.Sandbox{}, nil, `no server named "nope"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := h.Servers.SetSandbox(c.server, c.sb)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			s, ok := h.Servers.Get(c.server)
			if ok && showSandbox(s.Sandbox) != showSandbox(c.want) {
				t.Errorf("config.json holds %s, want %s", showSandbox(s.Sandbox), showSandbox(c.want))
			}
		})
	}
	var ve *config.ValidationError
	if err := h.Servers.SetSandbox("fs", &config.Sandbox{AllowWrite: []string{"~"}}); !errors.As(err, &ve) {
		t.Errorf("err = %v, want a *config.ValidationError", err)
	}
}

func TestImportSandboxed(t *testing.T) {
	h := open(t)
	data := `{"mcpServers": {"a": {"command": "/bin/true"}, "b": {"command": "/bin/true", "sandbox": {"network": true}}, "r": {"url": "https://example.com/mcp"}}}`
	if _, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: "c.json", Data: []byte(data), Sandbox: true}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"a": "true", "b": `{"network":true}`, "r": ""} {
		s, _ := h.Servers.Get(name)
		if got := showSandbox(s.Sandbox); got != want {
			t.Errorf("%s: sandbox %s, want %s", name, got, want)
		}
	}
}

func showSandbox(s *config.Sandbox) string {
	if s == nil {
		return ""
	}
	b, _ := s.MarshalJSON()
	return string(b)
}

// The window's Cancel ends a login that waits for the browser at once,
// and says so; with none under way it does nothing.
func TestCancelLogin(t *testing.T) {
	srv := oauthtest.New(t)
	prev := oauth.OpenBrowser
	oauth.OpenBrowser = func(context.Context, string) error { return nil } // nobody comes back
	t.Cleanup(func() { oauth.OpenBrowser = prev })
	h := open(t)
	if _, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: "c.json", Data: []byte(`{"mcpServers": {"locked": {"url": "` + srv.URL + `"}}}`)}); err != nil {
		t.Fatal(err)
	}
	servers, _, err := h.Servers.Runnable()
	if err != nil {
		t.Fatal(err)
	}
	h.Servers.Run(servers)
	if h.Servers.CancelLogin("locked") {
		t.Error("a login was cancelled before any began")
	}
	shown := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := h.Servers.Login(context.Background(), "locked", func(string) { close(shown) })
		done <- err
	}()
	select {
	case <-shown:
	case <-time.After(10 * time.Second):
		t.Fatal("the login never showed its page")
	}
	if !h.Servers.CancelLogin("locked") {
		t.Error("CancelLogin found no login under way")
	}
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "locked: login cancelled") {
			t.Errorf("Login = %v, want it cancelled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the cancelled login went on")
	}
}
