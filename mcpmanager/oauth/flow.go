package oauth

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Login runs the authorization-code flow in the user's browser and stores
// the tokens. It uses the last challenge the server sent (see Transport);
// without one it asks the server for it. show, when not nil, gets the
// authorization URL before the browser opens, so the caller can offer it as
// a link in case no browser does. Login returns when the browser came back to
// the loopback redirect, ctx ends, or LoginTimeout passes.
func (a *Authorizer) Login(ctx context.Context, show func(authURL string)) error {
	a.loginMu.Lock()
	defer a.loginMu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, LoginTimeout)
	defer cancel()

	ch := a.Challenge()
	if ch == nil {
		ch = a.probe(ctx)
	}
	p, err := a.discover(ctx, ch)
	if err != nil {
		return err
	}
	a.mu.Lock()
	stepUp := a.stepUp
	a.mu.Unlock()
	scopes := a.selectScopes(ch, p, stepUp)

	state, verifier := randomString(), randomString()
	// RFC 9207 / MCP 2026-07-28: the issuer is recorded from the validated
	// metadata before the browser opens; the answer's "iss" must equal it.
	iss := issuerCheck{issuer: p.meta.Issuer, required: p.meta.IssParameterSupported}
	if iss.issuer == "" {
		iss.issuer = p.issuer
	}
	port, fixed := a.callbackPort(p.issuer)
	cb, err := listenLoopback(port, fixed, state, iss, a.cfg.Server)
	if err != nil {
		return err
	}
	defer cb.close()
	cl, err := a.identify(ctx, p, cb.redirectURI)
	if err != nil {
		return err
	}

	q := url.Values{
		"response_type":         {"code"},
		"client_id":             {cl.ID},
		"redirect_uri":          {cb.redirectURI},
		"state":                 {state},
		"code_challenge":        {challengeS256(verifier)},
		"code_challenge_method": {"S256"},
		"resource":              {p.resource},
	}
	if len(scopes) > 0 {
		q.Set("scope", strings.Join(scopes, " "))
	}
	authURL, err := withQuery(p.meta.AuthorizationEndpoint, q)
	if err != nil {
		return &Error{Op: "authorize", Path: p.meta.AuthorizationEndpoint, Err: err}
	}
	if show != nil {
		show(authURL)
	}
	if err := OpenBrowser(ctx, authURL); err != nil {
		// Not fatal: show has offered the link.
		slog.Warn("oauth: could not open a browser", "server", a.cfg.Server, slog.Any("err", err))
	}
	code, err := cb.wait(ctx)
	if err != nil {
		return err
	}

	tok, err := a.tokenRequest(ctx, "token", p.meta.TokenEndpoint, cl, url.Values{
		"grant_type":    {"authorization_code"},
		"code":          {code},
		"redirect_uri":  {cb.redirectURI},
		"code_verifier": {verifier},
		"resource":      {p.resource},
	})
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.load()
	rec := &record{
		ServerURL: a.cfg.URL, Resource: p.resource, Issuer: p.issuer, TokenEndpoint: p.meta.TokenEndpoint,
		Client: cl, Clients: map[string]client{}, Requested: strings.Join(scopes, " "),
	}
	if a.rec != nil {
		maps.Copy(rec.Clients, a.rec.Clients) // other issuers' registrations stay theirs
	}
	rec.Clients[p.issuer] = cl
	tok.apply(rec, scopes)
	if err := a.save(rec); err != nil {
		return err
	}
	if stepUp && ch != nil && len(ch.Scopes()) > 0 {
		// Count the step-ups the authorization server did not honour, so
		// the Transport stops asking for logins that cannot help.
		k := scopeKey(ch.Scopes())
		if subset(ch.Scopes(), strings.Fields(rec.Scope)) {
			delete(a.denied, k)
		} else {
			if a.denied == nil {
				a.denied = map[string]int{}
			}
			a.denied[k]++
		}
	}
	a.challenge, a.stepUp = nil, false
	return nil
}

