package oauth_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
)

// restamp makes the stored token of "srv" one issued for lifetime that
// expires in left (no waiting for the clock).
func restamp(t *testing.T, store oauth.Store, lifetime, left time.Duration) {
	t.Helper()
	raw, err := store.Get(oauth.KeyFor("srv"))
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(raw), &rec); err != nil {
		t.Fatal(err)
	}
	rec["expires_at"], rec["lifetime"] = time.Now().Add(left), int64(lifetime/time.Second)
	b, _ := json.Marshal(rec)
	if err := store.Set(oauth.KeyFor("srv"), string(b)); err != nil {
		t.Fatal(err)
	}
}

// stored is the record the store holds for "srv".
func stored(t *testing.T, store oauth.Store) map[string]any {
	t.Helper()
	raw, _ := store.Get(oauth.KeyFor("srv"))
	var rec map[string]any
	_ = json.Unmarshal([]byte(raw), &rec)
	return rec
}

func TestRefreshAhead(t *testing.T) {
	cases := []struct {
		name            string
		lifetime, left  time.Duration
		refreshedBefore bool
	}{
		{"an hour's token a minute before expiry", time.Hour, 50 * time.Second, true},
		{"an hour's token well before expiry", time.Hour, 10 * time.Minute, false},
		{"a 45 s token with 40 s left is sent as it is", 45 * time.Second, 40 * time.Second, false},
		{"a 45 s token with a quarter of its life left", 45 * time.Second, 10 * time.Second, true},
		{"a record without its lifetime: a minute ahead", 0, 50 * time.Second, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			browser(t)
			store := oauth.NewMemoryStore()
			if _, err := login(t, f, oauth.Config{}, store); err != nil {
				t.Fatal(err)
			}
			restamp(t, store, c.lifetime, c.left)
			a := oauth.New(oauth.Config{Server: "srv", URL: f.URL + "/mcp"}, store)
			tr := &oauth.Transport{Auth: a}
			for range 3 {
				if resp, err := f.call(t, tr, `{}`); err != nil || resp.StatusCode != http.StatusOK {
					t.Fatalf("%v %v", resp, err)
				}
			}
			f.set(func(f *fake) {
				if refreshes := len(f.tokenReqs) - 1; refreshes != map[bool]int{true: 1, false: 0}[c.refreshedBefore] {
					t.Errorf("%d refreshes for 3 requests, want %v", refreshes, c.refreshedBefore)
				}
			})
		})
	}
}

// hookStore is a MemoryStore that runs a hook once, after the next Get
// read its value (while an Authorizer holds what it read): another
// process acting at that moment.
type hookStore struct {
	*oauth.MemoryStore
	mu   sync.Mutex
	hook func()
}

func (s *hookStore) Get(name string) (string, error) {
	v, err := s.MemoryStore.Get(name)
	s.mu.Lock()
	h := s.hook
	s.hook = nil
	s.mu.Unlock()
	if h != nil {
		h()
	}
	return v, err
}

func (s *hookStore) arm(h func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hook = h
}

