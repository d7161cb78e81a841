package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// resourceMetadata is RFC 9728 protected-resource metadata.
type resourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported"`
}

// serverMetadata is RFC 8414 / OpenID Connect discovery metadata.
type serverMetadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint"`
	ScopesSupported                   []string `json:"scopes_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported"`
	// IssParameterSupported: the server puts "iss" in every authorization
	// response (RFC 9207), so an answer without one is refused.
	IssParameterSupported bool `json:"authorization_response_iss_parameter_supported"`
}

// plan is what discovery found: who issues tokens for which resource.
type plan struct {
	resource  string // RFC 8707 resource parameter
	issuer    string
	meta      serverMetadata
	prmScopes []string // scopes_supported of the protected resource
	legacy    bool     // no metadata at all: 2025-03-26 default endpoints
}

// maxMetadata caps a metadata document.
const maxMetadata = 1 << 20

// discover finds the protected-resource metadata (the challenge's URL, then
// the path-suffixed and root well-known URLs), then the authorization
// server's metadata. A server without protected-resource metadata is
// treated as a 2025-03-26 server: its origin is the authorization server.
func (a *Authorizer) discover(ctx context.Context, ch *Challenge) (*plan, error) {
	server, err := url.Parse(a.cfg.URL)
	if err != nil || server.Host == "" {
		return nil, &Error{Op: "discover", Path: a.cfg.URL, Err: fmt.Errorf("not an absolute URL")}
	}
	var hint string
	if ch != nil {
		hint = ch.ResourceMetadata()
	}
	var prm *resourceMetadata
	for _, u := range resourceMetadataURLs(server, hint) {
		var m resourceMetadata
		if err := a.getJSON(ctx, u, &m); err != nil {
			slog.Debug("oauth: no protected-resource metadata", "server", a.cfg.Server, "url", u, slog.Any("err", err))
			continue
		}
		if len(m.AuthorizationServers) == 0 {
			return nil, &Error{Op: "discover", Path: u, Err: errors.New("the protected-resource metadata lists no authorization server")}
		}
		prm = &m
		break
	}
	p := &plan{}
	if prm == nil {
		// 2025-03-26: the MCP server's origin is the authorization server.
		origin := &url.URL{Scheme: server.Scheme, Host: server.Host}
		p.issuer = origin.String()
		if p.resource, err = canonical(a.cfg.URL); err != nil {
			return nil, &Error{Op: "discover", Path: a.cfg.URL, Err: err}
		}
	} else {
		if p.resource, err = checkResource(prm.Resource, a.cfg.URL); err != nil {
			return nil, &Error{Op: "discover", Path: a.cfg.URL, Err: err}
		}
		p.issuer, p.prmScopes = prm.AuthorizationServers[0], prm.ScopesSupported
	}
	if err := checkSecure(p.issuer); err != nil {
		return nil, &Error{Op: "discover", Path: p.issuer, Err: err}
	}
	issuer, _ := url.Parse(p.issuer)
	var errs []error
	var noS256 []string // documents found that list no S256
	for _, u := range serverMetadataURLs(issuer) {
		var m serverMetadata
		if err := a.getJSON(ctx, u, &m); err != nil {
			errs = append(errs, err)
			continue
		}
		if prm != nil && strings.TrimSuffix(m.Issuer, "/") != strings.TrimSuffix(p.issuer, "/") {
			// RFC 8414 §3.3: metadata for another issuer must not be used.
			return nil, &Error{Op: "discover", Path: u, Err: fmt.Errorf("%w: it names issuer %q, not %q", ErrMetadata, m.Issuer, p.issuer)}
		}
		p.meta = m
		if err := p.check(u); errors.Is(err, ErrNoPKCE) {
			// Some servers list S256 in their OpenID configuration only
			// (the MCP C# SDK reads on too): try the next document.
			noS256 = append(noS256, u)
			continue
		} else if err != nil {
			return nil, err
		}
		return p, nil
	}
	if len(noS256) > 0 {
		// MCP requires S256: no document offering it, no login.
		return nil, &Error{Op: "discover", Path: p.issuer, Err: fmt.Errorf("%w (%s lists no S256 in code_challenge_methods_supported)", ErrNoPKCE, strings.Join(noS256, " and "))}
	}
	if prm != nil {
		return nil, &Error{Op: "discover", Path: p.issuer, Err: fmt.Errorf("%w: %w", ErrMetadata, errors.Join(errs...))}
	}
	// 2025-03-26 fallback: the default endpoints at the server's origin.
	p.legacy = true
	p.meta = serverMetadata{
		Issuer:                        p.issuer,
		AuthorizationEndpoint:         p.issuer + "/authorize",
		TokenEndpoint:                 p.issuer + "/token",
		RegistrationEndpoint:          p.issuer + "/register",
		CodeChallengeMethodsSupported: []string{"S256"},
	}
	return p, nil
}

