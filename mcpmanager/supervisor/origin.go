package supervisor

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// OriginError says a remote server tried to send the client to another
// origin — a redirect, or an SSE endpoint elsewhere — and was refused:
// requests, with the server's OAuth token and configured headers, only
// ever go to the configured URL's scheme, host and port. It matches
// ErrOtherOrigin.
type OriginError struct {
	Server string
	Target string // where the server pointed, password hidden
	Origin string // the configured origin
}

func (e *OriginError) Error() string {
	return fmt.Sprintf("%s: refused the redirect to %s: credentials and requests only go to %s, the origin of the server's url; if the server moved, change its url", e.Server, e.Target, e.Origin)
}

// Unwrap returns ErrOtherOrigin.
func (e *OriginError) Unwrap() error { return ErrOtherOrigin }

// originGuard is the bottom of a remote server's HTTP stack, under the OAuth
// transport: it refuses requests to any origin but the configured one, so
// whatever sent them there (a redirect, a server-chosen SSE endpoint, a
// downgrade to http) never gets a token or a configured header. It also
// bounds what it reads back (see limitBody).
type originGuard struct {
	server string
	origin *url.URL
	base   http.RoundTripper
	// limit is wire.MaxMessageBytes when the guard was made: the bound of
	// this connection's reads. Read once here, not at each response, because
	// the client's listening goroutine may still be reading after the
	// supervisor has stopped and a test has moved the bound for the next one.
	limit int
}

func newOriginGuard(server, raw string) (*originGuard, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	return &originGuard{server: server, origin: u, base: http.DefaultTransport, limit: wire.MaxMessageBytes}, nil
}

func (g *originGuard) refuse(target *url.URL) error {
	return &OriginError{Server: g.server, Target: target.Redacted(), Origin: originOf(g.origin)}
}

// RoundTrip implements http.RoundTripper.
func (g *originGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	if !sameOrigin(req.URL, g.origin) {
		if req.Body != nil {
			req.Body.Close() // a RoundTripper closes the body, even on error
		}
		return nil, g.refuse(req.URL)
	}
	resp, err := g.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = limitBody(resp, g.limit)
	return resp, nil
}

// checkRedirect is the http.Client's redirect policy: same origin only,
// at most 10 hops (net/http's default).
func (g *originGuard) checkRedirect(req *http.Request, via []*http.Request) error {
	if !sameOrigin(req.URL, g.origin) {
		return g.refuse(req.URL)
	}
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	return nil
}

// client is an http.Client over rt that follows redirects only within the
// origin.
func (g *originGuard) client(rt http.RoundTripper) *http.Client {
	return &http.Client{Transport: rt, CheckRedirect: g.checkRedirect}
}

// sameOrigin compares scheme, host and port (RFC 6454), with the scheme's
// default port filled in.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "https", "wss":
		return "443"
	case "http", "ws":
		return "80"
	}
	return ""
}

func originOf(u *url.URL) string {
	return strings.ToLower(u.Scheme) + "://" + u.Host
}

// limitBody bounds a response as jsonl bounds a stdio stream: one event
// of an event stream, or a whole JSON body, may not exceed limit
// (wire.MaxMessageBytes); past that, reading fails with a *wire.LimitError.
func limitBody(resp *http.Response, limit int) io.ReadCloser {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	return &capped{rc: resp.Body, limit: limit, events: mt == "text/event-stream"}
}

// capped fails once a body (events: one server-sent event, the bytes up to
// a blank line) grows past limit bytes. Line ends (CR, LF, CRLF) are not
// counted.
type capped struct {
	rc     io.ReadCloser
	limit  int
	events bool
	n      int  // bytes of the body, or of the current event
	line   bool // events: the current line has content
	cr     bool // events: the last byte was a CR (a LF after it ends nothing)
	err    error
}

func (c *capped) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.rc.Read(p)
	if !c.events {
		c.n += n
	} else {
		for _, b := range p[:n] {
			if b != '\r' && b != '\n' {
				c.cr, c.line = false, true
				if c.n++; c.n > c.limit {
					break
				}
				continue
			}
			if b == '\n' && c.cr {
				c.cr = false
				continue
			}
			if !c.line {
				c.n = 0 // a blank line ends the event
			}
			c.cr, c.line = b == '\r', false
		}
	}
	if c.n > c.limit {
		c.err = &wire.LimitError{Limit: c.limit}
		return 0, c.err
	}
	return n, err
}

func (c *capped) Close() error { return c.rc.Close() }
