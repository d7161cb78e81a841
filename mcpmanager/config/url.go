package config

import (
	"fmt"
	"maps"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// URLError says a remote server's final URL breaks the URL rules. It
// matches ErrURL.
type URLError struct {
	URL string // scheme and host only: the path and query may hold a secret
	Why string // "uses plain http to 10.0.0.1; use https:// (...)"
}

func (e *URLError) Error() string {
	if e.URL == "" {
		return "url " + e.Why
	}
	return fmt.Sprintf("url %s %s", e.URL, e.Why)
}

// Unwrap returns ErrURL.
func (e *URLError) Unwrap() error { return ErrURL }

// placeholderRef finds what substitution should have replaced: ${kind:name}
// references and template {{param}}s.
var placeholderRef = regexp.MustCompile(`\$\{[^}]*\}|\{\{[^}]*\}\}`)

// CheckURL applies the URL rules to a remote server's final URL, after every
// ${secret:…}, ${env:…} and {{param}} was substituted: http(s) (ws(s) for
// websocket), a host, and plain http only to this machine. A file is checked
// as written, where placeholders are skipped; this is the check at start,
// so a value substituted in cannot send tool calls and tokens in the clear
// or to an address the rules forbid. A placeholder still in the URL is
// refused: it was never filled in.
func CheckURL(raw string, t Transport) error {
	if m := placeholderRef.FindString(raw); m != "" {
		return &URLError{Why: fmt.Sprintf("still holds the placeholder %s: fill it in (add the server from its template, or set the secret or variable it names)", m)}
	}
	if why, _ := urlProblem(raw, t); why != "" {
		return &URLError{URL: origin(raw), Why: why}
	}
	return nil
}

// CheckHeaders refuses a remote server's final headers, after every
// ${secret:…} and ${env:…} was substituted, when one still holds a ${…}:
// nothing filled it in (a VS Code ${input:ID} given no value, a ${VAR}
// written in config.json rather than imported), and the server would get
// the placeholder as the header's value — an API key that fails with a 401
// naming no cause. The error names the header, never its value.
func CheckHeaders(headers map[string]string) error {
	for _, k := range slices.Sorted(maps.Keys(headers)) {
		m := variableRef.FindString(headers[k])
		if m == "" {
			continue
		}
		name := m[2 : len(m)-1]
		if !plainEnvName.MatchString(name) {
			name = "NAME"
		}
		fix := fmt.Sprintf("write it ${env:%s} (an environment variable) or ${secret:%s} (the keyring: 'switchboard secrets set %s') in \"headers\"", name, name, name)
		if id, ok := strings.CutPrefix(m[2:len(m)-1], "input:"); ok {
			fix = fmt.Sprintf("give it a value (--set %s=VALUE on the command line, or import the server again and enter it), or write the value as ${secret:NAME} in \"headers\"", id)
		}
		return fmt.Errorf("header %s still holds %s, which nothing fills in: %s", k, m, fix)
	}
	return nil
}

// origin is scheme://host of raw, for messages; "" when raw does not parse.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// urlProblem is the URL rules: what is wrong with raw as a t server's URL,
// or "" when nothing is. unfinished is set for the problems a placeholder
// still to be substituted may explain (no valid URL, no host yet).
func urlProblem(raw string, t Transport) (why string, unfinished bool) {
	secure, plain := "https", "http"
	if t == WebSocket {
		secure, plain = "wss", "ws"
	}
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Sprintf("is not a valid URL (%s); write it like %s://example.com/mcp", urlErr(err), secure), true
	}
	scheme := strings.ToLower(u.Scheme)
	switch {
	case u.Scheme == "":
		return fmt.Sprintf("has no scheme; write it like %s://example.com/mcp", secure), false
	case scheme != secure && scheme != plain:
		return fmt.Sprintf("scheme %q is not supported for %s server; use %s://", u.Scheme, t.article(), secure), false
	case u.Host == "":
		return fmt.Sprintf("has no host; write it like %s://example.com/mcp", secure), true
	case scheme == plain && !isLoopback(u.Hostname()):
		return fmt.Sprintf("uses plain %s to %s; use %s:// (plain %s is only allowed to localhost, 127.0.0.1 and ::1)",
			plain, u.Hostname(), secure, plain), false
	}
	return "", false
}

func urlErr(err error) string {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err.Error()
	}
	return err.Error()
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