// probe sends an unauthenticated initialize to learn the server's challenge.
// No answer is not an error: discovery then uses the well-known URLs.
func (a *Authorizer) probe(ctx context.Context) *Challenge {
	body := `{"jsonrpc":"2.0","id":"switchboard-login-probe","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"switchboard","version":"login-probe"}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.cfg.URL, strings.NewReader(body))
	if err != nil {
		return nil
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := a.hc.Do(req)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		return nil
	}
	ch := ParseChallenge(resp)
	return &ch
}

// selectScopes follows the spec's strategy: the challenge's scope, else the
// configured scopes, else everything the resource supports, else none (the
// parameter is omitted). A step-up keeps the scopes asked for and granted
// before (their union with the challenge's). offline_access, which brings
// a refresh token, is asked for exactly when the authorization server
// lists it in its scopes_supported (MCP 2026-07-28, SEP-2207).
func (a *Authorizer) selectScopes(ch *Challenge, p *plan, stepUp bool) []string {
	var s []string
	switch {
	case ch != nil && len(ch.Scopes()) > 0:
		s = ch.Scopes()
	case len(a.cfg.Settings.Scopes) > 0:
		s = a.cfg.Settings.Scopes
	default:
		s = p.prmScopes
	}
	if stepUp {
		s = union(a.heldScopes(), s)
	}
	offered := slices.Contains(p.meta.ScopesSupported, offlineAccess)
	s = slices.DeleteFunc(slices.Clone(s), func(v string) bool { return v == offlineAccess && !offered })
	if offered && len(s) > 0 && !slices.Contains(s, offlineAccess) {
		// Only beside other scopes: a lone offline_access would replace
		// the server's default scope when none is named.
		s = append(s, offlineAccess)
	}
	return s
}

// offlineAccess is the scope that asks for a refresh token (OpenID Connect).
const offlineAccess = "offline_access"

// callbackPort is the loopback port to try first: the configured one
// (fixed: no other will do), or the one an earlier dynamic registration
// with this issuer named (so the registration stays valid; another port
// only means registering again). 0 means any.
func (a *Authorizer) callbackPort(issuer string) (port int, fixed bool) {
	if p := a.cfg.Settings.RedirectPort; p > 0 {
		return p, true
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.load()
	c, ok := a.rec.clientFor(issuer)
	if !ok || !c.Dynamic {
		return 0, false
	}
	u, err := url.Parse(c.RedirectURI)
	if err != nil {
		return 0, false
	}
	_, _ = fmt.Sscan(u.Port(), &port)
	return port, false
}

// identify picks how the app names itself, in the order MCP 2026-07-28
// gives: the configured (pre-registered) client, a client ID metadata
// document when the authorization server supports them, then dynamic
// registration: the earlier one with this issuer and redirect URI, else a
// new one. A registration with another issuer is never reused.
func (a *Authorizer) identify(ctx context.Context, p *plan, redirectURI string) (client, error) {
	supported := p.meta.TokenEndpointAuthMethodsSupported
	a.mu.Lock()
	a.load()
	prev, known := a.rec.clientFor(p.issuer)
	var moved string // the issuer the configured client was used with, if another
	if a.rec != nil {
		for iss, c := range a.rec.Clients {
			if c.Configured && c.ID == a.cfg.Settings.ClientID && iss != p.issuer {
				moved = iss
			}
		}
	}
	a.mu.Unlock()
	if s := a.cfg.Settings; s.ClientID != "" {
		if moved != "" && !(known && prev.Configured && prev.ID == s.ClientID) {
			// Pre-registered credentials belong to one authorization
			// server: say so rather than send them to another.
			return client{}, &Error{Op: "register", Path: p.issuer, Err: fmt.Errorf(`%w (%s, no longer %s): register Switchboard with %s and enter the client it gives you under the server's Details → OAuth client (its "oauth" entry); if this client ID is valid there too, forget the old login with 'switchboard secrets delete %s' and log in again`, ErrIssuerChanged, p.issuer, moved, p.issuer, KeyFor(a.cfg.Server))}
		}
		return client{ID: s.ClientID, AuthMethod: authMethod(supported, s.ClientSecret != ""), RedirectURI: redirectURI, Issuer: p.issuer, Configured: true}, nil
	}
	if p.meta.ClientIDMetadataDocumentSupported && a.cfg.ClientMetadataURL != "" {
		return client{ID: a.cfg.ClientMetadataURL, AuthMethod: "none", RedirectURI: redirectURI, Issuer: p.issuer}, nil
	}
	if known && prev.Dynamic && prev.RedirectURI == redirectURI {
		return prev, nil
	}
	if p.meta.RegistrationEndpoint == "" {
		return client{}, &Error{Op: "register", Path: p.issuer, Err: ErrNoClient}
	}
	return a.register(ctx, p, redirectURI)
}

