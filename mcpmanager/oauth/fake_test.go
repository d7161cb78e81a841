package oauth_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
)

// fake is a protected MCP endpoint (/mcp) and its authorization server on
// one loopback httptest server. Tests change its documents and behaviour
// before use, and read what it recorded afterwards.
type fake struct {
	t   *testing.T
	srv *httptest.Server
	URL string

	mu sync.Mutex
	// behaviour
	docs      map[string]any // GET path → JSON document
	wwwAuth   string         // 401 challenge of /mcp
	need      []string       // scopes /mcp requires (403 insufficient_scope otherwise)
	state     string         // if set, the redirect carries this state instead of the request's
	iss       string         // if set, the redirect carries this RFC 9207 issuer
	tokenFail string         // if set, the token endpoint answers this OAuth error
	grant     *string        // if set, the scope granted whatever was asked
	refuse    map[string]bool
	// records
	gets       []string
	authorizeQ []url.Values
	tokenReqs  []tokenReq
	regs       []map[string]any
	regPaths   []string // where each registration was posted
	authPaths  []string // where each authorization request went
	tokenPaths []string // where each token request went
	challenge  string
	issued     map[string]string // access token → scope
	refresh    map[string]string // refresh token → scope
	mcpSeen    []mcpReq
	n          int
}

type tokenReq struct {
	form       url.Values
	user, pass string
	basic      bool
}

type mcpReq struct {
	auth, body string
}

