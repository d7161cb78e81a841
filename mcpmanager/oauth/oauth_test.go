package oauth_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
)

func TestParseChallenge(t *testing.T) {
	cases := []struct {
		name, header       string
		metadata, scope, e string
	}{
		{"quoted params", `Bearer resource_metadata="https://x/.well-known/oauth-protected-resource", scope="a b"`, "https://x/.well-known/oauth-protected-resource", "a b", ""},
		{"step-up", `Bearer error="insufficient_scope", scope="mcp:read mcp:write", error_description="more"`, "", "mcp:read mcp:write", "insufficient_scope"},
		{"unquoted value with colon", `Bearer scope=mcp:basic, error=invalid_token`, "", "mcp:basic", "invalid_token"},
		{"bearer after basic", `Basic realm="x", Bearer scope="s"`, "", "s", ""},
		{"escaped quote", `Bearer error_description="say \"hi\"", scope="q"`, "", "q", ""},
		{"case-insensitive names", `bearer Resource_Metadata="https://m"`, "https://m", "", ""},
		{"no bearer", `Basic realm="x"`, "", "", ""},
		{"empty", ``, "", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := &http.Response{StatusCode: 401, Header: http.Header{}}
			if c.header != "" {
				resp.Header.Set("WWW-Authenticate", c.header)
			}
			ch := oauth.ParseChallenge(resp)
			if ch.ResourceMetadata() != c.metadata || strings.Join(ch.Scopes(), " ") != c.scope || ch.Error() != c.e {
				t.Errorf("got metadata %q scope %q error %q", ch.ResourceMetadata(), ch.Scopes(), ch.Error())
			}
		})
	}
}

// login makes an Authorizer for f's /mcp, records its challenge with one
// unauthenticated request, and logs in.
func login(t *testing.T, f *fake, cfg oauth.Config, store oauth.Store) (*oauth.Authorizer, error) {
	t.Helper()
	cfg.Server, cfg.URL = "srv", f.URL+"/mcp"
	a := oauth.New(cfg, store)
	if _, err := f.call(t, &oauth.Transport{Auth: a}, `{}`); !errors.Is(err, oauth.ErrNeedsLogin) {
		t.Fatalf("first request: %v, want ErrNeedsLogin", err)
	}
	return a, a.Login(t.Context(), nil)
}

func TestDiscoveryOrder(t *testing.T) {
	const prm = "/.well-known/oauth-protected-resource"
	cases := []struct {
		name  string
		setup func(f *fake)
		want  []string // discovery GETs, in order
	}{{
		name:  "path-suffixed PRM first, then root AS metadata",
		setup: func(f *fake) { f.wwwAuth = "Bearer" },
		want:  []string{prm + "/mcp", "/.well-known/oauth-authorization-server"},
	}, {
		name: "root PRM when the path-suffixed one is missing, OIDC after RFC 8414",
		setup: func(f *fake) {
			f.wwwAuth = "Bearer"
			f.docs[prm] = f.docs[prm+"/mcp"]
			delete(f.docs, prm+"/mcp")
			f.docs["/.well-known/openid-configuration"] = f.docs["/.well-known/oauth-authorization-server"]
			delete(f.docs, "/.well-known/oauth-authorization-server")
		},
		want: []string{prm + "/mcp", prm, "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"},
	}, {
		name: "header's PRM URL, issuer with a path: inserted RFC 8414, inserted OIDC, appended OIDC",
		setup: func(f *fake) {
			f.wwwAuth = `Bearer resource_metadata="` + f.URL + `/custom/prm.json"`
			f.docs["/custom/prm.json"] = map[string]any{"resource": f.URL + "/mcp", "authorization_servers": []string{f.URL + "/tenant1"}}
			delete(f.docs, "/.well-known/oauth-authorization-server")
			f.docs["/tenant1/.well-known/openid-configuration"] = f.metadata("/tenant1")
		},
		want: []string{"/custom/prm.json", "/.well-known/oauth-authorization-server/tenant1", "/.well-known/openid-configuration/tenant1", "/tenant1/.well-known/openid-configuration"},
	}, {
		name: "no PRM: the 2025-03-26 server's origin is the authorization server",
		setup: func(f *fake) {
			f.wwwAuth = "Bearer"
			delete(f.docs, prm+"/mcp")
		},
		want: []string{prm + "/mcp", prm, "/.well-known/oauth-authorization-server"},
	}, {
		name: "no metadata at all: the 2025-03-26 default endpoints",
		setup: func(f *fake) {
			f.wwwAuth = "Bearer"
			clear(f.docs)
		},
		want: []string{prm + "/mcp", prm, "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			f.set(c.setup)
			browser(t)
			if _, err := login(t, f, oauth.Config{}, nil); err != nil {
				t.Fatalf("login: %v", err)
			}
			f.set(func(f *fake) {
				if !slices.Equal(f.gets, c.want) {
					t.Errorf("discovery requests\n got %q\nwant %q", f.gets, c.want)
				}
				if len(f.tokenReqs) != 1 {
					t.Errorf("%d token requests, want 1", len(f.tokenReqs))
				}
			})
		})
	}
}

