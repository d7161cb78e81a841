package host

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// The OAuth client form under Details: each save, in order, and what
// config.json and the keyring hold afterwards.
func TestSetOAuth(t *testing.T) {
	h := open(t)
	data := `{"mcpServers": {"fs": {"command": "/bin/true"}, "linear": {"url": "https://example.com/mcp", "oauth": {"clientId": "old", "authorizationUrl": "https://a/authorize"}}}}`
	if _, err := h.Servers.Import(t.Context(), ImportRequest{Name: "c.json", Data: []byte(data)}); err != nil {
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
	cfg, err := h.Config()
	if err != nil || !slices.Contains(secrets.Names(cfg.Settings), kept) {
		t.Errorf("the secret is not indexed in the settings: %v", err)
	}
	var ve *config.ValidationError
	if err := h.Servers.SetOAuth("linear", OAuthEdit{OAuth: &config.OAuth{Scopes: []string{"a b"}}}); !errors.As(err, &ve) {
		t.Errorf("err = %v, want a *config.ValidationError", err)
	}
}
