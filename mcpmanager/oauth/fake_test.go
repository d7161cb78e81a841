package oauth_test

import (
	"cmp"
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
	tokenDesc string         // ... with this error_description
	grant     *string        // if set, the scope granted whatever was asked
	refuse    map[string]bool
	expiresIn any  // expires_in of the tokens issued (3600 when nil)
	rotate    bool // a refresh token works once (rotation)
	// tokenBody, if set, writes the token endpoint's success answer.
	tokenBody func(w http.ResponseWriter, at, rt, scope string)
	// forget: the authorization server forgets its registrations after
	// each code exchange (servers that purge them); a client it does not
	// know gets invalid_client at the token endpoint and, at the
	// authorization endpoint, a page of its own (no redirect) or, with
	// unknownRedirect, a redirect with error=invalid_client.
	forget          bool
	unknownRedirect bool
	lenient         bool            // ... but its authorization endpoint takes any client
	clients         map[string]bool // the registrations it knows (when forget is used)
	deny            string          // if set, the redirect carries this error and no state
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
		if f.clients != nil && !f.clients[q.Get("client_id")] && !f.lenient {
			if !f.unknownRedirect {
				http.Error(w, "unknown client "+q.Get("client_id"), http.StatusBadRequest)
				return
			}
			bq.Set("error", "invalid_client")
			bq.Set("state", q.Get("state"))
			back.RawQuery = bq.Encode()
			http.Redirect(w, r, back.String(), http.StatusFound)
			return
		}
		if f.deny != "" {
			bq.Set("error", f.deny)
			bq.Set("error_description", "The user denied the request")
			back.RawQuery = bq.Encode()
			http.Redirect(w, r, back.String(), http.StatusFound)
			return
		}
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
			writeJSON(http.StatusBadRequest, map[string]string{"error": f.tokenFail, "error_description": f.tokenDesc})
			return
		}
		if id := cmp.Or(form.Get("client_id"), tr.user); f.clients != nil && !f.clients[id] {
			writeJSON(http.StatusUnauthorized, map[string]string{"error": "invalid_client", "error_description": "unknown client " + id})
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
			if f.rotate {
				delete(f.refresh, form.Get("refresh_token"))
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
		if f.forget && form.Get("grant_type") == "authorization_code" {
			clear(f.clients)
		}
		if f.tokenBody != nil {
			f.tokenBody(w, at, rt, scope)
			return
		}
		writeJSON(http.StatusOK, map[string]any{"access_token": at, "token_type": "Bearer", "expires_in": cmp.Or[any](f.expiresIn, 3600), "refresh_token": rt, "scope": scope})
	case r.Method == http.MethodPost && strings.HasSuffix(path, "/register"):
		var reg map[string]any
		_ = json.Unmarshal(body, &reg)
		f.regs = append(f.regs, reg)
		f.regPaths = append(f.regPaths, path)
		// Each authorization server (path prefix) hands out its own client
		// ID; one that forgets them hands out a new one each time.
		id := "dynamic-client" + strings.TrimSuffix(path, "/register")
		if f.clients != nil {
			id = fmt.Sprintf("%s-%d", id, len(f.regs))
			f.clients[id] = true
		}
		writeJSON(http.StatusCreated, map[string]any{"client_id": id, "client_secret": "dynamic-secret-value", "token_endpoint_auth_method": reg["token_endpoint_auth_method"]})
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
	mu    sync.Mutex
	wg    sync.WaitGroup
	opens int
	page  string // the loopback callback's last page
}

// Opens is how often the browser was opened.
func (b *browserLog) Opens() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.opens
}

// Page is the last callback page, once the browser has read it.
func (b *browserLog) Page() string {
	b.wg.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.page
}

// browser replaces oauth.OpenBrowser with one that follows the authorization
// server's redirect over HTTP, as a browser would, and logs what it did.
// Like a real browser it goes on after OpenBrowser returned: the callback's
// page comes once the login has ended.
func browser(t *testing.T) *browserLog {
	t.Helper()
	log := &browserLog{}
	prev := oauth.OpenBrowser
	t.Cleanup(func() { oauth.OpenBrowser = prev })
	oauth.OpenBrowser = func(_ context.Context, authURL string) error {
		log.mu.Lock()
		log.opens++
		log.mu.Unlock()
		log.wg.Add(1)
		defer log.wg.Done()
		hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := hc.Get(authURL)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.Header.Get("Location") == "" {
			return nil // the authorization server showed a page of its own
		}
		resp, err = hc.Get(resp.Header.Get("Location"))
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		log.mu.Lock()
		log.page = string(b)
		log.mu.Unlock()
		return err
	}
	return log
}