// authMethod picks the token endpoint authentication for a configured
// client: none without a secret; with one, Basic unless only POST is
// offered (RFC 8414's default is client_secret_basic).
func authMethod(supported []string, hasSecret bool) string {
	switch {
	case !hasSecret:
		return "none"
	case len(supported) == 0, slices.Contains(supported, "client_secret_basic"):
		return "client_secret_basic"
	case slices.Contains(supported, "client_secret_post"):
		return "client_secret_post"
	}
	return "none"
}

// register performs RFC 7591 dynamic client registration as a native app.
func (a *Authorizer) register(ctx context.Context, p *plan, redirectURI string) (client, error) {
	supported := p.meta.TokenEndpointAuthMethodsSupported
	method := "none" // a public client, as RFC 8252 recommends for native apps
	switch {
	case len(supported) == 0, slices.Contains(supported, "none"):
	case slices.Contains(supported, "client_secret_basic"):
		method = "client_secret_basic"
	case slices.Contains(supported, "client_secret_post"):
		method = "client_secret_post"
	}
	body, _ := json.Marshal(map[string]any{
		"client_name": a.cfg.ClientName,
		// MCP 2026-07-28 (SEP-837): OIDC servers take an omitted type as
		// "web" and may then refuse a loopback redirect URI.
		"application_type":           applicationType(redirectURI),
		"redirect_uris":              []string{redirectURI},
		"grant_types":                []string{"authorization_code", "refresh_token"},
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": method,
	})
	ep := p.meta.RegistrationEndpoint
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep, bytes.NewReader(body))
	if err != nil {
		return client{}, &Error{Op: "register", Path: ep, Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := a.hc.Do(req)
	if err != nil {
		return client{}, &Error{Op: "register", Path: ep, Err: err}
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxMetadata))
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusCreated {
		return client{}, &Error{Op: "register", Path: ep, Err: oauthError(resp.StatusCode, raw)}
	}
	var r struct {
		ClientID   string `json:"client_id"`
		Secret     string `json:"client_secret"`
		AuthMethod string `json:"token_endpoint_auth_method"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || r.ClientID == "" {
		return client{}, &Error{Op: "register", Path: ep, Err: fmt.Errorf("the registration answer has no client_id")}
	}
	if r.AuthMethod != "" {
		method = r.AuthMethod // what the server registered wins over what was asked
	}
	return client{ID: r.ClientID, Secret: r.Secret, AuthMethod: method, RedirectURI: redirectURI, Issuer: p.issuer, Dynamic: true}, nil
}

// applicationType is the OIDC application_type of a client redirected to
// redirectURI: "native" for this machine's loopback (a desktop app), "web"
// for anything else.
func applicationType(redirectURI string) string {
	if u, err := url.Parse(redirectURI); err == nil && u.Scheme == "http" && loopback(u.Hostname()) {
		return "native"
	}
	return "web"
}

// tokenResponse is a token endpoint's success answer.
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
}

// apply copies the token into r; requested scopes stand in for an omitted
// scope (RFC 6749 §5.1: omitted means as requested).
func (t *tokenResponse) apply(r *record, requested []string) {
	r.AccessToken, r.TokenType = t.AccessToken, t.TokenType
	if t.RefreshToken != "" {
		r.RefreshToken = t.RefreshToken // a refresh may not rotate it
	}
	r.Scope = t.Scope
	if r.Scope == "" {
		r.Scope = strings.Join(requested, " ")
	}
	r.ExpiresAt = time.Time{}
	if t.ExpiresIn > 0 {
		r.ExpiresAt = time.Now().Add(time.Duration(t.ExpiresIn) * time.Second)
	}
}

// tokenRequest posts form to the token endpoint with the client's
// authentication.
func (a *Authorizer) tokenRequest(ctx context.Context, op, endpoint string, cl client, form url.Values) (*tokenResponse, error) {
	secret := a.cfg.Settings.ClientSecret
	if cl.Dynamic {
		secret = cl.Secret
	}
	switch cl.AuthMethod {
	case "client_secret_post":
		form.Set("client_id", cl.ID)
		form.Set("client_secret", secret)
	case "client_secret_basic":
	default:
		form.Set("client_id", cl.ID)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, &Error{Op: op, Path: endpoint, Err: err}
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if cl.AuthMethod == "client_secret_basic" {
		// RFC 6749 §2.3.1: both parts are form-encoded before Basic encoding.
		req.SetBasicAuth(url.QueryEscape(cl.ID), url.QueryEscape(secret))
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		return nil, &Error{Op: op, Path: endpoint, Err: err}
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxMetadata))
	if resp.StatusCode != http.StatusOK {
		return nil, &Error{Op: op, Path: endpoint, Err: oauthError(resp.StatusCode, raw)}
	}
	var t tokenResponse
	if err := json.Unmarshal(raw, &t); err != nil || t.AccessToken == "" {
		return nil, &Error{Op: op, Path: endpoint, Err: errors.New("the answer holds no access_token")}
	}
	if !strings.EqualFold(t.TokenType, "bearer") {
		return nil, &Error{Op: op, Path: endpoint, Err: fmt.Errorf("token type %q is not supported (only Bearer)", t.TokenType)}
	}
	return &t, nil
}

// OAuthError is an authorization server's error answer (RFC 6749 §5.2).
type OAuthError struct {
	Status      int
	Code        string // invalid_grant, invalid_client, ...
	Description string
}

func (e *OAuthError) Error() string {
	msg := fmt.Sprintf("HTTP %d", e.Status)
	if e.Code != "" {
		msg += ": " + e.Code
	}
	if e.Description != "" {
		msg += " (" + e.Description + ")"
	}
	return msg
}

func oauthError(status int, body []byte) error {
	var r struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	_ = json.Unmarshal(body, &r)
	return &OAuthError{Status: status, Code: r.Error, Description: r.Description}
}

// accessToken returns the token to send, refreshed first when it expires
// within RefreshBefore. "" means there is none.
func (a *Authorizer) accessToken(ctx context.Context) string {
	a.mu.Lock()
	a.load()
	r := a.rec
	a.mu.Unlock()
	if r == nil {
		return ""
	}
	fresh := r.ExpiresAt.IsZero() || time.Until(r.ExpiresAt) > RefreshBefore
	if r.AccessToken != "" && fresh || r.RefreshToken == "" {
		return r.AccessToken
	}
	if err := a.refresh(ctx, r.AccessToken); err != nil {
		slog.Info("oauth: token refresh failed", "server", a.cfg.Server, slog.Any("err", err))
		return r.AccessToken // the server's 401 will ask for a login
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.rec.AccessToken
}

// refresh trades the refresh token for a new access token, unless another
// request did so since stale was read. A refused refresh token is dropped:
// only a new login helps then.
func (a *Authorizer) refresh(ctx context.Context, stale string) error {
	a.refreshMu.Lock() // one refresh at a time; the others then see the new token
	defer a.refreshMu.Unlock()
	a.mu.Lock()
	a.load()
	if a.rec == nil || a.rec.RefreshToken == "" {
		a.mu.Unlock()
		return &Error{Op: "refresh", Err: ErrNeedsLogin}
	}
	if a.rec.AccessToken != stale {
		a.mu.Unlock()
		return nil
	}
	r := *a.rec
	a.mu.Unlock()

	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {r.RefreshToken}}
	if r.Resource != "" {
		form.Set("resource", r.Resource)
	}
	tok, err := a.tokenRequest(ctx, "refresh", r.TokenEndpoint, r.Client, form)
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.rec == nil || a.rec.AccessToken != stale {
		return nil // a login replaced the tokens meanwhile; keep its
	}
	if err != nil {
		var oe *OAuthError
		if errors.As(err, &oe) && (oe.Code == "invalid_grant" || oe.Code == "invalid_client") {
			r.AccessToken, r.RefreshToken = "", ""
			_ = a.save(&r)
			return fmt.Errorf("%w: %w", ErrNeedsLogin, err)
		}
		return err
	}
	tok.apply(&r, strings.Fields(r.Scope))
	return a.save(&r)
}

// withQuery adds q to an endpoint that may carry a query of its own.
func withQuery(endpoint string, q url.Values) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return "", err
	}
	all := u.Query()
	for k, v := range q {
		all[k] = v
	}
	u.RawQuery = all.Encode()
	return u.String(), nil
}

// randomString is 32 random bytes, base64url: a PKCE verifier or a state.
func randomString() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// challengeS256 is the PKCE S256 code challenge of verifier.
func challengeS256(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}
