package oauth_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
)

// elsewhere is a second origin that records everything it is sent.
type elsewhere struct {
	URL  string
	mu   sync.Mutex
	seen []string // "METHOD path Authorization body"
}

func newElsewhere(t *testing.T) *elsewhere {
	t.Helper()
	e := &elsewhere{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		e.mu.Lock()
		e.seen = append(e.seen, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization")+" "+string(body))
		e.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"access_token":"stolen","token_type":"bearer"}`))
	}))
	t.Cleanup(srv.Close)
	e.URL = srv.URL
	return e
}

func (e *elsewhere) requests() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.seen...)
}

// redirector answers every request with a 307 to target (+ the path), and
// /mcp with 200 when ok is set.
func redirector(t *testing.T, target string, ok bool) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ok && r.URL.Path == "/mcp" {
			w.WriteHeader(http.StatusOK)
			return
		}
		http.Redirect(w, r, target+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func storeWith(t *testing.T, server string, rec map[string]any) oauth.Store {
	t.Helper()
	b, _ := json.Marshal(rec)
	st := oauth.NewMemoryStore()
	if err := st.Set(oauth.KeyFor(server), string(b)); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestTokenStaysWithItsOrigin: a redirect to another origin never gets the
// bearer token, whatever client follows it.
func TestTokenStaysWithItsOrigin(t *testing.T) {
	e := newElsewhere(t)
	base := redirector(t, e.URL, false)
	a := oauth.New(oauth.Config{Server: "srv", URL: base + "/mcp"}, storeWith(t, "srv", map[string]any{
		"server_url": base + "/mcp", "access_token": "secret-token", "token_type": "Bearer",
	}))
	hc := &http.Client{Transport: &oauth.Transport{Auth: a}} // follows redirects
	resp, err := hc.Post(base+"/mcp", "application/json", strings.NewReader(`{}`))
	if err == nil {
		resp.Body.Close()
	}
	if !errors.Is(err, oauth.ErrOtherOrigin) || !strings.Contains(err.Error(), e.URL+"/mcp") {
		t.Errorf("err %v, want ErrOtherOrigin naming %s/mcp", err, e.URL)
	}
	if got := e.requests(); len(got) != 0 {
		t.Errorf("the other origin was sent %q", got)
	}
}

// TestTokenEndpointRedirect: a token endpoint that redirects the refresh
// POST elsewhere does not get the refresh token replayed there.
func TestTokenEndpointRedirect(t *testing.T) {
	e := newElsewhere(t)
	base := redirector(t, e.URL, true)
	a := oauth.New(oauth.Config{Server: "srv", URL: base + "/mcp"}, storeWith(t, "srv", map[string]any{
		"server_url": base + "/mcp", "token_endpoint": base + "/token",
		"client":       map[string]any{"client_id": "c", "client_secret": "client-secret", "auth_method": "client_secret_post", "dynamic": true},
		"access_token": "old", "refresh_token": "refresh-secret", "token_type": "Bearer",
		"expires_at": time.Now().Add(-time.Hour),
	}))
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, base+"/mcp", strings.NewReader(`{}`))
	resp, err := (&oauth.Transport{Auth: a}).RoundTrip(req) // refreshes first
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for _, r := range e.requests() {
		if strings.Contains(r, "refresh-secret") || strings.Contains(r, "client-secret") {
			t.Errorf("the other origin got the login's secrets: %q", r)
		}
	}
}

// TestLowerCaseBearer: the Bearer scheme is case-insensitive, in a
// challenge and as a token's token_type.
func TestLowerCaseBearer(t *testing.T) {
	var mu sync.Mutex
	var sent string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/token" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"access_token":"fresh","token_type":"bearer","expires_in":3600}`))
			return
		}
		mu.Lock()
		sent = r.Header.Get("Authorization")
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	a := oauth.New(oauth.Config{Server: "srv", URL: srv.URL + "/mcp"}, storeWith(t, "srv", map[string]any{
		"server_url": srv.URL + "/mcp", "token_endpoint": srv.URL + "/token", "client": map[string]any{"client_id": "c", "auth_method": "none"},
		"access_token": "old", "refresh_token": "r", "token_type": "bearer", "expires_at": time.Now().Add(-time.Hour),
	}))
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/mcp", nil)
	resp, err := (&oauth.Transport{Auth: a}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	mu.Lock()
	defer mu.Unlock()
	if sent != "Bearer fresh" {
		t.Errorf("sent Authorization %q, want the refreshed token (token_type \"bearer\" accepted)", sent)
	}

	for _, h := range []string{`bearer scope="a b"`, `BEARER scope="a b"`, `Basic realm="x", bearer scope="a b"`} {
		resp := &http.Response{StatusCode: http.StatusUnauthorized, Header: http.Header{"Www-Authenticate": {h}}}
		if got := oauth.ParseChallenge(resp).Scopes(); len(got) != 2 {
			t.Errorf("%s: scopes %q", h, got)
		}
	}
}
