package oauth

import (
	"bytes"
	"cmp"
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
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Login runs the authorization-code flow in the user's browser and stores
// the tokens. It uses the last challenge the server sent (see Transport);
// without one it asks the server for it. show, when not nil, gets the
// authorization URL before the browser opens, so the caller can offer it as
// a link in case no browser does. Login returns when the browser came back to
// the loopback redirect and the code was exchanged, ctx ends, or
// LoginTimeout passes.
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
	err = a.attempt(ctx, ch, p, show)
	var stale *staleClient
	if errors.As(err, &stale) {
		// The authorization server no longer knows the registration that
		// was reused (it purges them): it was forgotten, so this attempt
		// registers again; once, as the MCP SDKs do.
		slog.Info("oauth: the authorization server refused the stored registration; registering again", "server", a.cfg.Server, slog.Any("err", stale.err))
		err = a.attempt(ctx, ch, p, show)
	}
	if errors.As(err, &stale) {
		err = stale.err
	}
	return a.explain(err)
}

// staleClient: the authorization server refused a dynamic registration
// that was reused (invalid_client, unauthorized_client). It has been
// forgotten; a login with a new registration may work.
type staleClient struct{ err error }

func (e *staleClient) Error() string {
	return e.err.Error() + "; Switchboard registers itself again and opens the login page once more"
}

func (e *staleClient) Unwrap() error { return e.err }

// attempt is one pass of the authorization-code flow with p's
// authorization server: the browser, the redirect back, the code's
// exchange, the tokens kept. The browser's tab shows how it ended.
func (a *Authorizer) attempt(ctx context.Context, ch *Challenge, p *plan, show func(string)) (err error) {
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
	rd, err := a.redirect(p.issuer)
	if err != nil {
		return err
	}
	cb, err := listenLoopback(rd, state, iss, a.cfg.Server)
	if err != nil {
		return err
	}
	defer func() {
		cb.finish(err) // before close: the tab waits for the outcome
		cb.close()
	}()
	cl, reused, err := a.identify(ctx, p, cb.redirectURI)
	if err != nil {
		return err
	}
	if reused {
		defer func() {
			if err != nil {
				// A reused registration the server may have forgotten
				// (its page then says the client is unknown and never
				// comes back): the next login registers again.
				a.forgetClient(p.issuer, cl.ID)
				err = staleIf(err)
			}
		}()
	}
	authURL, err := withQuery(p.meta.AuthorizationEndpoint, a.addParams(url.Values{
		"response_type":         {"code"},
		"client_id":             {cl.ID},
		"redirect_uri":          {cb.redirectURI},
		"state":                 {state},
		"code_challenge":        {challengeS256(verifier)},
		"code_challenge_method": {"S256"},
	}, p.resource, scopes))
	if err != nil {
		return &Error{Op: "authorize", Path: p.meta.AuthorizationEndpoint, Err: err}
	}
	if show != nil {
		show(authURL)
	}
	open := OpenBrowser // read now: a test may put the real one back once Login returned
	go func() {
		// The opener returns at once; one that stands in for a browser
		// (tests, the conformance client) follows the redirect, whose page
		// waits for this login's outcome.
		if err := open(ctx, authURL); err != nil {
			// Not fatal: show has offered the link.
			slog.Warn("oauth: could not open a browser", "server", a.cfg.Server, slog.Any("err", err))
		}
	}()
	code, err := cb.wait(ctx)
	if err != nil {
		return err
	}
	tok, err := a.tokenRequest(ctx, "token", p.meta.TokenEndpoint, cl, a.addParams(url.Values{
		"grant_type":    {"authorization_code"},
		"code":          {code},
		"redirect_uri":  {cb.redirectURI},
		"code_verifier": {verifier},
	}, p.resource, nil))
	if err != nil {
		return err
	}
	return a.keep(ch, p, cl, scopes, stepUp, tok)
}