func TestLoginUsesPKCEStateAndResource(t *testing.T) {
	var logs bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	t.Cleanup(func() { slog.SetDefault(prev) })

	f := newFake(t)
	b := browser(t)
	store := oauth.NewMemoryStore() // the app passes its keyring store (TestParity checks the keyring)
	a, err := login(t, f, oauth.Config{}, store)
	if err != nil {
		t.Fatal(err)
	}
	if b.Opens() != 1 || !strings.Contains(b.Page(), "Logged in to srv") || !strings.Contains(b.Page(), "You can close this tab") {
		t.Errorf("browser opened %d times, callback page:\n%s", b.Opens(), b.Page())
	}
	f.set(func(f *fake) {
		q := f.authorizeQ[0]
		if q.Get("code_challenge_method") != "S256" || len(q.Get("code_challenge")) != 43 || len(q.Get("state")) < 32 {
			t.Errorf("authorize request lacks PKCE S256 or a strong state: %v", q)
		}
		if q.Get("resource") != f.URL+"/mcp" || f.tokenReqs[0].form.Get("resource") != f.URL+"/mcp" {
			t.Errorf("resource: authorize %q, token %q", q.Get("resource"), f.tokenReqs[0].form.Get("resource"))
		}
		if u, _ := url.Parse(q.Get("redirect_uri")); u.Hostname() != "127.0.0.1" || u.Path != "/callback" {
			t.Errorf("redirect_uri %q is not the loopback callback", q.Get("redirect_uri"))
		}
		if q.Has("scope") {
			t.Errorf("scope %q sent although nothing names one", q.Get("scope"))
		}
		if reg := f.regs[0]; reg["token_endpoint_auth_method"] != "none" || reg["application_type"] != "native" || !strings.HasPrefix(reg["redirect_uris"].([]any)[0].(string), "http://127.0.0.1:") {
			t.Errorf("registration %v", reg)
		}
	})

	// The token is sent, and it lives in the store only.
	resp, err := f.call(t, &oauth.Transport{Auth: a}, `{"n":1}`)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("authorized request: %v %v", resp, err)
	}
	raw, err := store.Get(oauth.KeyFor("srv"))
	if err != nil || !strings.Contains(raw, "access-1-secretvalue") || !strings.Contains(raw, "refresh-1-secretvalue") {
		t.Fatalf("stored entry %q: %v", raw, err)
	}
	for _, secret := range []string{"access-1-secretvalue", "refresh-1-secretvalue", "dynamic-secret-value", "code-1"} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("log holds %q:\n%s", secret, logs.String())
		}
	}
	// A new Authorizer (the app restarted) reads the token from the store.
	again := oauth.New(oauth.Config{Server: "srv", URL: f.URL + "/mcp"}, store)
	if resp, err := f.call(t, &oauth.Transport{Auth: again}, `{}`); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("after restart: %v %v", resp, err)
	}
	// ... but never sends it to another URL under the same name.
	moved := oauth.New(oauth.Config{Server: "srv", URL: f.URL + "/other/mcp"}, store)
	if moved.LoggedIn() {
		t.Error("a token for another URL was used")
	}
}

