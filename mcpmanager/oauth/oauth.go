package oauth

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// Sentinel errors. Errors returned by this package wrap one of them (often
// inside an *Error naming the step and URL).
var (
	// ErrNeedsLogin: the server refuses the request and only a login can fix it.
	ErrNeedsLogin = errors.New("the server needs you to log in")
	// ErrStateMismatch: the redirect carried another state than the request (possible CSRF).
	ErrStateMismatch = errors.New("the login answer did not match the login request (state mismatch); start the login again")
	// ErrNoPKCE: the authorization server does not advertise PKCE with S256.
	ErrNoPKCE = errors.New("the authorization server does not support PKCE with S256, which MCP requires; ask the server's operator to enable it")
	// ErrDenied: the authorization server answered the redirect with an error.
	ErrDenied = errors.New("the authorization server refused the login")
	// ErrNoClient: there is no way to identify Switchboard to the
	// authorization server; the error wrapping it says how to register.
	ErrNoClient = errors.New("the authorization server offers no dynamic client registration")
	// ErrResourceMismatch: the protected-resource metadata describes another server.
	ErrResourceMismatch = errors.New("the server's protected-resource metadata names another resource; the server may be misconfigured or impersonated")
	// ErrStepUp: the server refused one request for want of scopes the
	// token lacks (a 403 insufficient_scope); a login asking for them
	// fixes it. Errors wrapping it wrap ErrNeedsLogin too.
	ErrStepUp = errors.New("it asks for more permissions than the login granted")
	// ErrInsufficientScope: the server refuses a token that already carries the scopes it asks for.
	ErrInsufficientScope = errors.New("the server refuses the token although it carries the scopes it asks for; logging in again will not help, ask the server's operator")
	// ErrScopeNotGranted: step-up logins asked for a scope MaxStepUps times
	// and the authorization server never granted it.
	ErrScopeNotGranted = errors.New("the authorization server did not grant the permissions the server asks for, after several logins; ask its operator (or your administrator) to give your account access, then log in again")
	// ErrIssuerMismatch: the login answer did not come from the
	// authorization server the login was sent to (RFC 9207; a mix-up attack
	// or a misconfigured server).
	ErrIssuerMismatch = errors.New("the login answer did not come from the authorization server it was sent to (RFC 9207 issuer check)")
	// ErrIssuerChanged: the server moved to another authorization server
	// than the one its configured client was registered with.
	ErrIssuerChanged = errors.New("the server now uses another authorization server than the one its configured client was registered with")
	// ErrTimeout: the browser never came back to the loopback redirect.
	ErrTimeout = errors.New("the login was not finished in the browser in time; start it again")
	// ErrInsecureURL: an OAuth endpoint is not https (plain http is allowed to this machine only).
	ErrInsecureURL = errors.New("OAuth endpoints must use https (plain http only on this machine)")
	// ErrMetadata: no usable authorization-server metadata was found.
	ErrMetadata = errors.New("the authorization server's metadata could not be read")
	// ErrOtherOrigin: a request (a redirect, a server-chosen endpoint) would
	// take the token, or a secret of the login, to another origin than the
	// one it belongs to.
	ErrOtherOrigin = errors.New("refused to send credentials to another origin")
	// ErrNoOAuth: the server asked for a Bearer token but offers no OAuth
	// login: no metadata, and nothing at the default endpoints of MCP
	// 2025-03-26. It wants a token (an API key) of its own, in "headers".
	ErrNoOAuth = errors.New("the server offers no OAuth login")
	// ErrPortBusy: the redirect port the server's entry fixes
	// ("oauth.redirectPort") is taken, and no other port would do (the
	// authorization server knows only that redirect URI).
	ErrPortBusy = errors.New("the login's redirect port is in use")
)

// Error is one failed step of a login or token request.
type Error struct {
	Op   string // "discover", "register", "authorize", "token", "refresh", ...
	Path string // the URL involved, if any
	Err  error
}