// staleIf marks the failure of a login with a reused registration: a
// refusal of the client itself (the authorization server forgot it) is
// tried again with a new one; a login the browser never finished says
// that the next one registers again.
func staleIf(err error) error {
	var oe *OAuthError
	var de *DeniedError
	switch {
	case errors.As(err, &oe) && (oe.Code == "invalid_client" || oe.Code == "unauthorized_client"),
		errors.As(err, &de) && (de.Code == "invalid_client" || de.Code == "unauthorized_client"):
		return &staleClient{err: err}
	case errors.Is(err, ErrTimeout):
		return fmt.Errorf("%w; if the login page said the client is unknown, log in again: Switchboard then registers itself anew", err)
	}
	return err
}

// addParams adds the RFC 8707 resource parameter (unless the entry
// turned it off, "resource": false) and the scope parameter (when there
// are scopes) to q.
func (a *Authorizer) addParams(q url.Values, resource string, scopes []string) url.Values {
	if resource != "" && !a.cfg.Settings.NoResource {
		q.Set("resource", resource)
	}
	if len(scopes) > 0 {
		q.Set("scope", strings.Join(scopes, " "))
	}
	return q
}

// explain adds what to do to a login error that has a known fix the
// authorization server's words do not give.
func (a *Authorizer) explain(err error) error {
	var oe *OAuthError
	var de *DeniedError
	var code, desc string
	switch {
	case errors.As(err, &oe):
		code, desc = oe.Code, oe.Description
	case errors.As(err, &de):
		code, desc = de.Code, de.Description
	default:
		return err
	}
	if !a.cfg.Settings.NoResource && refusesResource(code, desc) {
		return fmt.Errorf(`%w; this authorization server refuses the resource parameter (Microsoft Entra ID does): add "resource": false to the server's "oauth" entry and log in again`, err)
	}
	return err
}

// refusesResource reports whether an authorization server's error is its
// refusal of the RFC 8707 resource parameter: RFC 8707's invalid_target,
// or Microsoft Entra ID v2's AADSTS9010010 (resource and scopes disagree)
// and AADSTS901002 (resource not supported).
func refusesResource(code, desc string) bool {
	return code == "invalid_target" || strings.Contains(desc, "AADSTS9010010") || strings.Contains(desc, "AADSTS901002")
}

// keep stores the tokens of a finished login, with the registrations the
// stored record holds for other authorization servers (read again: another
// process may have added one), and settles the step-up bookkeeping. A
// login replaces whatever is stored: it is the newest.
func (a *Authorizer) keep(ch *Challenge, p *plan, cl client, scopes []string, stepUp bool, tok *tokenResponse) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sync()
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