// offersOAuth reports whether the server publishes OAuth metadata: its
// protected-resource metadata (MCP 2025-06-18 on) or, for a 2025-03-26
// server, authorization-server metadata at its origin. It is asked only
// about a 401 without a Bearer challenge, the spec's fallback for finding
// the metadata; a server without either does not use OAuth.
func (a *Authorizer) offersOAuth(ctx context.Context) bool {
	server, err := url.Parse(a.cfg.URL)
	if err != nil || server.Host == "" {
		return false
	}
	origin := &url.URL{Scheme: server.Scheme, Host: server.Host}
	for _, u := range append(resourceMetadataURLs(server, ""), serverMetadataURLs(origin)...) {
		var m struct {
			AuthorizationServers  []string `json:"authorization_servers"`
			AuthorizationEndpoint string   `json:"authorization_endpoint"`
		}
		// Either document names where to log in; a server that answers
		// every path with the same JSON names neither.
		if a.getJSON(ctx, u, &m) == nil && (len(m.AuthorizationServers) > 0 || m.AuthorizationEndpoint != "") {
			return true
		}
	}
	return false
}

// check refuses metadata the flow cannot use safely.
func (p *plan) check(from string) error {
	m := p.meta
	if m.AuthorizationEndpoint == "" || m.TokenEndpoint == "" {
		return &Error{Op: "discover", Path: from, Err: fmt.Errorf("%w: it lacks the authorization or token endpoint", ErrMetadata)}
	}
	// MCP 2025-11-25: a client must refuse to proceed without S256 support.
	if !slices.Contains(m.CodeChallengeMethodsSupported, "S256") {
		return &Error{Op: "discover", Path: from, Err: ErrNoPKCE}
	}
	for _, u := range []string{m.AuthorizationEndpoint, m.TokenEndpoint, m.RegistrationEndpoint} {
		if u == "" {
			continue
		}
		if err := checkSecure(u); err != nil {
			return &Error{Op: "discover", Path: u, Err: err}
		}
	}
	return nil
}

// resourceMetadataURLs lists where protected-resource metadata may be, in
// the spec's order: the challenge's URL, then the well-known URL with the
// endpoint's path, then the root one.
func resourceMetadataURLs(server *url.URL, hint string) []string {
	var out []string
	if hint != "" && checkSecure(hint) == nil {
		out = append(out, hint)
	}
	origin := server.Scheme + "://" + server.Host
	if p := strings.TrimSuffix(server.Path, "/"); p != "" {
		out = append(out, origin+"/.well-known/oauth-protected-resource"+p)
	}
	return append(out, origin+"/.well-known/oauth-protected-resource")
}

// serverMetadataURLs lists where an issuer's metadata may be, in the MCP
// spec's order: RFC 8414 and OpenID Connect discovery with the path
// inserted after the well-known segment, then OIDC with it appended. An
// issuer with a path never has its root URLs tried: they describe another
// tenant.
func serverMetadataURLs(issuer *url.URL) []string {
	origin := issuer.Scheme + "://" + issuer.Host
	p := strings.TrimSuffix(issuer.Path, "/")
	if p == "" {
		return []string{origin + "/.well-known/oauth-authorization-server", origin + "/.well-known/openid-configuration"}
	}
	return []string{
		origin + "/.well-known/oauth-authorization-server" + p,
		origin + "/.well-known/openid-configuration" + p,
		origin + p + "/.well-known/openid-configuration",
	}
}

// getJSON fetches u into v; any status but 200 is an error.
func (a *Authorizer) getJSON(ctx context.Context, u string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := a.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxMetadata))
		return fmt.Errorf("GET %s: HTTP %d", u, resp.StatusCode)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxMetadata)).Decode(v); err != nil {
		return fmt.Errorf("GET %s: %w", u, err)
	}
	return nil
}

// checkResource validates the metadata's resource against the endpoint: same
// origin, and the endpoint's path at or below the resource's. It returns the
// value to send as the resource parameter.
func checkResource(resource, endpoint string) (string, error) {
	ep, err := canonical(endpoint)
	if err != nil {
		return "", err
	}
	if resource == "" {
		return ep, nil // RFC 9728 makes it required; fall back to the endpoint
	}
	res, err := canonical(resource)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrResourceMismatch, err)
	}
	ru, _ := url.Parse(res)
	eu, _ := url.Parse(ep)
	inside := ru.Path == "" || eu.Path == ru.Path || strings.HasPrefix(eu.Path, ru.Path+"/")
	if ru.Scheme != eu.Scheme || ru.Host != eu.Host || !inside {
		return "", fmt.Errorf("%w (%s for %s)", ErrResourceMismatch, resource, endpoint)
	}
	return resource, nil
}

// checkSecure allows https anywhere and http only to this machine.
func checkSecure(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Errorf("%q is not an absolute URL", raw)
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if loopback(u.Hostname()) {
			return nil
		}
	}
	return fmt.Errorf("%w: %s", ErrInsecureURL, raw)
}

func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