func (e *Error) Error() string {
	if e.Path == "" {
		return e.Op + ": " + e.Err.Error()
	}
	return e.Op + " " + e.Path + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Timeouts and margins; variables so tests can shorten them.
var (
	// LoginTimeout bounds how long Login waits for the browser's redirect.
	LoginTimeout = 5 * time.Minute
	// RequestTimeout bounds one metadata, registration or token request.
	RequestTimeout = 30 * time.Second
	// RefreshBefore is how long before expiry a token is refreshed at
	// most: a token living less than four times as long is refreshed a
	// quarter of its lifetime before it expires, so a 45 s token is not
	// refreshed before every request.
	RefreshBefore = time.Minute
	// MaxStepUps bounds the step-up logins for one scope set that the
	// authorization server does not grant (MCP: clients should limit
	// scope-upgrade retries rather than loop).
	MaxStepUps = 2
)

// Store keeps one value per name (the OS keyring in the app: app/secrets.Store
// satisfies it). Get reports a missing name as an error; this package treats
// every Get error as "nothing stored". Implementations must be safe for
// concurrent use.
type Store interface {
	Get(name string) (string, error)
	Set(name, value string) error
	Delete(name string) error
}

// MemoryStore is a Store that forgets everything when the process ends (for
// tests and for running without a keyring). Safe for concurrent use.
type MemoryStore struct {
	mu sync.Mutex
	m  map[string]string
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore { return &MemoryStore{m: map[string]string{}} }

// Get returns the value stored under name (an error when there is none).
func (s *MemoryStore) Get(name string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[name]
	if !ok {
		return "", fmt.Errorf("%q: not stored", name)
	}
	return v, nil
}

// Set stores value under name, replacing what was there.
func (s *MemoryStore) Set(name, value string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[name] = value
	return nil
}

// Delete forgets name.
func (s *MemoryStore) Delete(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, name)
	return nil
}

var unsafeKey = regexp.MustCompile(`[^A-Za-z0-9_.-]`)

// KeyFor is the store name of a server's tokens: "oauth.<server>", with
// characters a keyring name may not hold replaced (app/secrets accepts
// letters, digits, _ . -). When that replaced anything, or the name is
// too long, a short hash of the name follows, so "my server" and
// "my_server" keep two logins.
func KeyFor(server string) string {
	safe := unsafeKey.ReplaceAllString(server, "_")
	k := "oauth." + safe
	if safe == server && len(k) <= 128 {
		return k
	}
	sum := sha256.Sum256([]byte(server))
	tag := "-" + hex.EncodeToString(sum[:4])
	if len(k)+len(tag) > 128 {
		k = k[:128-len(tag)]
	}
	return k + tag
}

// LegacyKeyFor is the name KeyFor gave before it told such names apart,
// for carrying a login over.
func LegacyKeyFor(server string) string {
	k := "oauth." + unsafeKey.ReplaceAllString(server, "_")
	if len(k) > 128 {
		k = k[:128]
	}
	return k
}

// Settings are the per-server OAuth choices from the server's config entry
// ("oauth": {"clientId", "clientSecret", "scopes", "redirectPort",
// "redirectUri", "resource", "clientMetadataUrl"}). All optional: without
// them the app registers itself dynamically.
type Settings struct {
	ClientID     string   // pre-registered client
	ClientSecret string   // its secret, if it is a confidential client
	Scopes       []string // asked for besides the scopes the server's challenge names
	RedirectPort int      // fixed loopback port, for servers that registered one redirect URI
	// RedirectURI is the whole loopback redirect URI registered for the
	// client, sent as written (authorization servers compare it exactly):
	// "redirectUri", or Claude Code's "callbackPort" P as
	// http://localhost:P/callback, the URI Claude Code sends. It wins over
	// RedirectPort.
	RedirectURI string
	// NoResource leaves the RFC 8707 resource parameter out ("resource":
	// false), for authorization servers that refuse it (Microsoft Entra ID
	// v2: AADSTS9010010).
	NoResource bool
	// ClientMetadataURL is the https URL of a client ID metadata document
	// describing Switchboard ("clientMetadataUrl"); it wins over
	// Config.ClientMetadataURL.
	ClientMetadataURL string
}

// Config describes one server to log in to.
type Config struct {
	Server   string // configured name: the store key and messages use it
	URL      string // the MCP endpoint
	Settings Settings
	// ClientName is sent in dynamic client registration; default "Switchboard".
	ClientName string
	// ClientMetadataURL is an https URL whose document describes the app
	// (client ID metadata documents); used as client_id when the
	// authorization server advertises support. Empty: not offered.
	ClientMetadataURL string
	// HTTPClient makes metadata, registration and token requests; nil uses
	// one with RequestTimeout.
	HTTPClient *http.Client
}

// Authorizer holds one server's login state: the stored tokens, the last
// challenge the server sent, and the flows that renew them.
type Authorizer struct {
	cfg   Config
	store Store
	hc    *http.Client

	loginMu   sync.Mutex // one Login at a time
	refreshMu sync.Mutex // one refresh at a time

	mu     sync.Mutex
	loaded bool
	rec    *record // nil: never logged in
	// raw is the stored JSON rec was read from or saved as: other
	// processes (the CLI beside a running window) share the record, and
	// comparing it with what the store holds now tells whether one of
	// them wrote since (sync, saveIf).
	raw       string
	challenge *Challenge // the last 401/403 challenge, for the next Login
	stepUp    bool       // the challenge asks for scopes beyond the token's
	// denied counts, by challenged scope set (scopeKey), the step-up
	// logins after which the authorization server still did not grant it;
	// at MaxStepUps the Transport stops asking for a login.
	denied map[string]int
}

// New returns the Authorizer of one server. Nothing is read until needed.
func New(cfg Config, store Store) *Authorizer {
	if cfg.ClientName == "" {
		cfg.ClientName = "Switchboard"
	}
	if store == nil {
		store = NewMemoryStore()
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: RequestTimeout, CheckRedirect: checkRedirect}
	}
	return &Authorizer{cfg: cfg, store: store, hc: hc}
}