// selectScopes follows the spec's strategy: the challenge's scope, else
// everything the resource supports, else none (the parameter is omitted).
// The entry's own "scopes" are added to the challenge's (the spec's order
// is for what a client finds out by itself; what the user configured is
// asked for too), and stand in for the resource's list. A step-up keeps
// the scopes asked for and granted before (their union with the
// challenge's), and asks for those a 403 named, also one another process
// got (record.StepUp). offline_access, which brings a refresh token, is
// asked for exactly when the authorization server lists it in its
// scopes_supported (MCP 2026-07-28, SEP-2207).
func (a *Authorizer) selectScopes(ch *Challenge, p *plan, stepUp bool) []string {
	var s []string
	configured := a.cfg.Settings.Scopes
	switch {
	case ch != nil && len(ch.Scopes()) > 0:
		s = ch.Scopes()
	case len(configured) == 0:
		s = p.prmScopes
	}
	s = union(s, configured)
	if pending := a.pendingStepUp(); stepUp || len(pending) > 0 {
		s = union(a.heldScopes(), s, pending)
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

// redirect is where the browser comes back to: the entry's redirectUri
// (sent as written; fixed), its redirectPort (on 127.0.0.1; fixed), or the
// port an earlier dynamic registration with this issuer named (so the
// registration stays valid; another port only means registering again),
// else any free port.
func (a *Authorizer) redirect(issuer string) (redirect, error) {
	s := a.cfg.Settings
	switch {
	case s.RedirectURI != "":
		return parseRedirect(s.RedirectURI)
	case s.RedirectPort > 0:
		return redirect{host: "127.0.0.1", port: s.RedirectPort, path: "/callback", fixed: "redirectPort"}, nil
	}
	rd := redirect{host: "127.0.0.1", path: "/callback"}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.load()
	if c, ok := a.rec.clientFor(issuer); ok && c.Dynamic {
		if u, err := url.Parse(c.RedirectURI); err == nil {
			rd.port, _ = strconv.Atoi(u.Port())
		}
	}
	return rd, nil
}

// identify picks how the app names itself, in the order MCP 2026-07-28
// gives: the configured (pre-registered) client, a client ID metadata
// document when one is configured and the authorization server supports
// them, then dynamic registration: the earlier one with this issuer and
// redirect URI (reused), else a new one. A registration with another
// issuer is never reused.
func (a *Authorizer) identify(ctx context.Context, p *plan, redirectURI string) (cl client, reused bool, err error) {
	supported := p.meta.TokenEndpointAuthMethodsSupported
	a.mu.Lock()
	a.sync() // a registration another process made is reused too
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
			return client{}, false, &Error{Op: "register", Path: p.issuer, Err: fmt.Errorf(`%w (%s, no longer %s): register Switchboard with %s and enter the client it gives you under the server's Details → OAuth client (its "oauth" entry); if this client ID is valid there too, forget the old login with 'switchboard secrets delete %s' and log in again`, ErrIssuerChanged, p.issuer, moved, p.issuer, KeyFor(a.cfg.Server))}
		}
		return client{ID: s.ClientID, AuthMethod: authMethod(supported, s.ClientSecret != ""), RedirectURI: redirectURI, Issuer: p.issuer, Configured: true}, false, nil
	}
	if doc := cmp.Or(a.cfg.Settings.ClientMetadataURL, a.cfg.ClientMetadataURL); p.meta.ClientIDMetadataDocumentSupported && doc != "" {
		return client{ID: doc, AuthMethod: "none", RedirectURI: redirectURI, Issuer: p.issuer}, false, nil
	}
	if known && prev.Dynamic && prev.RedirectURI == redirectURI {
		return prev, true, nil
	}
	if p.meta.RegistrationEndpoint == "" {
		return client{}, false, &Error{Op: "register", Path: p.issuer, Err: a.noClient(redirectURI)}
	}
	cl, err = a.register(ctx, p, redirectURI)
	return cl, false, err
}

// noClient says how to register Switchboard by hand with an authorization
// server that offers no dynamic registration: which redirect URI, and
// where the client it issues goes.
func (a *Authorizer) noClient(redirectURI string) error {
	const entry = `then enter the client it issues under the server's Details → OAuth client, or add to its entry "oauth": {"clientId": "…"%s} (and "clientSecret": "${secret:NAME}" if it issues a secret, stored with 'switchboard secrets set NAME')`
	if s := a.cfg.Settings; s.RedirectURI != "" || s.RedirectPort > 0 {
		return fmt.Errorf("%w: register Switchboard with it yourself, with the redirect URI %s, "+entry, ErrNoClient, redirectURI, "")
	}
	return fmt.Errorf(`%w: register Switchboard with it yourself: pick a free port (8765, say) and register the redirect URI http://127.0.0.1:PORT/callback with that port ("redirectUri": "http://localhost:PORT/callback" in the entry instead, if it insists on localhost), `+entry, ErrNoClient, `, "redirectPort": PORT`)
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
		if p.legacy && slices.Contains([]int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusMethodNotAllowed}, resp.StatusCode) {
			// No metadata, and no registration where 2025-03-26 puts it:
			// a Bearer challenge of a server that wants a key of its own.
			return client{}, &Error{Op: "register", Path: ep, Err: fmt.Errorf(`%w: it publishes no OAuth metadata, and its default registration address answered HTTP %d; it most likely wants a token of its own (an API key): add "headers": {"Authorization": "Bearer ${secret:NAME}"} to the server's entry and keep the token with 'switchboard secrets set NAME'`, ErrNoOAuth, resp.StatusCode)}
		}
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

