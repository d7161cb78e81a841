// Package icons turns the icons MCP servers list (serverInfo.icons and the
// icons of tools, prompts and resources) into data: URLs a window can show
// without loading anything itself.
//
// Only two kinds of source are used: a data: URL of an image, checked and
// passed on, and an https: URL, fetched here with a size and a time limit
// and cached in memory. Every other scheme (http:, file:, javascript:, …)
// is refused and never fetched: an icon is untrusted input (the spec says
// so), and a window that loaded server-named URLs would let a server track
// or probe the user.
//
//	f := icons.New()
//	src := icons.Pick(tool.Icons)    // "" when none is usable
//	url, err := f.DataURL(ctx, src)  // data:image/png;base64,…
package icons

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/plain"
)

// Limits; variables so tests can shorten them.
var (
	// MaxBytes bounds one icon (decoded): a larger one is refused.
	MaxBytes = 256 << 10
	// FetchTimeout bounds fetching one https icon, redirects included.
	FetchTimeout = 5 * time.Second
	// FailureTTL is how long a failed fetch is remembered, so a broken icon
	// is not fetched again on every listing.
	FailureTTL = time.Minute
)

// Sentinel errors.
var (
	// ErrScheme: the source is neither data: nor https:.
	ErrScheme = errors.New("icon source is not data: or https:") //nolint:staticcheck // ST1005: the colons are the schemes' own
	// ErrTooLarge: the icon is over MaxBytes.
	ErrTooLarge = errors.New("icon is too large")
	// ErrNotImage: the icon's type is not an image type shown here.
	ErrNotImage = errors.New("icon is not a PNG, JPEG, GIF, WebP, SVG or ICO image")
	// ErrPrivate: the icon's host is this machine or its local network.
	ErrPrivate = errors.New("icon host is on this machine or its local network")
)

// Error is a failure with one icon source.
type Error struct {
	Op  string // "parse", "fetch"
	Src string // the source, cut for messages
	Err error
}

func (e *Error) Error() string { return fmt.Sprintf("icons: %s %s: %v", e.Op, e.Src, e.Err) }
func (e *Error) Unwrap() error { return e.Err }

// types are the image types an icon may have.
var types = map[string]bool{
	"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true,
	"image/svg+xml": true, "image/x-icon": true, "image/vnd.microsoft.icon": true,
}

// Usable reports whether src has a scheme icons are taken from.
func Usable(src string) bool {
	s := strings.ToLower(src)
	return strings.HasPrefix(s, "data:") || strings.HasPrefix(s, "https://")
}

// Pick returns the source of the icon to show of a list: the first usable
// one without a theme or for the light theme, else the first usable one;
// "" when none is usable.
func Pick(list []mcp.Icon) string {
	first := ""
	for _, ic := range list {
		if !Usable(ic.Src) {
			continue
		}
		if ic.Theme == "" || ic.Theme == mcp.IconThemeLight {
			return ic.Src
		}
		if first == "" {
			first = ic.Src
		}
	}
	return first
}

// Fetcher fetches and caches icons. Safe for concurrent use.
type Fetcher struct {
	client *http.Client

	mu    sync.Mutex
	cache map[string]entry
	known map[string]bool // sources handed out by Allow
	calls map[string]*call
}

type entry struct {
	url    string
	err    error
	failed time.Time
}

// call is one fetch in flight: later askers wait for it.
type call struct {
	done chan struct{}
	e    entry
}

// New returns a Fetcher with its own HTTP client: https only, redirects
// only to https, FetchTimeout per icon, and only to public addresses: a
// server's icon URL must not make the app probe this machine or its local
// network (checked at each connection, after DNS, so a name that resolves
// to a private address is refused too). It goes direct, not through a
// proxy, for that check to hold.
func New() *Fetcher {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil
	tr.DialContext = (&net.Dialer{Timeout: FetchTimeout, Control: publicOnly}).DialContext
	return &Fetcher{
		client: &http.Client{Transport: tr, CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if req.URL.Scheme != "https" {
				return fmt.Errorf("redirect to %s: %w", req.URL.Scheme, ErrScheme)
			}
			if len(via) >= 5 {
				return errors.New("too many redirects")
			}
			return nil
		}},
		cache: map[string]entry{}, known: map[string]bool{}, calls: map[string]*call{},
	}
}

// Allow notes src as one a server listed, so Known reports it: a window
// asks only for icons it was shown, never for any URL it makes up.
func (f *Fetcher) Allow(src string) {
	if !Usable(src) {
		return
	}
	f.mu.Lock()
	f.known[src] = true
	f.mu.Unlock()
}