// checkRedirect keeps a login's secrets where they were sent: a redirect
// that would replay a request body (the token, registration and probe
// POSTs carry codes, refresh tokens and client secrets) to another origin
// is refused, and so is any step down from https to plain http. Metadata
// GETs may still be redirected elsewhere: they carry nothing secret.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	prev := via[len(via)-1]
	switch {
	case strings.EqualFold(prev.URL.Scheme, "https") && !strings.EqualFold(req.URL.Scheme, "https"):
		return fmt.Errorf("%w: refused the redirect from %s to %s", ErrInsecureURL, prev.URL.Redacted(), req.URL.Redacted())
	case req.Method != http.MethodGet && req.Method != http.MethodHead && !sameOrigin(req.URL, via[0].URL.String()):
		return fmt.Errorf("%w: refused the redirect of a %s to %s", ErrOtherOrigin, req.Method, req.URL.Redacted())
	}
	return nil
}

// Server is the name the Authorizer was made for.
func (a *Authorizer) Server() string { return a.cfg.Server }

// record is what the store keeps for one server, as JSON: the token, the
// authorization server (issuer) that issued it and the client it was
// issued to, and every client identity used with this server, keyed by
// the issuer it belongs to (MCP 2026-07-28: credentials are bound to the
// authorization server that issued them; a server that moves to another
// one means a new registration there, never the old client ID).
type record struct {
	ServerURL     string            `json:"server_url"` // the MCP URL the token is for
	Resource      string            `json:"resource"`
	Issuer        string            `json:"issuer"` // of the token
	TokenEndpoint string            `json:"token_endpoint"`
	Client        client            `json:"client"`            // the token's client, for refreshes
	Clients       map[string]client `json:"clients,omitempty"` // by issuer
	AccessToken   string            `json:"access_token"`
	RefreshToken  string            `json:"refresh_token,omitempty"`
	TokenType     string            `json:"token_type,omitempty"`
	Scope         string            `json:"scope,omitempty"`     // granted
	Requested     string            `json:"requested,omitempty"` // asked for at the last login
	ExpiresAt     time.Time         `json:"expires_at,omitzero"`
	Lifetime      int64             `json:"lifetime,omitempty"` // seconds, as issued (expires_in)
	// StepUp are the scopes a 403 asked for that the token lacks: the
	// next login asks for them, whichever process runs it.
	StepUp string `json:"step_up,omitempty"`
}

// usable reports whether r holds a token or a refresh token.
func (r *record) usable() bool {
	return r != nil && (r.AccessToken != "" || r.RefreshToken != "")
}