func TestLoginRefusals(t *testing.T) {
	cases := []struct {
		name  string
		setup func(f *fake)
		want  error
		opens int
	}{
		{"state mismatch", func(f *fake) { f.state = "forged" }, oauth.ErrStateMismatch, 1},
		{"answer from another issuer (mix-up)", func(f *fake) { f.iss = "https://evil.example" }, oauth.ErrIssuerMismatch, 1},
		{"no S256 in metadata", func(f *fake) {
			delete(f.docs["/.well-known/oauth-authorization-server"].(map[string]any), "code_challenge_methods_supported")
		}, oauth.ErrNoPKCE, 0},
		{"resource of another server", func(f *fake) {
			f.docs["/.well-known/oauth-protected-resource/mcp"].(map[string]any)["resource"] = "https://elsewhere.example/mcp"
		}, oauth.ErrResourceMismatch, 0},
		{"plain http token endpoint off this machine", func(f *fake) {
			f.docs["/.well-known/oauth-authorization-server"].(map[string]any)["token_endpoint"] = "http://auth.example/token"
		}, oauth.ErrInsecureURL, 0},
		{"no way to register", func(f *fake) {
			delete(f.docs["/.well-known/oauth-authorization-server"].(map[string]any), "registration_endpoint")
		}, oauth.ErrNoClient, 0},
		{"denied by the authorization server", func(f *fake) { f.tokenFail = "access_denied" }, oauth.ErrNeedsLogin, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			f.set(c.setup)
			b := browser(t)
			store := oauth.NewMemoryStore()
			a, err := login(t, f, oauth.Config{}, store)
			if c.want == oauth.ErrNeedsLogin { // token endpoint refusal: an OAuthError naming it
				var oe *oauth.OAuthError
				if !errors.As(err, &oe) || oe.Code != "access_denied" {
					t.Fatalf("err = %v, want the token endpoint's access_denied", err)
				}
			} else if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			if b.Opens() != c.opens {
				t.Errorf("browser opened %d times, want %d", b.Opens(), c.opens)
			}
			if c.want == oauth.ErrStateMismatch && !strings.Contains(b.Page(), "start the login again") {
				t.Errorf("callback page does not say what to do:\n%s", b.Page())
			}
			if a.LoggedIn() {
				t.Error("a token was stored")
			}
			f.set(func(f *fake) {
				if c.opens == 1 && c.want != oauth.ErrNeedsLogin && len(f.tokenReqs) != 0 {
					t.Error("the code was exchanged despite the refused redirect")
				}
			})
		})
	}
}

func TestClientIdentity(t *testing.T) {
	asMeta := "/.well-known/oauth-authorization-server"
	cases := []struct {
		name  string
		cfg   oauth.Config
		setup func(f *fake)
		check func(t *testing.T, f *fake)
	}{{
		name: "pre-registered confidential client uses Basic",
		cfg:  oauth.Config{Settings: oauth.Settings{ClientID: "my id", ClientSecret: "s3cret:x"}},
		setup: func(f *fake) {
			f.docs[asMeta].(map[string]any)["token_endpoint_auth_methods_supported"] = []string{"client_secret_basic"}
		},
		check: func(t *testing.T, f *fake) {
			tr := f.tokenReqs[0]
			// RFC 6749 §2.3.1: form-encoded before Basic encoding.
			if !tr.basic || tr.user != "my+id" || tr.pass != "s3cret%3Ax" || tr.form.Has("client_secret") || len(f.regs) != 0 {
				t.Errorf("token request %+v, registrations %d", tr, len(f.regs))
			}
		},
	}, {
		name: "pre-registered client where only POST is offered",
		cfg:  oauth.Config{Settings: oauth.Settings{ClientID: "id", ClientSecret: "sec"}},
		setup: func(f *fake) {
			f.docs[asMeta].(map[string]any)["token_endpoint_auth_methods_supported"] = []string{"client_secret_post"}
		},
		check: func(t *testing.T, f *fake) {
			tr := f.tokenReqs[0]
			if tr.basic || tr.form.Get("client_id") != "id" || tr.form.Get("client_secret") != "sec" {
				t.Errorf("token request %+v", tr)
			}
		},
	}, {
		name:  "client ID metadata document when the server supports it",
		cfg:   oauth.Config{ClientMetadataURL: "https://app.example/client.json"},
		setup: func(f *fake) { f.docs[asMeta].(map[string]any)["client_id_metadata_document_supported"] = true },
		check: func(t *testing.T, f *fake) {
			if f.authorizeQ[0].Get("client_id") != "https://app.example/client.json" || len(f.regs) != 0 {
				t.Errorf("client_id %q, registrations %d", f.authorizeQ[0].Get("client_id"), len(f.regs))
			}
		},
	}, {
		name: "dynamic registration otherwise, with the method the server registered",
		setup: func(f *fake) {
			f.docs[asMeta].(map[string]any)["token_endpoint_auth_methods_supported"] = []string{"client_secret_post"}
		},
		check: func(t *testing.T, f *fake) {
			tr := f.tokenReqs[0]
			if len(f.regs) != 1 || f.regs[0]["token_endpoint_auth_method"] != "client_secret_post" || tr.form.Get("client_secret") != "dynamic-secret-value" {
				t.Errorf("registrations %v, token request %+v", f.regs, tr)
			}
		},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			f.set(c.setup)
			browser(t)
			if _, err := login(t, f, c.cfg, nil); err != nil {
				t.Fatal(err)
			}
			f.set(func(f *fake) { c.check(t, f) })
		})
	}
}