// Known reports whether src was allowed.
func (f *Fetcher) Known(src string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.known[src]
}

// DataURL returns src as a data: URL of an image: a data: source is
// checked (type and size) and returned as it is; an https: source is
// fetched (once; the result, or the failure for FailureTTL, is cached).
func (f *Fetcher) DataURL(ctx context.Context, src string) (string, error) {
	lower := strings.ToLower(src)
	switch {
	case strings.HasPrefix(lower, "data:"):
		if _, _, err := parseData(src); err != nil {
			return "", &Error{Op: "parse", Src: short(src), Err: err}
		}
		return src, nil
	case !strings.HasPrefix(lower, "https://"):
		return "", &Error{Op: "fetch", Src: short(src), Err: ErrScheme}
	}
	f.mu.Lock()
	if e, ok := f.cache[src]; ok && (e.err == nil || time.Since(e.failed) < FailureTTL) {
		f.mu.Unlock()
		return e.url, e.err
	}
	c, inflight := f.calls[src]
	if !inflight {
		c = &call{done: make(chan struct{})}
		f.calls[src] = c
	}
	f.mu.Unlock()
	if !inflight {
		u, err := f.fetch(src)
		c.e = entry{url: u, err: err}
		if err != nil {
			c.e.failed = time.Now()
		}
		f.mu.Lock()
		f.cache[src] = c.e
		delete(f.calls, src)
		f.mu.Unlock()
		close(c.done)
	}
	select {
	case <-c.done:
		return c.e.url, c.e.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// fetch gets an https icon within FetchTimeout and MaxBytes. It does not
// take the asker's context: the fetch is shared and cached.
func (f *Fetcher) fetch(src string) (string, error) {
	fail := func(err error) (string, error) { return "", &Error{Op: "fetch", Src: short(src), Err: err} }
	u, err := url.Parse(src)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return fail(ErrScheme)
	}
	ctx, cancel := context.WithTimeout(context.Background(), FetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return fail(err)
	}
	req.Header.Set("Accept", "image/*")
	resp, err := f.client.Do(req)
	if err != nil {
		return fail(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fail(fmt.Errorf("HTTP %d", resp.StatusCode))
	}
	if resp.ContentLength > int64(MaxBytes) {
		return fail(fmt.Errorf("%w: %d bytes, over %d", ErrTooLarge, resp.ContentLength, MaxBytes))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(MaxBytes)+1))
	if err != nil {
		return fail(err)
	}
	if len(body) > MaxBytes {
		return fail(fmt.Errorf("%w: over %d bytes", ErrTooLarge, MaxBytes))
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if !types[mt] {
		// A server may send a generic type: trust the bytes, not the name.
		mt, _, _ = mime.ParseMediaType(http.DetectContentType(body))
	}
	if !types[mt] {
		return fail(fmt.Errorf("%w (got %s)", ErrNotImage, mt))
	}
	return "data:" + mt + ";base64," + base64.StdEncoding.EncodeToString(body), nil
}

// cgnat is the carrier-grade NAT range (RFC 6598), private in practice.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// publicOnly is the dialer's Control: it refuses loopback, private,
// link-local, multicast and unspecified addresses.
func publicOnly(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return err
	}
	a := ap.Addr().Unmap()
	if a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() || cgnat.Contains(a) {
		return fmt.Errorf("%w (%s)", ErrPrivate, a)
	}
	return nil
}

// parseData checks a data: URL of an image and returns its type and size.
func parseData(src string) (string, int, error) {
	head, data, ok := strings.Cut(src[len("data:"):], ",")
	if !ok {
		return "", 0, errors.New("a data: URL without a comma")
	}
	params := strings.Split(head, ";")
	mt := strings.ToLower(strings.TrimSpace(params[0]))
	if !types[mt] {
		return "", 0, fmt.Errorf("%w (got %q)", ErrNotImage, mt)
	}
	n := len(data)
	if params[len(params)-1] == "base64" {
		n = base64.StdEncoding.DecodedLen(len(data))
	} else if un, err := url.PathUnescape(data); err == nil {
		n = len(un)
	}
	if n > MaxBytes {
		return "", 0, fmt.Errorf("%w: %d bytes, over %d", ErrTooLarge, n, MaxBytes)
	}
	return mt, n, nil
}

// short cuts a source for an error message (a data: URL may be long).
func short(src string) string {
	return plain.Clip(src, 60)
}