// Two processes (the window and a CLI command) hold the same login, each
// its own copy; the server rotates refresh tokens. Whichever refreshes
// second must take the other's new pair, not refresh with the spent token
// and store an emptied login over it.
func TestRotatedRefreshTokenAcrossProcesses(t *testing.T) {
	cases := []struct {
		name string
		// cliRefreshes runs the CLI's refresh: before the window's
		// request, or while the window's refresh has read the store.
		during bool
	}{
		{"the CLI refreshed before the window's request", false},
		{"the CLI refreshed while the window was refreshing", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			f.set(func(f *fake) { f.rotate = true })
			browser(t)
			store := &hookStore{MemoryStore: oauth.NewMemoryStore()}
			window, err := login(t, f, oauth.Config{}, store)
			if err != nil {
				t.Fatal(err)
			}
			cli := oauth.New(oauth.Config{Server: "srv", URL: f.URL + "/mcp"}, store)
			if !cli.LoggedIn() || !window.LoggedIn() {
				t.Fatal("not logged in")
			}
			f.set(func(f *fake) { f.refuse["access-1-secretvalue"] = true }) // expired at the server
			cliCall := func() {
				if resp, err := f.call(t, &oauth.Transport{Auth: cli}, `{"from":"cli"}`); err != nil || resp.StatusCode != http.StatusOK {
					t.Errorf("CLI request: %v %v", resp, err)
				}
			}
			if c.during {
				store.arm(cliCall)
			} else {
				cliCall()
			}
			var asked error
			resp, err := f.call(t, &oauth.Transport{Auth: window, OnNeedsLogin: func(err error) { asked = err }}, `{"from":"window"}`)
			if err != nil || resp.StatusCode != http.StatusOK || asked != nil {
				t.Fatalf("window request: %v %v (login asked: %v)", resp, err, asked)
			}
			if rec := stored(t, store); rec["access_token"] != "access-2-secretvalue" || rec["refresh_token"] != "refresh-2-secretvalue" {
				t.Errorf("stored %v, want the CLI's new pair", rec)
			}
			cliCall() // the CLI is still logged in too
			f.set(func(f *fake) {
				if last := f.mcpSeen[len(f.mcpSeen)-1]; last.auth != "Bearer access-2-secretvalue" {
					t.Errorf("the CLI sent %q", last.auth)
				}
			})
		})
	}
}

// A login made by another process (the CLI's 'servers login' beside a
// running window or daemon) reaches Authorizers that read the store before
// it: a request, refused, finds the new token instead of asking for a
// login, and Reload (which the manager calls while a server needs a
// login) says so, once.
func TestLoginFromAnotherProcess(t *testing.T) {
	f := newFake(t)
	browser(t)
	store := oauth.NewMemoryStore()
	cfg := oauth.Config{Server: "srv", URL: f.URL + "/mcp"}
	daemon, window := oauth.New(cfg, store), oauth.New(cfg, store)
	if daemon.LoggedIn() || window.LoggedIn() || window.Reload() {
		t.Fatal("logged in before any login")
	}
	if _, err := login(t, f, oauth.Config{}, store); err != nil { // the CLI
		t.Fatal(err)
	}
	var asked error
	resp, err := f.call(t, &oauth.Transport{Auth: daemon, OnNeedsLogin: func(err error) { asked = err }}, `{}`)
	if err != nil || resp.StatusCode != http.StatusOK || asked != nil {
		t.Errorf("request after the CLI logged in: %v %v (login asked: %v)", resp, err, asked)
	}
	if !window.Reload() || window.Reload() || !window.LoggedIn() {
		t.Error("Reload did not report the new login once")
	}
}