// fresh reports whether r's access token is far enough from its expiry
// to be sent as it is (see RefreshBefore).
func (r *record) fresh() bool {
	if r.ExpiresAt.IsZero() {
		return true
	}
	ahead := RefreshBefore
	if r.Lifetime > 0 {
		ahead = min(ahead, time.Duration(r.Lifetime)*time.Second/4)
	}
	return time.Until(r.ExpiresAt) > ahead
}

// clientFor is the client identity used with issuer before, if any.
func (r *record) clientFor(issuer string) (client, bool) {
	if r == nil {
		return client{}, false
	}
	c, ok := r.Clients[issuer]
	return c, ok
}

// client is how the app identifies itself at the token endpoint.
type client struct {
	ID          string `json:"client_id"`
	Secret      string `json:"client_secret,omitempty"` // dynamic registrations only; configured secrets stay in config
	AuthMethod  string `json:"auth_method"`             // none, client_secret_basic, client_secret_post
	RedirectURI string `json:"redirect_uri,omitempty"`  // registered with DCR, reused when the port is free
	Issuer      string `json:"issuer,omitempty"`        // the registration belongs to this server only
	Dynamic     bool   `json:"dynamic,omitempty"`
	Configured  bool   `json:"configured,omitempty"` // the entry's "oauth.clientId"
}

// load reads the record once; callers hold a.mu.
func (a *Authorizer) load() {
	if a.loaded {
		return
	}
	a.loaded = true
	a.raw, a.rec = a.read()
}

// read returns what the store holds now, as stored and as a record; a
// record for another URL is no record, so a token never goes to a server
// it was not issued for. A store that cannot be read yields "".
func (a *Authorizer) read() (string, *record) {
	raw, err := a.store.Get(KeyFor(a.cfg.Server))
	if err != nil || raw == "" {
		return "", nil
	}
	var r record
	if json.Unmarshal([]byte(raw), &r) != nil || r.ServerURL != a.cfg.URL {
		return raw, nil
	}
	if r.Clients == nil && r.Client.ID != "" && r.Client.Issuer != "" {
		// Written before clients were kept by issuer.
		r.Clients = map[string]client{r.Client.Issuer: r.Client}
	}
	return raw, &r
}

// sync reads the store again and takes its record when another process
// wrote one since this one was read or saved (a login, a refresh that
// rotated the refresh token); it reports whether it did. A store that
// cannot be read, or no longer holds the record, changes nothing: a
// passing keyring failure must not log the app out. Callers hold a.mu.
func (a *Authorizer) sync() bool {
	a.load()
	raw, r := a.read()
	if raw == "" || raw == a.raw {
		return false
	}
	a.raw, a.rec = raw, r
	return true
}

// save writes r (and keeps it); callers hold a.mu.
func (a *Authorizer) save(r *record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if err := a.store.Set(KeyFor(a.cfg.Server), string(b)); err != nil {
		return &Error{Op: "save tokens", Err: err}
	}
	a.rec, a.raw, a.loaded = r, string(b), true
	return nil
}

// saveIf saves r, the tokens refreshed from the pair in from, unless the
// store no longer holds base (what r was made from) and another process
// stored other tokens meanwhile (it refreshed or logged in): those are
// newer, so they are kept (and taken) instead, and an older or emptied
// pair never replaces them. A change that kept from's pair (a step-up
// noted) is kept in r. Only a record without any token gives way to r.
// (The keyring has no compare-and-swap: between the read and the write
// another writer could still slip in; the window is one keyring call.)
// Callers hold a.mu.
func (a *Authorizer) saveIf(base string, from, r *record) error {
	if raw, cur := a.read(); raw != "" && raw != base && cur.usable() {
		if !samePair(cur, from) {
			a.raw, a.rec = raw, cur
			return nil
		}
		r.StepUp, r.Clients = cur.StepUp, cur.Clients
	}
	return a.save(r)
}

// update changes the stored record with change, on the newest one the
// store holds; nothing happens without a record. Callers hold a.mu.
func (a *Authorizer) update(change func(r *record)) error {
	a.sync()
	if a.rec == nil {
		return nil
	}
	r := *a.rec
	r.Clients = maps.Clone(a.rec.Clients)
	change(&r)
	return a.save(&r)
}

