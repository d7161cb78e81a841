package oauth_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
)

// The authorization rules MCP revision 2026-07-28 added, each against the
// fake authorization server.

const asMetaPath = "/.well-known/oauth-authorization-server"

func TestIssuerValidation(t *testing.T) {
	cases := []struct {
		name       string
		advertised bool                       // authorization_response_iss_parameter_supported
		iss        func(issuer string) string // the redirect's iss; "" sends none
		ok         bool
	}{
		{"advertised and equal", true, func(i string) string { return i }, true},
		{"advertised and absent", true, func(string) string { return "" }, false},
		{"advertised and another issuer", true, func(string) string { return "https://evil.example" }, false},
		{"a trailing-slash variant is another issuer", true, func(i string) string { return i + "/" }, false},
		{"an upper-case scheme is another issuer", true, func(i string) string { return "HTTP" + strings.TrimPrefix(i, "http") }, false},
		{"a percent-encoded variant is another issuer", true, func(i string) string { return strings.Replace(i, "127.0.0.1", "127%2E0.0.1", 1) }, false},
		{"not advertised and absent", false, func(string) string { return "" }, true},
		{"not advertised but present and equal", false, func(i string) string { return i }, true},
		{"not advertised but present and another", false, func(string) string { return "https://evil.example" }, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			f.set(func(f *fake) {
				f.docs[asMetaPath].(map[string]any)["authorization_response_iss_parameter_supported"] = c.advertised
				f.iss = c.iss(f.URL)
			})
			b := browser(t)
			a, err := login(t, f, oauth.Config{}, nil)
			if c.ok {
				if err != nil || !a.LoggedIn() {
					t.Fatalf("login: %v", err)
				}
				return
			}
			if !errors.Is(err, oauth.ErrIssuerMismatch) || !strings.Contains(err.Error(), "start the login again") {
				t.Fatalf("err = %v, want ErrIssuerMismatch saying what to do", err)
			}
			if a.LoggedIn() || !strings.Contains(b.Page(), "did not come from the authorization server") {
				t.Errorf("logged in %v; callback page:\n%s", a.LoggedIn(), b.Page())
			}
			f.set(func(f *fake) {
				if len(f.tokenReqs) != 0 {
					t.Error("the code went to the token endpoint despite the issuer check")
				}
			})
		})
	}
}

// moveAS points f's protected-resource metadata at the authorization
// server under prefix ("" is the root one), serving its metadata.
func moveAS(f *fake, prefix string) {
	f.docs[asMetaPath+prefix] = f.metadata(prefix)
	f.docs["/.well-known/oauth-protected-resource/mcp"].(map[string]any)["authorization_servers"] = []string{f.URL + prefix}
}

