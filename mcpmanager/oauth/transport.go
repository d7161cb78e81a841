package oauth

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// Transport is an http.RoundTripper that sends the Authorizer's bearer token
// with every request, refreshes it when it is about to expire or the server
// refuses it, and records the server's challenge for the next Login when
// only a login can help. It never logs in by itself: it reports that through
// OnNeedsLogin, so the user decides when a browser opens.
//
// A request that already carries an Authorization header (configured by the
// user) passes through untouched. A request to another origin than the
// Authorizer's server URL (scheme, host and port) is refused with
// ErrOtherOrigin: the token, and whatever headers came with the request,
// never leave for another host, whatever redirected them there. Safe for
// concurrent use.
type Transport struct {
	Base http.RoundTripper // nil: http.DefaultTransport
	Auth *Authorizer
	// OnNeedsLogin, when set, is called (from the request's goroutine) when the
	// server refuses a request and only a new login can fix it: a 401 without
	// a refreshable token, or a 403 asking for more scopes. err wraps
	// ErrNeedsLogin and says why.
	OnNeedsLogin func(err error)
	// OnStepUp, when set, is called instead of OnNeedsLogin for a 403
	// asking for scopes the token lacks (err wraps ErrStepUp and
	// ErrNeedsLogin): MCP makes that a refusal of the one operation, so a
	// caller may keep the session for the others.
	OnStepUp func(err error)
}

func (t *Transport) base() http.RoundTripper {
	if t.Base != nil {
		return t.Base
	}
	return http.DefaultTransport
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !sameOrigin(req.URL, t.Auth.cfg.URL) {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, &Error{Op: "authorize", Path: req.URL.Redacted(), Err: fmt.Errorf("%w: the token is for %s", ErrOtherOrigin, originOf(t.Auth.cfg.URL))}
	}
	if req.Header.Get("Authorization") != "" {
		return t.base().RoundTrip(req)
	}
	tok := t.Auth.accessToken(req.Context())
	resp, err := t.send(req, req.Body, tok)
	if err != nil {
		return nil, err
	}
	switch resp.StatusCode {
	case http.StatusUnauthorized:
		return t.unauthorized(req, resp, tok)
	case http.StatusForbidden:
		return t.forbidden(req, resp, tok)
	}
	return resp, nil
}

// unauthorized answers a 401: retried once with a newer token (refreshed,
// or stored by another process since: a login in the CLI reaches the
// running window this way), else the challenge is kept for the next Login
// and the login is asked for.
func (t *Transport) unauthorized(req *http.Request, resp *http.Response, tok string) (*http.Response, error) {
	ch := ParseChallenge(resp)
	if tok == "" && !ch.Bearer() && !t.Auth.offersOAuth(req.Context()) {
		// Not OAuth's refusal: no Bearer challenge, no metadata, no
		// token ever held. The server wants a header of its own (an API
		// key): a login could not help, and its answer says what is
		// missing, so it goes back as it came.
		return resp, nil
	}
	if replayable(req) && t.Auth.refresh(req.Context(), tok) == nil {
		// The token was refused before its time (revoked, or the clocks
		// differ), or there was none: retry once with the new one.
		if fresh := t.Auth.accessToken(req.Context()); fresh != "" && fresh != tok {
			body, err := rewind(req)
			if err != nil {
				return resp, nil
			}
			discard(resp)
			if resp, err = t.send(req, body, fresh); err != nil {
				return nil, err
			}
			if resp.StatusCode != http.StatusUnauthorized {
				return resp, nil
			}
			ch = ParseChallenge(resp)
		}
	}
	t.Auth.remember(ch, false)
	discard(resp)
	err := &Error{Op: "authorize", Path: req.URL.Redacted(), Err: fmt.Errorf("%w (HTTP 401)", ErrNeedsLogin)}
	t.needsLogin(err)
	return nil, err // callers see why, not a bare 401
}

// forbidden answers a 403: one asking for scopes the token lacks
// (insufficient_scope) is retried once with a newer token another
// process stored, else it asks for a step-up login, the scopes kept with
// the stored login so that a login anywhere asks for them. Any other 403
// goes back as it came.
func (t *Transport) forbidden(req *http.Request, resp *http.Response, tok string) (*http.Response, error) {
	ch := ParseChallenge(resp)
	if ch.Error() != "insufficient_scope" {
		return resp, nil
	}
	if fresh := t.Auth.newer(tok); fresh != "" && replayable(req) {
		if body, err := rewind(req); err == nil {
			discard(resp)
			if resp, err = t.send(req, body, fresh); err != nil {
				return nil, err
			}
			if ch = ParseChallenge(resp); resp.StatusCode != http.StatusForbidden || ch.Error() != "insufficient_scope" {
				return resp, nil
			}
			tok = fresh
		}
	}
	discard(resp)
	granted := t.Auth.grantedScopes()
	want := ch.Scopes()
	if tok != "" && len(want) > 0 && subset(want, granted) {
		// Logging in again would ask for the same scopes: a loop, not a fix.
		return nil, &Error{Op: "authorize", Path: req.URL.Redacted(), Err: fmt.Errorf("%w (scope %q)", ErrInsufficientScope, strings.Join(want, " "))}
	}
	if n := t.Auth.deniedStepUps(want); n >= MaxStepUps {
		// The retry limit: the authorization server did not grant
		// these scopes at the last logins; another one will not either.
		return nil, &Error{Op: "authorize", Path: req.URL.Redacted(), Err: fmt.Errorf("%w (scope %q, %d logins)", ErrScopeNotGranted, strings.Join(want, " "), n)}
	}
	t.Auth.remember(ch, true)
	t.Auth.noteStepUp(want)
	err := &Error{Op: "authorize", Path: req.URL.Redacted(), Err: fmt.Errorf("%w: %w (scope %q)", ErrNeedsLogin, ErrStepUp, strings.Join(union(t.Auth.heldScopes(), want), " "))}
	if t.OnStepUp != nil {
		t.OnStepUp(err)
	} else {
		t.needsLogin(err)
	}
	return nil, err
}

// replayable reports whether req's body can be sent again.
func replayable(req *http.Request) bool {
	return req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
}

func (t *Transport) needsLogin(err error) {
	if t.OnNeedsLogin != nil {
		t.OnNeedsLogin(err)
	}
}

// send clones req (a RoundTripper must not change it) with body and token.
func (t *Transport) send(req *http.Request, body io.ReadCloser, tok string) (*http.Response, error) {
	r := req.Clone(req.Context())
	r.Body = body
	if tok != "" {
		r.Header.Set("Authorization", "Bearer "+tok)
	}
	return t.base().RoundTrip(r)
}

// rewind returns a fresh copy of req's body for a retry.
func rewind(req *http.Request) (io.ReadCloser, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return req.Body, nil
	}
	return req.GetBody()
}

func discard(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
}

func subset(want, have []string) bool {
	for _, s := range want {
		if !slices.Contains(have, s) {
			return false
		}
	}
	return true
}

// sameOrigin reports whether u has raw's scheme, host and port (RFC 6454;
// a missing port is the scheme's default). An unparsable raw matches
// nothing.
func sameOrigin(u *url.URL, raw string) bool {
	o, err := url.Parse(raw)
	if err != nil || o.Host == "" {
		return false
	}
	return strings.EqualFold(u.Scheme, o.Scheme) && strings.EqualFold(u.Hostname(), o.Hostname()) && defaultPort(u) == defaultPort(o)
}

func defaultPort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

// originOf is scheme://host of raw, for messages.
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(an invalid URL)"
	}
	return strings.ToLower(u.Scheme) + "://" + u.Host
}