// Reload reads the stored login again and reports whether another
// process stored a new one since it was read (the CLI's 'servers login'
// beside a running window or daemon) that holds a token: the server can
// start again with it.
func (a *Authorizer) Reload() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.sync() && a.rec.usable()
}

// LoggedIn reports whether a token (possibly expired but refreshable) is stored.
func (a *Authorizer) LoggedIn() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.load()
	return a.rec.usable()
}

// Logout forgets the tokens (the registration too) in memory and in the store.
func (a *Authorizer) Logout() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.rec, a.raw, a.loaded, a.denied = nil, "", true, nil
	if err := a.store.Delete(KeyFor(a.cfg.Server)); err != nil {
		return &Error{Op: "delete tokens", Err: err}
	}
	return nil
}

// Challenge returns the last challenge the server sent (nil if none).
func (a *Authorizer) Challenge() *Challenge {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.challenge == nil {
		return nil
	}
	c := *a.challenge
	c.Params = maps.Clone(c.Params)
	return &c
}

// remember keeps ch for the next Login.
func (a *Authorizer) remember(ch Challenge, stepUp bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.challenge, a.stepUp = &ch, stepUp
}

// grantedScopes are the scopes of the current token.
func (a *Authorizer) grantedScopes() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.load()
	if a.rec == nil {
		return nil
	}
	return strings.Fields(a.rec.Scope)
}

// newer returns the stored access token when it is not tok: another
// process (or request) stored a newer login since tok was sent. "" when
// there is none.
func (a *Authorizer) newer(tok string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sync()
	if a.rec == nil || a.rec.AccessToken == tok {
		return ""
	}
	return a.rec.AccessToken
}

// pendingStepUp are the scopes a 403 asked for that no login has granted
// yet, whichever process got the 403 (see noteStepUp).
func (a *Authorizer) pendingStepUp() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sync()
	if a.rec == nil {
		return nil
	}
	return strings.Fields(a.rec.StepUp)
}

// noteStepUp keeps the scopes a 403 asked for with the stored login, so
// the next login asks for them even when another process runs it (the
// CLI's 'servers login' for a server the window runs).
func (a *Authorizer) noteStepUp(scopes []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	err := a.update(func(r *record) { r.StepUp = strings.Join(union(strings.Fields(r.StepUp), scopes), " ") })
	if err != nil {
		slog.Info("oauth: the scopes a server asked for could not be kept", "server", a.cfg.Server, slog.Any("err", err))
	}
}

// forgetClient drops the dynamic registration kept for issuer when it is
// still client id: the authorization server no longer knows it (or a
// login with it did not finish), so the next login registers again
// instead of reusing it forever. The token's own client stays, for the
// refreshes of a token that still works.
func (a *Authorizer) forgetClient(issuer, id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	err := a.update(func(r *record) {
		if c, ok := r.Clients[issuer]; ok && c.Dynamic && c.ID == id {
			delete(r.Clients, issuer)
		}
	})
	if err != nil {
		slog.Info("oauth: a stale registration could not be forgotten", "server", a.cfg.Server, slog.Any("err", err))
	}
}

// deniedStepUps is how many step-up logins for scopes ended without them.
func (a *Authorizer) deniedStepUps(scopes []string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.denied[scopeKey(scopes)]
}

// heldScopes are the scopes asked for at the last login and those granted,
// each once: what a step-up must keep (MCP 2026-07-28: the union of the
// previously requested scopes and the challenge's).
func (a *Authorizer) heldScopes() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.load()
	if a.rec == nil {
		return nil
	}
	return union(strings.Fields(a.rec.Requested), strings.Fields(a.rec.Scope))
}

// union returns the scopes of every list, each once, in order.
func union(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, s := range l {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// scopeKey names a challenge's scope set whatever its order.
func scopeKey(scopes []string) string {
	s := slices.Clone(scopes)
	slices.Sort(s)
	return strings.Join(slices.Compact(s), " ")
}

// canonical is the RFC 8707 form of an MCP URL: lower-case scheme and host,
// no fragment, no trailing slash on the path.
func canonical(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("%q is not an absolute URL", raw)
	}
	u.Scheme, u.Host, u.Fragment, u.RawFragment = strings.ToLower(u.Scheme), strings.ToLower(u.Host), "", ""
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	return u.String(), nil
}