func TestAuthorizationServerMigration(t *testing.T) {
	f := newFake(t)
	browser(t)
	store := oauth.NewMemoryStore()
	a, err := login(t, f, oauth.Config{}, store)
	if err != nil {
		t.Fatal(err)
	}

	// The server moves to another authorization server: a new registration
	// there, and the first server's client ID never goes to it.
	f.set(func(f *fake) { moveAS(f, "/as2") })
	if err := a.Login(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	f.set(func(f *fake) {
		if !slices.Equal(f.regPaths, []string{"/register", "/as2/register"}) {
			t.Errorf("registrations at %q, want one at each authorization server", f.regPaths)
		}
		if got := f.authorizeQ[1].Get("client_id"); got != "dynamic-client/as2" || f.authPaths[1] != "/as2/authorize" {
			t.Errorf("authorization request to %s with client_id %q, want the new server's", f.authPaths[1], got)
		}
		if tr := f.tokenReqs[1]; tr.form.Get("client_id") != "dynamic-client/as2" || f.tokenPaths[1] != "/as2/token" {
			t.Errorf("token request to %s as %q", f.tokenPaths[1], tr.form.Get("client_id"))
		}
	})
	// The new token works, also for a new Authorizer reading the store.
	again := oauth.New(oauth.Config{Server: "srv", URL: f.URL + "/mcp"}, store)
	if resp, err := f.call(t, &oauth.Transport{Auth: again}, `{}`); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("after the move: %v %v", resp, err)
	}

	// Back to the first: its own registration is still known (by issuer).
	f.set(func(f *fake) { moveAS(f, "") })
	if err := again.Login(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	f.set(func(f *fake) {
		if len(f.regs) != 2 || f.authorizeQ[2].Get("client_id") != "dynamic-client" {
			t.Errorf("%d registrations, client_id %q: want the first server's registration reused", len(f.regs), f.authorizeQ[2].Get("client_id"))
		}
	})
}

func TestPreRegisteredClientStaysWithItsServer(t *testing.T) {
	f := newFake(t)
	browser(t)
	cfg := oauth.Config{Settings: oauth.Settings{ClientID: "configured-id"}}
	a, err := login(t, f, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.set(func(f *fake) { moveAS(f, "/as2") })
	err = a.Login(t.Context(), nil)
	if !errors.Is(err, oauth.ErrIssuerChanged) || !strings.Contains(err.Error(), "Details → OAuth client") || !strings.Contains(err.Error(), "secrets delete oauth.srv") {
		t.Fatalf("err = %v, want ErrIssuerChanged saying what to do", err)
	}
	f.set(func(f *fake) {
		if len(f.authorizeQ) != 1 || len(f.regs) != 0 {
			t.Errorf("%d authorization requests, %d registrations: the configured client went to the new server", len(f.authorizeQ), len(f.regs))
		}
	})
	// Forgetting the login (what 'secrets delete oauth.NAME' does) forgets
	// which server the client was used with.
	if err := a.Logout(); err != nil {
		t.Fatal(err)
	}
	if err := a.Login(t.Context(), nil); err != nil {
		t.Fatalf("after logout: %v", err)
	}
	f.set(func(f *fake) {
		if f.authPaths[1] != "/as2/authorize" || f.authorizeQ[1].Get("client_id") != "configured-id" {
			t.Errorf("authorization request to %s as %q", f.authPaths[1], f.authorizeQ[1].Get("client_id"))
		}
	})
}

func TestClientIDMetadataDocumentPreferred(t *testing.T) {
	f := newFake(t)
	browser(t)
	cfg := oauth.Config{ClientMetadataURL: "https://app.example/client.json"}
	a, err := login(t, f, cfg, nil) // no CIMD support: dynamic registration
	if err != nil {
		t.Fatal(err)
	}
	f.set(func(f *fake) { f.docs[asMetaPath].(map[string]any)["client_id_metadata_document_supported"] = true })
	if err := a.Login(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	f.set(func(f *fake) {
		if got := f.authorizeQ[1].Get("client_id"); got != cfg.ClientMetadataURL || len(f.regs) != 1 {
			t.Errorf("client_id %q after %d registrations: the metadata document comes before an earlier registration", got, len(f.regs))
		}
	})
}

func TestRecordsBeforeIssuerKeysAreRead(t *testing.T) {
	f := newFake(t)
	browser(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	store := oauth.NewMemoryStore()
	old, _ := json.Marshal(map[string]any{ // as written before clients were kept by issuer
		"server_url": f.URL + "/mcp", "resource": f.URL + "/mcp", "issuer": f.URL, "token_endpoint": f.URL + "/token",
		"client": map[string]any{
			"client_id": "dynamic-client", "auth_method": "none", "issuer": f.URL, "dynamic": true,
			"redirect_uri": fmt.Sprintf("http://127.0.0.1:%d/callback", port),
		},
		"access_token": "stale",
	})
	_ = store.Set(oauth.KeyFor("srv"), string(old))
	if _, err := login(t, f, oauth.Config{}, store); err != nil {
		t.Fatal(err)
	}
	f.set(func(f *fake) {
		if len(f.regs) != 0 || f.authorizeQ[0].Get("client_id") != "dynamic-client" {
			t.Errorf("%d registrations, client_id %q: the stored registration was not reused", len(f.regs), f.authorizeQ[0].Get("client_id"))
		}
	})
}

func TestStepUpAsksForTheUnion(t *testing.T) {
	f := newFake(t)
	granted := "a" // the authorization server grants less than asked
	f.set(func(f *fake) {
		f.wwwAuth += `, scope="a b"`
		f.grant = &granted
	})
	browser(t)
	a, err := login(t, f, oauth.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.set(func(f *fake) {
		f.grant = nil
		f.need = []string{"c"}
	})
	if _, err := f.call(t, &oauth.Transport{Auth: a}, `{}`); !errors.Is(err, oauth.ErrNeedsLogin) || !strings.Contains(err.Error(), `"a b c"`) {
		t.Fatalf("403: %v, want a login asking for the union", err)
	}
	if err := a.Login(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	f.set(func(f *fake) {
		if got := f.authorizeQ[1].Get("scope"); got != "a b c" {
			t.Errorf("step-up asked for %q, want the requested, granted and challenged scopes", got)
		}
	})
}

func TestStepUpRetryLimit(t *testing.T) {
	f := newFake(t)
	granted := "read" // never "write"
	f.set(func(f *fake) { f.grant = &granted })
	browser(t)
	a, err := login(t, f, oauth.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.set(func(f *fake) { f.need = []string{"write"} })
	reported := 0
	tr := &oauth.Transport{Auth: a, OnNeedsLogin: func(error) { reported++ }}
	for i := range oauth.MaxStepUps {
		if _, err := f.call(t, tr, `{}`); !errors.Is(err, oauth.ErrNeedsLogin) {
			t.Fatalf("request %d: %v, want a step-up login", i+1, err)
		}
		if err := a.Login(t.Context(), nil); err != nil {
			t.Fatal(err)
		}
	}
	_, err = f.call(t, tr, `{}`)
	if !errors.Is(err, oauth.ErrScopeNotGranted) || !strings.Contains(err.Error(), `"write"`) {
		t.Fatalf("after %d step-ups: %v, want ErrScopeNotGranted naming the scope", oauth.MaxStepUps, err)
	}
	f.set(func(f *fake) {
		if len(f.authorizeQ) != 1+oauth.MaxStepUps || reported != oauth.MaxStepUps {
			t.Errorf("%d authorization requests, %d logins asked for; want 1 + %d", len(f.authorizeQ), reported, oauth.MaxStepUps)
		}
	})
	// Logging out starts over.
	if err := a.Logout(); err != nil {
		t.Fatal(err)
	}
	if _, err := login(t, f, oauth.Config{}, nil); err != nil {
		t.Fatal(err)
	}
}

func TestOfflineAccessOnlyWhenOffered(t *testing.T) {
	prmPath := "/.well-known/oauth-protected-resource/mcp"
	cases := []struct {
		name         string
		asScopes     []string // the authorization server's scopes_supported
		prmScopes    []string
		wwwAuthScope string
		want         string // "-": no scope parameter
	}{
		{"offered: asked for beside the challenge's", []string{"read", "offline_access"}, nil, "read", "read offline_access"},
		{"not offered: never asked for", []string{"read"}, []string{"read"}, "", "read"},
		{"named by the resource but not offered: left out", []string{"read"}, []string{"read", "offline_access"}, "", "read"},
		{"no scope list at all: left out", nil, []string{"read", "offline_access"}, "", "read"},
		{"offered but nothing else named: scope stays omitted", []string{"offline_access"}, nil, "", "-"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			f.set(func(f *fake) {
				if c.asScopes != nil {
					f.docs[asMetaPath].(map[string]any)["scopes_supported"] = c.asScopes
				}
				if c.prmScopes != nil {
					f.docs[prmPath].(map[string]any)["scopes_supported"] = c.prmScopes
				}
				if c.wwwAuthScope != "" {
					f.wwwAuth += `, scope="` + c.wwwAuthScope + `"`
				}
			})
			browser(t)
			if _, err := login(t, f, oauth.Config{}, nil); err != nil {
				t.Fatal(err)
			}
			f.set(func(f *fake) {
				got := "-"
				if q := f.authorizeQ[0]; q.Has("scope") {
					got = q.Get("scope")
				}
				if got != c.want {
					t.Errorf("scope %q, want %q", got, c.want)
				}
			})
		})
	}
}