// tokenResponse is a token endpoint's answer: the token, or (GitHub
// answers errors with HTTP 200) an error.
type tokenResponse struct {
	AccessToken  string  `json:"access_token"`
	TokenType    string  `json:"token_type"`
	ExpiresIn    seconds `json:"expires_in"`
	RefreshToken string  `json:"refresh_token"`
	Scope        string  `json:"scope"`
	Error        string  `json:"error"`
	Description  string  `json:"error_description"`
}

// seconds is expires_in: a number, or a number in a string as Microsoft
// Entra ID and SAP send it ("5250"), as the MCP TypeScript SDK accepts.
type seconds int64

// UnmarshalJSON implements json.Unmarshaler.
func (s *seconds) UnmarshalJSON(b []byte) error {
	v := strings.TrimSpace(string(b))
	if v == "null" {
		return nil
	}
	return s.parse(strings.Trim(v, `"`))
}

// parse reads a count of seconds; an empty one is none.
func (s *seconds) parse(v string) error {
	if v == "" {
		return nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 {
		return fmt.Errorf("its expires_in %q is not a number of seconds", v)
	}
	*s = seconds(f)
	return nil
}

// decodeToken reads a token endpoint's body: JSON, or a form
// (application/x-www-form-urlencoded, what GitHub sends a client that
// does not ask for JSON). The error says what could not be read, never
// the body (it may hold a token).
func decodeToken(contentType string, body []byte) (tokenResponse, error) {
	var t tokenResponse
	mt, _, _ := mime.ParseMediaType(contentType)
	trimmed := bytes.TrimSpace(body)
	if mt == "application/x-www-form-urlencoded" || mt == "text/plain" && len(trimmed) > 0 && trimmed[0] != '{' {
		v, err := url.ParseQuery(string(trimmed))
		if err != nil {
			return t, fmt.Errorf("the token answer (%s) could not be read as a form: %w", mt, err)
		}
		t = tokenResponse{
			AccessToken: v.Get("access_token"), TokenType: v.Get("token_type"), RefreshToken: v.Get("refresh_token"),
			Scope: v.Get("scope"), Error: v.Get("error"), Description: v.Get("error_description"),
		}
		return t, t.ExpiresIn.parse(v.Get("expires_in"))
	}
	err := json.Unmarshal(body, &t)
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case err == nil:
		return t, nil
	case errors.As(err, &syntax):
		return t, fmt.Errorf("the token answer is not JSON (Content-Type %q)", contentType)
	case errors.As(err, &typ):
		return t, fmt.Errorf("the token answer could not be read: its %s is a JSON %s, not a %s", typ.Field, typ.Value, typ.Type)
	}
	return t, fmt.Errorf("the token answer could not be read: %w", err)
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
	r.ExpiresAt, r.Lifetime = time.Time{}, int64(t.ExpiresIn)
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
	t, err := decodeToken(resp.Header.Get("Content-Type"), raw)
	switch {
	case resp.StatusCode != http.StatusOK, t.Error != "":
		// An error answered with HTTP 200 (GitHub) is one all the same.
		return nil, &Error{Op: op, Path: endpoint, Err: &OAuthError{Status: resp.StatusCode, Code: t.Error, Description: t.Description}}
	case err != nil:
		return nil, &Error{Op: op, Path: endpoint, Err: err}
	case t.AccessToken == "":
		return nil, &Error{Op: op, Path: endpoint, Err: fmt.Errorf("the answer holds no access_token (HTTP %d, Content-Type %q)", resp.StatusCode, resp.Header.Get("Content-Type"))}
	case t.TokenType == "":
		// RFC 6749 requires it, but servers omit it; a token for an MCP
		// server is a bearer token (the MCP Python SDK assumes so too).
		t.TokenType = "Bearer"
	case !strings.EqualFold(t.TokenType, "bearer"):
		return nil, &Error{Op: op, Path: endpoint, Err: fmt.Errorf("token type %q is not supported (only Bearer)", t.TokenType)}
	}
	return &t, nil
}

