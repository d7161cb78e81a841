package oauth_test

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
)

// freePort is a loopback port nothing listens on.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func shortLogin(t *testing.T) {
	t.Helper()
	prev := oauth.LoginTimeout
	oauth.LoginTimeout = time.Second
	t.Cleanup(func() { oauth.LoginTimeout = prev })
}

// An authorization server that forgot the dynamic registration Switchboard
// stored (servers purge them) must not leave the login failing forever:
// the registration is dropped and made again, at once when the server
// says so, else at the next login.
func TestStaleRegistration(t *testing.T) {
	cases := []struct {
		name  string
		setup func(f *fake)
		// relogin runs after the first login (whose client the server
		// then forgets) and reports the error of the login that must work.
		relogin func(t *testing.T, f *fake, a *oauth.Authorizer) error
		opens   int
	}{{
		name:  "a refresh refused with invalid_client: the next login registers again",
		setup: func(f *fake) {},
		relogin: func(t *testing.T, f *fake, a *oauth.Authorizer) error {
			f.set(func(f *fake) { f.refuse["access-1-secretvalue"] = true })
			if _, err := f.call(t, &oauth.Transport{Auth: a}, `{}`); !errors.Is(err, oauth.ErrNeedsLogin) {
				t.Fatalf("request after the refused refresh: %v", err)
			}
			return a.Login(t.Context(), nil)
		},
		opens: 2,
	}, {
		name:  "the login redirected with invalid_client: registered again at once",
		setup: func(f *fake) { f.unknownRedirect = true },
		relogin: func(t *testing.T, f *fake, a *oauth.Authorizer) error {
			return a.Login(t.Context(), nil)
		},
		opens: 3,
	}, {
		name:  "the token endpoint refused the client: registered again at once",
		setup: func(f *fake) { f.lenient = true },
		relogin: func(t *testing.T, f *fake, a *oauth.Authorizer) error {
			return a.Login(t.Context(), nil)
		},
		opens: 3,
	}, {
		name:  "the login page said the client is unknown: the next login registers again",
		setup: func(f *fake) {},
		relogin: func(t *testing.T, f *fake, a *oauth.Authorizer) error {
			err := a.Login(t.Context(), nil)
			if !errors.Is(err, oauth.ErrTimeout) || !strings.Contains(err.Error(), "registers itself anew") {
				t.Errorf("the login whose page never came back: %v", err)
			}
			return a.Login(t.Context(), nil)
		},
		opens: 3,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			shortLogin(t) // a login that reuses the forgotten client would wait for the browser
			f := newFake(t)
			f.set(func(f *fake) {
				f.clients, f.forget = map[string]bool{}, true
				c.setup(f)
			})
			b := browser(t)
			a, err := login(t, f, oauth.Config{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			f.set(func(f *fake) { f.forget = false })
			if err := c.relogin(t, f, a); err != nil {
				t.Fatalf("login after the server forgot the registration: %v", err)
			}
			if resp, err := f.call(t, &oauth.Transport{Auth: a}, `{}`); err != nil || resp.StatusCode != http.StatusOK {
				t.Errorf("request after the login: %v %v", resp, err)
			}
			f.set(func(f *fake) {
				if len(f.regs) != 2 || b.Opens() != c.opens {
					t.Errorf("%d registrations, %d browser opens; want 2 and %d", len(f.regs), b.Opens(), c.opens)
				}
			})
		})
	}
}

// The redirect URI is sent exactly as the entry gives it: Claude Code's
// callbackPort means http://localhost:PORT/callback (config turns it into
// that redirectUri), and providers such as Slack compare it exactly.
func TestRedirectURI(t *testing.T) {
	cases := []struct {
		name     string
		settings func(port int) oauth.Settings
		want     string // %d: the port
		err      string
	}{
		{"redirectUri on localhost", func(p int) oauth.Settings {
			return oauth.Settings{RedirectURI: fmt.Sprintf("http://localhost:%d/callback", p)}
		}, "http://localhost:%d/callback", ""},
		{"redirectUri with a path of its own", func(p int) oauth.Settings {
			return oauth.Settings{RedirectURI: fmt.Sprintf("http://127.0.0.1:%d/oauth/done", p)}
		}, "http://127.0.0.1:%d/oauth/done", ""},
		{"redirectPort on 127.0.0.1", func(p int) oauth.Settings { return oauth.Settings{RedirectPort: p} }, "http://127.0.0.1:%d/callback", ""},
		{"a redirectUri off this machine", func(int) oauth.Settings {
			return oauth.Settings{RedirectURI: "http://example.com:8765/callback"}
		}, "", `correct "oauth.redirectUri"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			browser(t)
			port := freePort(t)
			_, err := login(t, f, oauth.Config{Settings: c.settings(port)}, nil)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf(c.want, port)
			f.set(func(f *fake) {
				if got := f.authorizeQ[0].Get("redirect_uri"); got != want {
					t.Errorf("authorization request's redirect_uri %q, want %q", got, want)
				}
				if got := f.tokenReqs[0].form.Get("redirect_uri"); got != want {
					t.Errorf("token request's redirect_uri %q, want %q", got, want)
				}
				if got := f.regs[0]["redirect_uris"].([]any)[0]; got != want {
					t.Errorf("registered %q, want %q", got, want)
				}
			})
		})
	}
}

// The entry's clientMetadataUrl is offered as the client ID to an
// authorization server that accepts client ID metadata documents.
func TestClientMetadataURLFromTheEntry(t *testing.T) {
	f := newFake(t)
	f.set(func(f *fake) { f.docs[asMetaPath].(map[string]any)["client_id_metadata_document_supported"] = true })
	browser(t)
	doc := "https://app.example/switchboard.json"
	if _, err := login(t, f, oauth.Config{Settings: oauth.Settings{ClientMetadataURL: doc}}, nil); err != nil {
		t.Fatal(err)
	}
	f.set(func(f *fake) {
		if got := f.authorizeQ[0].Get("client_id"); got != doc || len(f.regs) != 0 {
			t.Errorf("client_id %q after %d registrations, want the metadata document", got, len(f.regs))
		}
	})
}

// The browser's tab tells how the login ended, after the code's exchange:
// never "Logged in" for a login the token endpoint then refused.
func TestCallbackPageTellsTheOutcome(t *testing.T) {
	cases := []struct {
		name     string
		fail     string
		page     []string
		notPage  string
		loggedIn bool
	}{
		{"logged in", "", []string{"Logged in to srv", "You can close this tab"}, "failed", true},
		{"the exchange failed", "invalid_grant", []string{"Login to srv failed", "invalid_grant"}, "Logged in", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			f.set(func(f *fake) { f.tokenFail = c.fail })
			b := browser(t)
			a, err := login(t, f, oauth.Config{}, nil)
			if (err == nil) != c.loggedIn || a.LoggedIn() != c.loggedIn {
				t.Fatalf("login: %v (logged in: %v)", err, a.LoggedIn())
			}
			page := b.Page()
			for _, w := range c.page {
				if !strings.Contains(page, w) {
					t.Errorf("the page lacks %q:\n%s", w, page)
				}
			}
			if strings.Contains(page, c.notPage) {
				t.Errorf("the page says %q:\n%s", c.notPage, page)
			}
		})
	}
}

// Microsoft Entra ID v2 refuses the RFC 8707 resource parameter: the
// entry's "resource": false leaves it out, and the refusal says so.
func TestResourceParameter(t *testing.T) {
	cases := []struct {
		name     string
		settings oauth.Settings
		setup    func(f *fake)
		err      string // "" for a login
	}{
		{"left out when the entry says so", oauth.Settings{NoResource: true}, func(*fake) {}, ""},
		{"Entra ID's refusal at the token endpoint", oauth.Settings{}, func(f *fake) {
			f.tokenFail, f.tokenDesc = "invalid_request", "AADSTS9010010: The resource parameter provided in the request doesn't match with the requested scopes."
		}, `add "resource": false to the server's "oauth" entry`},
		{"invalid_target in the redirect", oauth.Settings{}, func(f *fake) { f.deny = "invalid_target" }, `add "resource": false`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			f.set(c.setup)
			browser(t)
			a, err := login(t, f, oauth.Config{Settings: c.settings}, nil)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			f.set(func(f *fake) { f.refuse["access-1-secretvalue"] = true }) // a refresh follows
			if resp, err := f.call(t, &oauth.Transport{Auth: a}, `{}`); err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("%v %v", resp, err)
			}
			f.set(func(f *fake) {
				if f.authorizeQ[0].Has("resource") {
					t.Error("the authorization request carries resource")
				}
				for _, tr := range f.tokenReqs {
					if tr.form.Has("resource") {
						t.Errorf("the %s request carries resource", tr.form.Get("grant_type"))
					}
				}
			})
		})
	}
}