func TestScopeSelection(t *testing.T) {
	prmPath := "/.well-known/oauth-protected-resource/mcp"
	cases := []struct {
		name  string
		cfg   oauth.Config
		setup func(f *fake)
		want  string // scope parameter; "-" for none
	}{
		{"challenge's scope first, the configured ones added", oauth.Config{Settings: oauth.Settings{Scopes: []string{"cfg", "from:header"}}}, func(f *fake) {
			f.wwwAuth += `, scope="from:header"`
			f.docs[prmPath].(map[string]any)["scopes_supported"] = []string{"a", "b"}
		}, "from:header cfg"},
		{"configured scopes next", oauth.Config{Settings: oauth.Settings{Scopes: []string{"cfg1", "cfg2"}}}, func(f *fake) {
			f.docs[prmPath].(map[string]any)["scopes_supported"] = []string{"a", "b"}
		}, "cfg1 cfg2"},
		{"everything the resource supports", oauth.Config{}, func(f *fake) {
			f.docs[prmPath].(map[string]any)["scopes_supported"] = []string{"a", "b"}
		}, "a b"},
		{"omitted when nothing names one", oauth.Config{}, func(*fake) {}, "-"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			f.set(c.setup)
			browser(t)
			if _, err := login(t, f, c.cfg, nil); err != nil {
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

func TestStepUp(t *testing.T) {
	f := newFake(t)
	f.set(func(f *fake) { f.wwwAuth += `, scope="read"` })
	browser(t)
	a, err := login(t, f, oauth.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.set(func(f *fake) { f.need = []string{"read", "write"} })
	var reported error
	tr := &oauth.Transport{Auth: a, OnNeedsLogin: func(err error) { reported = err }}
	if _, err := f.call(t, tr, `{}`); !errors.Is(err, oauth.ErrNeedsLogin) || !errors.Is(reported, oauth.ErrNeedsLogin) {
		t.Fatalf("403 insufficient_scope: err %v, reported %v", err, reported)
	}
	if ch := a.Challenge(); ch == nil || ch.Error() != "insufficient_scope" {
		t.Fatalf("challenge not kept for the next login: %+v", ch)
	}
	if err := a.Login(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	f.set(func(f *fake) {
		if got := f.authorizeQ[1].Get("scope"); got != "read write" {
			t.Errorf("step-up asked for %q, want the granted and the new scopes", got)
		}
	})
	if resp, err := f.call(t, tr, `{}`); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("after step-up: %v %v", resp, err)
	}

	// A server still refusing scopes the token has: a login would ask for
	// the same again, so it is reported as such instead of looping.
	f.set(func(f *fake) {
		f.need = []string{"write"}
		for tok, s := range f.issued {
			if s == "read write" {
				f.issued[tok] = "read" // the server's view now differs from the grant
			}
		}
	})
	reported = nil
	if _, err := f.call(t, tr, `{}`); !errors.Is(err, oauth.ErrInsufficientScope) || reported != nil {
		t.Errorf("a scope the token already has: err %v, reported %v; want ErrInsufficientScope, nothing reported", err, reported)
	}
}

func TestRefresh(t *testing.T) {
	t.Run("before expiry", func(t *testing.T) {
		f := newFake(t)
		browser(t)
		store := oauth.NewMemoryStore()
		if _, err := login(t, f, oauth.Config{}, store); err != nil {
			t.Fatal(err)
		}
		restamp(t, store, time.Hour, 30*time.Second) // the 1 h token is about to expire
		a := oauth.New(oauth.Config{Server: "srv", URL: f.URL + "/mcp"}, store)
		if resp, err := f.call(t, &oauth.Transport{Auth: a}, `{}`); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%v %v", resp, err)
		}
		f.set(func(f *fake) {
			last := f.tokenReqs[len(f.tokenReqs)-1].form
			if last.Get("grant_type") != "refresh_token" || last.Get("refresh_token") != "refresh-1-secretvalue" || last.Get("resource") != f.URL+"/mcp" {
				t.Errorf("refresh request %v", last)
			}
			if got := f.mcpSeen[len(f.mcpSeen)-1].auth; got != "Bearer access-2-secretvalue" {
				t.Errorf("sent %q, want the refreshed token", got)
			}
		})
	})
	t.Run("after the server refused the token", func(t *testing.T) {
		f := newFake(t)
		browser(t)
		a, err := login(t, f, oauth.Config{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		f.set(func(f *fake) { f.refuse["access-1-secretvalue"] = true }) // revoked early
		called := false
		tr := &oauth.Transport{Auth: a, OnNeedsLogin: func(error) { called = true }}
		resp, err := f.call(t, tr, `{"body":"kept whole"}`)
		if err != nil || resp.StatusCode != http.StatusOK || called {
			t.Fatalf("%v %v (needs login reported: %v)", resp, err, called)
		}
		f.set(func(f *fake) {
			last := f.mcpSeen[len(f.mcpSeen)-1]
			if last.auth != "Bearer access-2-secretvalue" || last.body != `{"body":"kept whole"}` {
				t.Errorf("retry sent %+v", last)
			}
		})
	})
	t.Run("refresh token refused", func(t *testing.T) {
		f := newFake(t)
		browser(t)
		store := oauth.NewMemoryStore()
		a, err := login(t, f, oauth.Config{}, store)
		if err != nil {
			t.Fatal(err)
		}
		f.set(func(f *fake) {
			f.refuse["access-1-secretvalue"] = true
			f.refresh = map[string]string{} // the refresh token was revoked too
		})
		var reported error
		tr := &oauth.Transport{Auth: a, OnNeedsLogin: func(err error) { reported = err }}
		if _, err := f.call(t, tr, `{}`); !errors.Is(err, oauth.ErrNeedsLogin) || !errors.Is(reported, oauth.ErrNeedsLogin) {
			t.Fatalf("err %v, reported %v", err, reported)
		}
		raw, _ := store.Get(oauth.KeyFor("srv"))
		var rec map[string]any
		_ = json.Unmarshal([]byte(raw), &rec)
		if rec["refresh_token"] != nil || rec["access_token"] != "" {
			t.Errorf("a refused refresh token is kept: %v", rec)
		}
	})
}

func TestConfiguredAuthorizationHeaderWins(t *testing.T) {
	f := newFake(t)
	a := oauth.New(oauth.Config{Server: "srv", URL: f.URL + "/mcp"}, nil)
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, f.URL+"/mcp", strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Bearer configured")
	called := false
	resp, err := (&oauth.Transport{Auth: a, OnNeedsLogin: func(error) { called = true }}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || called || a.Challenge() != nil {
		t.Errorf("status %d, needs login reported %v: the user's header must pass untouched", resp.StatusCode, called)
	}
}

func TestLoginAgainReusesTheRegistration(t *testing.T) {
	f := newFake(t)
	browser(t)
	a, err := login(t, f, oauth.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// No challenge is kept after a login: the second one asks the server.
	if err := a.Login(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	f.set(func(f *fake) {
		if len(f.regs) != 1 || len(f.authorizeQ) != 2 || f.authorizeQ[0].Get("redirect_uri") != f.authorizeQ[1].Get("redirect_uri") {
			t.Errorf("%d registrations; redirect URIs %q and %q: want one registration, reused on its port",
				len(f.regs), f.authorizeQ[0].Get("redirect_uri"), f.authorizeQ[len(f.authorizeQ)-1].Get("redirect_uri"))
		}
	})
}