func TestTokenAnswers(t *testing.T) {
	answer := func(contentType, body string) func(w http.ResponseWriter, at, rt, scope string) {
		return func(w http.ResponseWriter, at, rt, scope string) {
			w.Header().Set("Content-Type", contentType)
			_, _ = fmt.Fprintf(w, body, at, rt)
		}
	}
	const js = "application/json"
	cases := []struct {
		name        string
		body        func(w http.ResponseWriter, at, rt, scope string)
		err         string        // substring of the error; "" for a login
		notIn       string        // must not be in the error
		lifetime    time.Duration // of the stored token, when logged in
		oauthStatus int           // an *OAuthError with this status
	}{
		{"expires_in as a string (Entra ID, SAP)", answer(js, `{"access_token":"%s","refresh_token":"%s","token_type":"Bearer","expires_in":"5250"}`), "", "", 5250 * time.Second, 0},
		{"expires_in as a number", answer(js, `{"access_token":"%s","refresh_token":"%s","token_type":"Bearer","expires_in":60}`), "", "", time.Minute, 0},
		{"expires_in that is no number", answer(js, `{"access_token":"%s","refresh_token":"%s","token_type":"Bearer","expires_in":"soon"}`), `expires_in "soon" is not a number of seconds`, "holds no access_token", 0, 0},
		{"a field of the wrong type", answer(js, `{"access_token":"%s","refresh_token":"%s","token_type":"Bearer","scope":["a"]}`), "its scope is a JSON array", "holds no access_token", 0, 0},
		{"not JSON", answer("text/html", `<html>%s %s</html>`), `is not JSON (Content-Type "text/html")`, "access", 0, 0},
		{"an error with HTTP 200 (GitHub)", answer(js, `{"error":"bad_verification_code","error_description":"The code passed is incorrect or expired.%.0s%.0s"}`), "bad_verification_code (The code passed is incorrect or expired.)", "holds no access_token", 0, http.StatusOK},
		{"a form (GitHub without Accept: JSON)", answer("application/x-www-form-urlencoded", `access_token=%s&refresh_token=%s&token_type=bearer&scope=repo&expires_in=28800`), "", "", 8 * time.Hour, 0},
		{"no token_type: Bearer", answer(js, `{"access_token":"%s","refresh_token":"%s"}`), "", "", 0, 0},
		{"another token type", answer(js, `{"access_token":"%s","refresh_token":"%s","token_type":"mac"}`), `token type "mac" is not supported`, "", 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			f.set(func(f *fake) { f.tokenBody = c.body })
			browser(t)
			store := oauth.NewMemoryStore()
			a, err := login(t, f, oauth.Config{}, store)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || c.notIn != "" && strings.Contains(err.Error(), c.notIn) {
					t.Fatalf("err = %v, want %q (and not %q)", err, c.err, c.notIn)
				}
				var oe *oauth.OAuthError
				if c.oauthStatus != 0 && (!errors.As(err, &oe) || oe.Status != c.oauthStatus) {
					t.Errorf("err = %#v, want an OAuthError with HTTP %d", err, c.oauthStatus)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			rec := stored(t, store)
			if exp, _ := time.Parse(time.RFC3339Nano, fmt.Sprint(rec["expires_at"])); c.lifetime != 0 && (time.Until(exp) > c.lifetime || time.Until(exp) < c.lifetime-time.Minute) {
				t.Errorf("expires at %v, want in %v", rec["expires_at"], c.lifetime)
			}
			if resp, err := f.call(t, &oauth.Transport{Auth: a}, `{}`); err != nil || resp.StatusCode != http.StatusOK {
				t.Errorf("request with the token: %v %v", resp, err)
			}
			f.set(func(f *fake) {
				if got := f.mcpSeen[len(f.mcpSeen)-1].auth; !strings.HasPrefix(got, "Bearer access-") {
					t.Errorf("sent Authorization %q", got)
				}
			})
		})
	}
}

// Another process that changed only the details of the stored login while
// this one refreshed it (it noted the scopes a 403 asked for) loses
// neither those details nor this refresh's rotated pair.
func TestRefreshKeepsDetailsStoredMeanwhile(t *testing.T) {
	f := newFake(t)
	f.set(func(f *fake) { f.rotate = true })
	browser(t)
	store := &hookStore{MemoryStore: oauth.NewMemoryStore()}
	a, err := login(t, f, oauth.Config{}, store)
	if err != nil {
		t.Fatal(err)
	}
	f.set(func(f *fake) { f.refuse["access-1-secretvalue"] = true })
	store.arm(func() {
		rec := stored(t, store)
		rec["step_up"] = "write"
		b, _ := json.Marshal(rec)
		_ = store.Set(oauth.KeyFor("srv"), string(b))
	})
	if resp, err := f.call(t, &oauth.Transport{Auth: a}, `{}`); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%v %v", resp, err)
	}
	if rec := stored(t, store); rec["refresh_token"] != "refresh-2-secretvalue" || rec["step_up"] != "write" {
		t.Errorf("stored %v, want the new pair and the step-up", rec)
	}
}