func newFake(t *testing.T) *fake {
	t.Helper()
	f := &fake{t: t, docs: map[string]any{}, issued: map[string]string{}, refresh: map[string]string{}, refuse: map[string]bool{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	f.URL = f.srv.URL
	f.docs["/.well-known/oauth-protected-resource/mcp"] = map[string]any{
		"resource": f.URL + "/mcp", "authorization_servers": []string{f.URL},
	}
	f.docs["/.well-known/oauth-authorization-server"] = f.metadata("")
	f.wwwAuth = `Bearer resource_metadata="` + f.URL + `/.well-known/oauth-protected-resource/mcp"`
	return f
}

// metadata is RFC 8414 metadata for the issuer at prefix.
func (f *fake) metadata(prefix string) map[string]any {
	return map[string]any{
		"issuer":                                f.URL + prefix,
		"authorization_endpoint":                f.URL + prefix + "/authorize",
		"token_endpoint":                        f.URL + prefix + "/token",
		"registration_endpoint":                 f.URL + prefix + "/register",
		"response_types_supported":              []string{"code"},
		"code_challenge_methods_supported":      []string{"S256"},
		"token_endpoint_auth_methods_supported": []string{"none"},
	}
}

func (f *fake) set(fn func(f *fake)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f)
}

func (f *fake) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	defer f.mu.Unlock()
	path := r.URL.Path
	writeJSON := func(status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	switch {
	case path == "/mcp" || strings.HasSuffix(path, "/mcp") && !strings.Contains(path, ".well-known"):
		auth := r.Header.Get("Authorization")
		f.mcpSeen = append(f.mcpSeen, mcpReq{auth, string(body)})
		tok := strings.TrimPrefix(auth, "Bearer ")
		scope, ok := f.issued[tok]
		if !ok || f.refuse[tok] {
			w.Header().Set("WWW-Authenticate", f.wwwAuth)
			writeJSON(http.StatusUnauthorized, map[string]string{"error": "invalid_token"})
			return
		}
		if !subset(f.need, strings.Fields(scope)) {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope="%s", resource_metadata="%s/.well-known/oauth-protected-resource/mcp"`, strings.Join(f.need, " "), f.URL))
			writeJSON(http.StatusForbidden, map[string]string{"error": "insufficient_scope"})
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body) // echo: the test sees its request arrived whole
	case r.Method == http.MethodGet && strings.HasSuffix(path, "/authorize"):
		q := r.URL.Query()
		f.authorizeQ = append(f.authorizeQ, q)
		f.authPaths = append(f.authPaths, path)
		f.challenge = q.Get("code_challenge")
		back, err := url.Parse(q.Get("redirect_uri"))
		if err != nil {
			http.Error(w, "bad redirect_uri", http.StatusBadRequest)
			return
		}
		bq := back.Query()
		bq.Set("code", "code-1")
		bq.Set("state", q.Get("state"))
		if f.state != "" {
			bq.Set("state", f.state)
		}
		if f.iss != "" {
			bq.Set("iss", f.iss)
		}
		back.RawQuery = bq.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	case r.Method == http.MethodPost && strings.HasSuffix(path, "/token"):
		form, _ := url.ParseQuery(string(body))
		tr := tokenReq{form: form}
		tr.user, tr.pass, tr.basic = r.BasicAuth()
		f.tokenReqs = append(f.tokenReqs, tr)
		f.tokenPaths = append(f.tokenPaths, path)
		if f.tokenFail != "" {
			writeJSON(http.StatusBadRequest, map[string]string{"error": f.tokenFail})
			return
		}
		var scope string
		switch form.Get("grant_type") {
		case "authorization_code":
			sum := sha256.Sum256([]byte(form.Get("code_verifier")))
			if form.Get("code") != "code-1" || base64.RawURLEncoding.EncodeToString(sum[:]) != f.challenge {
				writeJSON(http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "PKCE verification failed"})
				return
			}
			scope = f.authorizeQ[len(f.authorizeQ)-1].Get("scope")
		case "refresh_token":
			s, ok := f.refresh[form.Get("refresh_token")]
			if !ok {
				writeJSON(http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
				return
			}
			scope = s
		default:
			writeJSON(http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
			return
		}
		if f.grant != nil {
			scope = *f.grant
		}
		f.n++
		at, rt := fmt.Sprintf("access-%d-secretvalue", f.n), fmt.Sprintf("refresh-%d-secretvalue", f.n)
		f.issued[at], f.refresh[rt] = scope, scope
		writeJSON(http.StatusOK, map[string]any{"access_token": at, "token_type": "Bearer", "expires_in": 3600, "refresh_token": rt, "scope": scope})
	case r.Method == http.MethodPost && strings.HasSuffix(path, "/register"):
		var reg map[string]any
		_ = json.Unmarshal(body, &reg)
		f.regs = append(f.regs, reg)
		f.regPaths = append(f.regPaths, path)
		// Each authorization server (path prefix) hands out its own client ID.
		writeJSON(http.StatusCreated, map[string]any{"client_id": "dynamic-client" + strings.TrimSuffix(path, "/register"), "client_secret": "dynamic-secret-value", "token_endpoint_auth_method": reg["token_endpoint_auth_method"]})
	case r.Method == http.MethodGet:
		f.gets = append(f.gets, path)
		if doc, ok := f.docs[path]; ok {
			writeJSON(http.StatusOK, doc)
			return
		}
		http.NotFound(w, r)
	default:
		http.NotFound(w, r)
	}
}

// call sends one request to /mcp through an oauth.Transport.
func (f *fake) call(t *testing.T, tr *oauth.Transport, body string) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, f.URL+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := tr.RoundTrip(req)
	if err == nil {
		t.Cleanup(func() { resp.Body.Close() })
	}
	return resp, err
}

func subset(want, have []string) bool {
	for _, s := range want {
		if !slices.Contains(have, s) {
			return false
		}
	}
	return true
}

// browserLog is what the stand-in browser did.
type browserLog struct {
	opens int
	page  string // the loopback callback's page
}

// browser replaces oauth.OpenBrowser with one that follows the authorization
// server's redirect over HTTP, as a browser would, and logs what it did.
func browser(t *testing.T) *browserLog {
	t.Helper()
	log := &browserLog{}
	prev := oauth.OpenBrowser
	t.Cleanup(func() { oauth.OpenBrowser = prev })
	oauth.OpenBrowser = func(ctx context.Context, authURL string) error {
		log.opens++
		hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		get := func(u string) (*http.Response, error) {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
			return hc.Do(req)
		}
		resp, err := get(authURL)
		if err != nil {
			return err
		}
		resp.Body.Close()
		resp, err = get(resp.Header.Get("Location"))
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		log.page = string(b)
		return err
	}
	return log
}
