package mcpregistry_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry"
	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry/mcpregistrytest"
	"github.com/switchboard-app/switchboard/mcpmanager/plain"
)

// hostile starts a hostile registry and a client of it with a cache.
func hostile(t *testing.T, mode string) (*mcpregistrytest.Hostile, *mcpregistry.Client) {
	t.Helper()
	h, err := mcpregistrytest.StartHostile(t.Context(), mode)
	if err != nil {
		t.Fatal(err)
	}
	return h, &mcpregistry.Client{BaseURL: h.URL, CacheFile: filepath.Join(t.TempDir(), "registry-cache.json")}
}

// set sets *p to v for the test.
func set[T any](t *testing.T, p *T, v T) {
	old := *p
	*p = v
	t.Cleanup(func() { *p = old })
}

// One page that goes wrong says which limit stopped it, by name, and a
// page that is not a listing is never replaced by a cached one.
func TestSearchNamesTheLimit(t *testing.T) {
	set(t, &mcpregistry.Timeout, 300*time.Millisecond)
	set(t, &mcpregistry.MaxBodyBytes, 8<<10)
	tests := []struct {
		mode string
		says string
		is   error
	}{
		{mcpregistrytest.SlowDrip, "the 300ms per-request timeout", mcpregistry.ErrLimit},
		{mcpregistrytest.CutOff, "not a listing: unexpected end of JSON input", nil},
		{mcpregistrytest.Oversize, "the 8 KB listing cap", mcpregistry.ErrLimit},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			_, c := hostile(t, tt.mode)
			start := time.Now()
			l, err := c.Search(t.Context(), "", "")
			if err == nil {
				t.Fatalf("a listing: %+v", l)
			}
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("took %v", took)
			}
			if s, d := plain.Explain(err); !strings.Contains(s+"\n"+d, tt.says) {
				t.Errorf("%v\nsentence %q\ndetail %q\nwant %q", err, s, d, tt.says)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("%v is not %v", err, tt.is)
			}
		})
	}
}

// A search the user cancelled ends with the cancellation, not with the
// cached page (which made 'search --all' loop for ever on SIGTERM).
func TestSearchCancelledIsNotServedFromCache(t *testing.T) {
	_, c := start(t)
	if _, err := c.Search(t.Context(), "", ""); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	l, err := c.Search(ctx, "", "")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled search: a listing (%v), err %v", l != nil, err)
	}
}

// All follows the pages and stops on a repeated cursor, after MaxPages,
// after Deadline and on cancel, with what it had so far and the limit
// named.
func TestAllEnds(t *testing.T) {
	set(t, &mcpregistry.MaxPages, 20)
	t.Run("every page", func(t *testing.T) {
		set(t, &mcpregistry.PageLimit, 3)
		_, c := start(t)
		l, err := c.All(t.Context(), "")
		if err != nil || len(l.Servers) != 9 || l.Pages != 3 {
			t.Fatalf("%v: %+v", err, l)
		}
	})
	tests := []struct {
		name  string
		mode  string
		ctx   func(t *testing.T) context.Context
		setup func(t *testing.T)
		says  string
		pages int
	}{
		{"repeated cursor", mcpregistrytest.RepeatCursor, nil, nil, `the registry repeated the cursor "again"`, 2},
		{"endless pages", mcpregistrytest.EndlessPages, nil, nil, "the 20-page limit", 20},
		{"deadline", mcpregistrytest.EndlessPages, nil, func(t *testing.T) {
			set(t, &mcpregistry.MaxPages, 1<<20)
			set(t, &mcpregistry.Deadline, 200*time.Millisecond)
		}, "the 200ms listing deadline", -1},
		{"cancel", mcpregistrytest.EndlessPages, func(t *testing.T) context.Context {
			ctx, cancel := context.WithCancel(t.Context())
			time.AfterFunc(100*time.Millisecond, cancel)
			return ctx
		}, func(t *testing.T) { set(t, &mcpregistry.MaxPages, 1<<20) }, "context canceled", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.setup != nil {
				tt.setup(t)
			}
			ctx := t.Context()
			if tt.ctx != nil {
				ctx = tt.ctx(t)
			}
			h, c := hostile(t, tt.mode)
			l, err := c.All(ctx, "")
			if err == nil || !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("err %v, want %q", err, tt.says)
			}
			if l == nil || len(l.Servers) == 0 || (tt.pages >= 0 && l.Pages != tt.pages) {
				t.Errorf("listing so far: %+v, want %d pages", l, tt.pages)
			}
			if n := h.Requests.Load(); n >= mcpregistrytest.MaxRequests {
				t.Errorf("%d requests: it only stopped because the registry did", n)
			}
		})
	}
}

// Download refuses plain http to another computer before connecting,
// a redirect to another origin, a file over its cap and a slow one, each
// by name.
func TestDownloadLimits(t *testing.T) {
	set(t, &mcpregistry.DownloadTimeout, 300*time.Millisecond)
	other, err := mcpregistrytest.Start(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	redirect, _ := hostile(t, mcpregistrytest.Redirect)
	redirect.Target = other.URL
	drip, _ := hostile(t, mcpregistrytest.SlowDrip)
	big, _ := hostile(t, mcpregistrytest.Oversize)
	ok, _ := start(t)
	tests := []struct {
		name, url string
		max       int64
		says      string
	}{
		{"plain http elsewhere", "http://downloads.example.com/x.mcpb", 1 << 20, "plain http to downloads.example.com"},
		{"redirect to another origin", redirect.URL + "/x.mcpb", 1 << 20, "redirected to another origin (" + other.URL + ")"},
		{"slow", drip.URL + "/x.mcpb", 1 << 20, "the 300ms download timeout"},
		{"over the cap", big.URL + "/x.mcpb", 8 << 10, "the 8 KB download cap"},
		{"not a URL", "ftp://x/y.mcpb", 1 << 20, "use an https:// URL"},
		{"fine", ok.URL + "/v0.1/servers", 1 << 20, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			n, err := mcpregistry.Download(t.Context(), tt.url, tt.max, &buf)
			if tt.says == "" {
				if err != nil || n == 0 || int64(buf.Len()) != n {
					t.Fatalf("%d bytes: %v", n, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("err %v, want %q", err, tt.says)
			}
			if tt.name == "over the cap" && int64(buf.Len()) > tt.max {
				t.Errorf("wrote %d bytes past the %d cap", buf.Len(), tt.max)
			}
		})
	}
	if redirect.Requests.Load() != 1 || other.Requests.Load() != 0 {
		t.Errorf("the redirect was followed: %d, %d requests", redirect.Requests.Load(), other.Requests.Load())
	}
}
