package mcpregistry

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// ErrLimit means a registry or a download hit one of this package's limits
// (a size cap, a timeout, the page limit, a repeated cursor).
var ErrLimit = errors.New("stopped at a limit")

// LimitError names the limit a registry or a download hit, as the user
// reads it ("the 8 MB listing cap").
type LimitError struct {
	URL   string
	Limit string
	// Download: the limit of a file's download, not of a registry.
	Download bool
}

func (e *LimitError) Error() string {
	if e.Download {
		return fmt.Sprintf("download %s: stopped at %s", e.URL, e.Limit)
	}
	return fmt.Sprintf("registry %s: stopped at %s", e.URL, e.Limit)
}

func (e *LimitError) Unwrap() error { return ErrLimit }

// Size says n bytes the way a limit is named: "8 MB", "8 KB".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d-byte", n)
}

// Duration says d the way a limit is named: "20s", "2m0s" as "2 min".
func Duration(d time.Duration) string {
	switch {
	case d >= time.Minute && d%time.Minute == 0:
		return fmt.Sprintf("%d min", d/time.Minute)
	case d >= time.Second && d%time.Second == 0:
		return fmt.Sprintf("%d s", d/time.Second)
	}
	return d.String()
}

// Listing is every page of a search, as far as All got.
type Listing struct {
	Servers []ServerResponse
	Pages   int
	// Stale is the first page that came from the cache (nil for none).
	Stale *List
}

// All follows nextCursor from the first page of query to the last. It
// stops, returning what it listed so far and a LimitError, on a cursor
// seen before, after MaxPages pages and after Deadline; on ctx's end it
// returns what it listed so far and ctx's error.
func (c *Client) All(ctx context.Context, query string) (*Listing, error) {
	errDeadline := &LimitError{URL: c.base(), Limit: "the " + Duration(Deadline) + " listing deadline"}
	dctx, cancel := context.WithTimeoutCause(ctx, Deadline, errDeadline)
	defer cancel()
	out := &Listing{Servers: []ServerResponse{}}
	// A server a later page lists again (another version) is listed once.
	defer func() { out.Servers = Latest(out.Servers) }()
	seen := map[string]bool{"": true}
	for cursor := ""; ; {
		if out.Pages >= MaxPages {
			return out, &LimitError{URL: c.base(), Limit: fmt.Sprintf("the %d-page limit (%d servers listed; narrow the search)", MaxPages, len(out.Servers))}
		}
		l, err := c.Search(dctx, query, cursor)
		if err != nil {
			if ctx.Err() == nil && dctx.Err() != nil {
				return out, errDeadline
			}
			return out, err
		}
		out.Pages++
		out.Servers = append(out.Servers, l.Servers...)
		if l.Stale && out.Stale == nil {
			out.Stale = l
		}
		if l.NextCursor == "" {
			return out, nil
		}
		if seen[l.NextCursor] {
			return out, &LimitError{URL: c.base(), Limit: fmt.Sprintf("page %d: the registry repeated the cursor %q of an earlier page", out.Pages, l.NextCursor)}
		}
		seen[l.NextCursor] = true
		cursor = l.NextCursor
	}
}

// DownloadTimeout bounds one download (Download), its body included.
var DownloadTimeout = 5 * time.Minute

// maxRedirects bounds the redirects a download follows (same origin only).
const maxRedirects = 5

// CheckDownloadURL refuses what Download will not fetch, before any
// connection: anything but https, except plain http to this computer
// (a test registry, a local mirror).
func CheckDownloadURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("download %q: %w", raw, err)
	}
	switch {
	case u.Scheme == "https" && u.Host != "":
		return u, nil
	case u.Scheme == "http" && u.Host != "":
		if loopback(u.Hostname()) {
			return u, nil
		}
		return nil, fmt.Errorf("download %s: refused plain http to %s (anyone on the way could change the file): ask the publisher for an https:// URL", raw, u.Hostname())
	}
	return nil, fmt.Errorf("download %q: use an https:// URL", raw)
}

func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// DownloadFile downloads raw to path (created, 0600) as Download does, at
// most max bytes, and checks it against sha256 (hex): a file that does not
// match is removed and the error is a *ChecksumError; so is an empty
// sha256, refused before anything is fetched (an mcpb package must name
// its fileSha256).
func DownloadFile(ctx context.Context, raw, sha256Hex string, max int64, path string) (err error) {
	if sha256Hex == "" {
		return &ChecksumError{URL: raw}
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			_ = os.Remove(path)
		}
	}()
	sum := sha256.New()
	if _, err := Download(ctx, raw, max, io.MultiWriter(f, sum)); err != nil {
		return err
	}
	if got := hex.EncodeToString(sum.Sum(nil)); !strings.EqualFold(got, sha256Hex) {
		return &ChecksumError{URL: raw, Got: got, Want: sha256Hex}
	}
	return nil
}

// ChecksumError is a download that does not match its registry's
// fileSha256 (or has none to check it by); it matches ErrChecksum.
type ChecksumError struct{ URL, Got, Want string }

func (e *ChecksumError) Error() string {
	if e.Want == "" {
		return fmt.Sprintf("the mcpb package %s has no fileSha256 to check it by; it was not downloaded", e.URL)
	}
	return fmt.Sprintf("download %s: its SHA-256 is %s, not the registry's %s; it was not installed", e.URL, e.Got, e.Want)
}

func (e *ChecksumError) Unwrap() error { return ErrChecksum }

func origin(u *url.URL) string { return strings.ToLower(u.Scheme + "://" + u.Host) }

// Download copies the file at raw to w: at most max bytes, within
// DownloadTimeout, over https (or http to this computer), following
// redirects only within the same origin. It returns the bytes written; a
// limit hit is a LimitError naming it.
func Download(ctx context.Context, raw string, max int64, w io.Writer) (int64, error) {
	u, err := CheckDownloadURL(raw)
	if err != nil {
		return 0, err
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, DownloadTimeout)
	defer cancel()
	from := origin(u)
	hc := &http.Client{CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if o := origin(req.URL); o != from {
			return fmt.Errorf("redirected to another origin (%s); the file must come from %s", o, from)
		}
		if len(via) >= maxRedirects {
			return fmt.Errorf("more than %d redirects", maxRedirects)
		}
		return nil
	}}
	timedOut := func() error {
		if parent.Err() == nil && ctx.Err() != nil {
			return &LimitError{URL: raw, Limit: "the " + Duration(DownloadTimeout) + " download timeout", Download: true}
		}
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return 0, fmt.Errorf("download %s: %w", raw, err)
	}
	res, err := hc.Do(req)
	if err != nil {
		if e := timedOut(); e != nil {
			return 0, e
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is said once, below
		}
		return 0, fmt.Errorf("download %s: %w", raw, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("download %s: HTTP %d", raw, res.StatusCode)
	}
	n, err := io.Copy(w, io.LimitReader(res.Body, max))
	if err != nil {
		if e := timedOut(); e != nil {
			return n, e
		}
		return n, fmt.Errorf("download %s: %w", raw, err)
	}
	if n == max {
		// One byte more tells a file of exactly max from a larger one.
		if m, _ := io.ReadFull(res.Body, make([]byte, 1)); m > 0 {
			return n, &LimitError{URL: raw, Limit: "the " + Size(max) + " download cap", Download: true}
		}
	}
	return n, nil
}