// A server whose RFC 8414 document omits S256 but whose OpenID
// configuration lists it is logged in to; one where no document lists it
// is refused, naming what is missing where.
func TestS256FromTheNextDocument(t *testing.T) {
	const oidc = "/.well-known/openid-configuration"
	cases := []struct {
		name  string
		setup func(f *fake)
		err   string
	}{
		{"OpenID configuration lists it", func(f *fake) {
			delete(f.docs[asMetaPath].(map[string]any), "code_challenge_methods_supported")
			f.docs[oidc] = f.metadata("")
		}, ""},
		{"no document lists it", func(f *fake) {
			delete(f.docs[asMetaPath].(map[string]any), "code_challenge_methods_supported")
			f.docs[oidc] = f.metadata("")
			delete(f.docs[oidc].(map[string]any), "code_challenge_methods_supported")
		}, asMetaPath + " and "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			f.set(c.setup)
			browser(t)
			_, err := login(t, f, oauth.Config{}, nil)
			if c.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, oauth.ErrNoPKCE) || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), oidc+" lists no S256 in code_challenge_methods_supported") {
				t.Fatalf("err = %v, want ErrNoPKCE naming both documents", err)
			}
		})
	}
}

// Without dynamic registration the error says how to register by hand:
// the redirect URI to register, and the entry's fields.
func TestNoClientSaysHowToRegister(t *testing.T) {
	cases := []struct {
		name     string
		settings oauth.Settings
		want     []string
	}{
		{"any port", oauth.Settings{}, []string{"pick a free port", "http://127.0.0.1:PORT/callback", `"redirectPort": PORT`, `"clientId"`, `"clientSecret": "${secret:NAME}"`, "Details → OAuth client"}},
		{"the entry's redirect URI", oauth.Settings{RedirectURI: "http://localhost:8765/callback"}, []string{"with the redirect URI http://localhost:8765/callback", `"clientId"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			f.set(func(f *fake) { delete(f.docs[asMetaPath].(map[string]any), "registration_endpoint") })
			browser(t)
			_, err := login(t, f, oauth.Config{Settings: c.settings}, nil)
			if !errors.Is(err, oauth.ErrNoClient) {
				t.Fatalf("err = %v, want ErrNoClient", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %v\nlacks %q", err, w)
				}
			}
		})
	}
}

// An error redirect without the state (servers leave it out) reports the
// server's error, its code and description joined by ": ".
func TestDeniedWithoutState(t *testing.T) {
	f := newFake(t)
	f.set(func(f *fake) { f.deny = "access_denied" })
	b := browser(t)
	_, err := login(t, f, oauth.Config{}, nil)
	var de *oauth.DeniedError
	if !errors.Is(err, oauth.ErrDenied) || !errors.As(err, &de) || errors.Is(err, oauth.ErrStateMismatch) ||
		!strings.Contains(err.Error(), "refused the login: access_denied: The user denied the request") {
		t.Fatalf("err = %v, want the server's access_denied", err)
	}
	if page := b.Page(); !strings.Contains(page, "access_denied: The user denied the request") {
		t.Errorf("page:\n%s", page)
	}
}