// OAuthError is an authorization server's error answer (RFC 6749 §5.2).
type OAuthError struct {
	Status      int    // 200 for an error a server answered with success
	Code        string // invalid_grant, invalid_client, ...
	Description string
}

func (e *OAuthError) Error() string {
	msg := fmt.Sprintf("HTTP %d", e.Status)
	if e.Status == http.StatusOK {
		msg = "the server answered an error"
	}
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

// accessToken returns the token to send, refreshed first when it is about
// to expire (record.fresh). "" means there is none.
func (a *Authorizer) accessToken(ctx context.Context) string {
	a.mu.Lock()
	a.load()
	r := a.rec
	a.mu.Unlock()
	if r == nil {
		return ""
	}
	if r.AccessToken != "" && r.fresh() || r.RefreshToken == "" {
		return r.AccessToken
	}
	if err := a.refresh(ctx, r.AccessToken); err != nil {
		slog.Info("oauth: token refresh failed", "server", a.cfg.Server, slog.Any("err", err))
		return r.AccessToken // the server's 401 will ask for a login
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.rec == nil {
		return ""
	}
	return a.rec.AccessToken
}

// refresh makes sure the token is newer than stale: it takes the one
// another request or process stored since (a refresh that rotated the
// refresh token, a login in the CLI), else trades the refresh token for a
// new one. The store is read again before the refresh and after a refusal,
// and the result is only written over the record it was made from
// (saveIf): the window and a CLI command each hold a copy, and the one
// that refreshed second must not log both out. A refresh token refused for
// good is dropped: only a new login helps then.
func (a *Authorizer) refresh(ctx context.Context, stale string) error {
	a.refreshMu.Lock() // one refresh at a time; the others then see the new token
	defer a.refreshMu.Unlock()
	a.mu.Lock()
	a.sync()
	if a.rec != nil && a.rec.AccessToken != "" && a.rec.AccessToken != stale {
		a.mu.Unlock()
		return nil // newer than the one refused: use it
	}
	if a.rec == nil || a.rec.RefreshToken == "" {
		a.mu.Unlock()
		return &Error{Op: "refresh", Err: ErrNeedsLogin}
	}
	r, base := *a.rec, a.raw
	a.mu.Unlock()
	from := r // the pair being refreshed

	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {r.RefreshToken}}
	tok, err := a.tokenRequest(ctx, "refresh", r.TokenEndpoint, r.Client, a.addParams(form, r.Resource, nil))
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.rec == nil || !samePair(a.rec, &from) {
		return nil // a login or refresh replaced the tokens meanwhile; keep its
	}
	if err == nil {
		tok.apply(&r, strings.Fields(r.Scope))
		return a.saveIf(base, &from, &r)
	}
	var oe *OAuthError
	if !errors.As(err, &oe) || oe.Code != "invalid_grant" && oe.Code != "invalid_client" {
		return err
	}
	if a.sync() && a.rec.usable() && !samePair(a.rec, &from) {
		// Another process refreshed first and the server rotated the
		// refresh token this one sent: its new pair is the one to use.
		return nil
	}
	if a.rec != nil {
		r = *a.rec // the newest details (a step-up noted meanwhile)
	}
	r.AccessToken, r.RefreshToken = "", ""
	if oe.Code == "invalid_client" {
		// The registration itself is gone: the next login registers again.
		if c, ok := r.Clients[r.Issuer]; ok && c.Dynamic && c.ID == r.Client.ID {
			r.Clients = maps.Clone(r.Clients)
			delete(r.Clients, r.Issuer)
		}
	}
	_ = a.saveIf(a.raw, &from, &r)
	return fmt.Errorf("%w: %w", ErrNeedsLogin, err)
}

// samePair reports whether a and b hold the same access and refresh token.
func samePair(a, b *record) bool {
	return a.AccessToken == b.AccessToken && a.RefreshToken == b.RefreshToken
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
