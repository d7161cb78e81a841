package oauth

import (
	"net/http"
	"strings"
)

// Challenge is the Bearer challenge of a WWW-Authenticate header (RFC 6750,
// RFC 9728): where the server's metadata is, which scopes it wants, and why
// it refused.
type Challenge struct {
	Status int               // the HTTP status that carried it (401 or 403)
	Params map[string]string // every auth-param, keys lower-cased
	bearer bool              // the response carried a Bearer challenge
}

// Bearer reports whether the response carried a Bearer challenge (with or
// without params): OAuth's way of refusing a request. A 401 without one
// (no WWW-Authenticate, or only Basic or a scheme of the server's own) is
// no request to log in.
func (c Challenge) Bearer() bool { return c.bearer }

// ResourceMetadata is the protected-resource metadata URL, if given.
func (c Challenge) ResourceMetadata() string { return c.Params["resource_metadata"] }

// Scopes are the scopes the server asks for, if given.
func (c Challenge) Scopes() []string { return strings.Fields(c.Params["scope"]) }

// Error is the OAuth error code (invalid_token, insufficient_scope, ...).
func (c Challenge) Error() string { return c.Params["error"] }

// ParseChallenge reads the Bearer challenge of resp's WWW-Authenticate
// headers. A response without one yields a Challenge with no params.
func ParseChallenge(resp *http.Response) Challenge {
	ch := Challenge{Status: resp.StatusCode, Params: map[string]string{}}
	for _, h := range resp.Header.Values("WWW-Authenticate") {
		for _, c := range splitChallenges(h) {
			if strings.EqualFold(c.scheme, "bearer") {
				ch.Params, ch.bearer = c.params, true
				return ch
			}
		}
	}
	return ch
}

type rawChallenge struct {
	scheme string
	params map[string]string
}

// splitChallenges parses one header value, which may hold several
// challenges: `Bearer realm="x", scope="a b", Basic realm="y"`.
func splitChallenges(h string) []rawChallenge {
	var out []rawChallenge
	p := &parser{s: h}
	for {
		p.skip(" \t,")
		if p.done() {
			return out
		}
		scheme := p.token()
		if scheme == "" {
			p.i++ // not a token character: skip it rather than loop
			continue
		}
		c := rawChallenge{scheme: scheme, params: map[string]string{}}
		for {
			p.skip(" \t")
			save := p.i
			name := p.token()
			p.skip(" \t")
			if name == "" || !p.eat('=') {
				p.i = save // the next challenge's scheme starts here
				break
			}
			p.skip(" \t")
			var v string
			if !p.done() && p.s[p.i] == '"' {
				v = p.quoted()
			} else {
				v = p.bare()
			}
			c.params[strings.ToLower(name)] = v
			p.skip(" \t")
			if !p.eat(',') {
				break
			}
		}
		out = append(out, c)
	}
}

type parser struct {
	s string
	i int
}

func (p *parser) done() bool { return p.i >= len(p.s) }

func (p *parser) skip(chars string) {
	for !p.done() && strings.IndexByte(chars, p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *parser) eat(c byte) bool {
	if !p.done() && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// token reads an RFC 9110 token.
func (p *parser) token() string {
	start := p.i
	for !p.done() && isTokenChar(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

// bare reads an unquoted value leniently, up to a comma or blank: servers
// write scope=mcp:read unquoted although ':' is no token character.
func (p *parser) bare() string {
	start := p.i
	for !p.done() && strings.IndexByte(", \t", p.s[p.i]) < 0 {
		p.i++
	}
	return p.s[start:p.i]
}

// quoted reads a quoted-string, unescaping backslashes.
func (p *parser) quoted() string {
	p.i++ // opening quote
	var b strings.Builder
	for !p.done() {
		c := p.s[p.i]
		p.i++
		switch c {
		case '\\':
			if !p.done() {
				b.WriteByte(p.s[p.i])
				p.i++
			}
		case '"':
			return b.String()
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isTokenChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}
