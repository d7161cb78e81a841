package icons

import (
	"bytes"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// png is a real 1×1 PNG.
var png, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")

// tlsServer is an https server on 127.0.0.1 with the routes the tests use;
// hits counts requests per path. The Fetcher under test trusts its
// certificate and keeps its own redirect rule.
func tlsServer(t *testing.T, plainURL string) (*httptest.Server, *Fetcher, map[string]*atomic.Int32) {
	t.Helper()
	hits := map[string]*atomic.Int32{}
	for _, p := range []string{"/icon.png", "/big", "/big-chunked", "/slow", "/html", "/to-http", "/octet"} {
		hits[p] = &atomic.Int32{}
	}
	release := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/icon.png", func(w http.ResponseWriter, r *http.Request) {
		hits[r.URL.Path].Add(1)
		w.Header().Set("Content-Type", "image/png")
		w.Write(png)
	})
	mux.HandleFunc("/octet", func(w http.ResponseWriter, r *http.Request) {
		hits[r.URL.Path].Add(1)
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(png)
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		hits[r.URL.Path].Add(1)
		w.Header().Set("Content-Type", "image/png")
		w.Write(bytes.Repeat([]byte{1}, MaxBytes+1))
	})
	mux.HandleFunc("/big-chunked", func(w http.ResponseWriter, r *http.Request) {
		hits[r.URL.Path].Add(1)
		w.Header().Set("Content-Type", "image/png")
		for range 4 {
			w.Write(bytes.Repeat([]byte{1}, MaxBytes/2))
			w.(http.Flusher).Flush()
		}
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		hits[r.URL.Path].Add(1)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	mux.HandleFunc("/html", func(w http.ResponseWriter, r *http.Request) {
		hits[r.URL.Path].Add(1)
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><script>alert(1)</script></html>"))
	})
	mux.HandleFunc("/to-http", func(w http.ResponseWriter, r *http.Request) {
		hits[r.URL.Path].Add(1)
		http.Redirect(w, r, plainURL, http.StatusFound)
	})
	srv := httptest.NewTLSServer(mux)
	t.Cleanup(func() {
		close(release)
		srv.Close()
	})
	f := New()
	f.client.Transport = srv.Client().Transport
	return srv, f, hits
}

// TestDataURL: data: images pass checked, https: icons are fetched within
// the size and time limits and cached, and nothing else is ever fetched.
func TestDataURL(t *testing.T) {
	oldMax, oldTimeout := MaxBytes, FetchTimeout
	MaxBytes, FetchTimeout = 4096, 300*time.Millisecond
	t.Cleanup(func() { MaxBytes, FetchTimeout = oldMax, oldTimeout })

	var plainHits atomic.Int32
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		plainHits.Add(1)
		w.Header().Set("Content-Type", "image/png")
		w.Write(png)
	}))
	t.Cleanup(plain.Close)
	srv, f, hits := tlsServer(t, plain.URL+"/icon.png")
	pngURL := "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)

	for _, tc := range []struct {
		name string
		src  string
		want string // the data: URL, when it works
		err  error  // else the sentinel
	}{
		{"data png", pngURL, pngURL, nil},
		{"data svg", "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E", "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E", nil},
		{"data html", "data:text/html;base64,PHNjcmlwdD4=", "", ErrNotImage},
		{"data too large", "data:image/png;base64," + strings.Repeat("A", MaxBytes*2), "", ErrTooLarge},
		{"https png", srv.URL + "/icon.png", pngURL, nil},
		{"https octet-stream sniffed", srv.URL + "/octet", pngURL, nil},
		{"https too large", srv.URL + "/big", "", ErrTooLarge},
		{"https too large without a length", srv.URL + "/big-chunked", "", ErrTooLarge},
		{"https html", srv.URL + "/html", "", ErrNotImage},
		{"https redirect to http", srv.URL + "/to-http", "", ErrScheme},
		{"http", plain.URL + "/icon.png", "", ErrScheme},
		{"file", "file:///etc/passwd", "", ErrScheme},
		{"javascript", "javascript:alert(1)", "", ErrScheme},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := f.DataURL(t.Context(), tc.src)
			if tc.err != nil {
				var ie *Error
				if !errors.Is(err, tc.err) || !errors.As(err, &ie) {
					t.Fatalf("DataURL = %q, %v; want %v", got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("DataURL = %.80q, %v; want %.80q", got, err, tc.want)
			}
		})
	}
	if n := plainHits.Load(); n != 0 {
		t.Errorf("the http: server was asked %d times; nothing but https is fetched", n)
	}

	t.Run("timeout", func(t *testing.T) {
		start := time.Now()
		_, err := f.DataURL(t.Context(), srv.URL+"/slow")
		if err == nil || time.Since(start) > FetchTimeout+2*time.Second {
			t.Fatalf("slow icon: %v after %s; want an error after about %s", err, time.Since(start), FetchTimeout)
		}
	})

	t.Run("cached", func(t *testing.T) {
		for _, p := range []string{"/icon.png", "/big", "/slow"} {
			before := hits[p].Load()
			_, _ = f.DataURL(t.Context(), srv.URL+p)
			if after := hits[p].Load(); after != before {
				t.Errorf("%s fetched again (%d → %d); results and failures are cached", p, before, after)
			}
		}
	})
}

// TestPick: the first usable icon, light or unthemed first; none when no
// source is data: or https:.
func TestPick(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []mcp.Icon
		want string
	}{
		{"none", nil, ""},
		{"only unusable", []mcp.Icon{{Src: "http://x/a.png"}, {Src: "file:///a.png"}}, ""},
		{"skips unusable", []mcp.Icon{{Src: "http://x/a.png"}, {Src: "https://x/b.png"}}, "https://x/b.png"},
		{"light before dark", []mcp.Icon{{Src: "https://x/dark.png", Theme: mcp.IconThemeDark}, {Src: "https://x/light.png", Theme: mcp.IconThemeLight}}, "https://x/light.png"},
		{"dark when alone", []mcp.Icon{{Src: "data:image/png;base64,AA==", Theme: mcp.IconThemeDark}}, "data:image/png;base64,AA=="},
	} {
		if got := Pick(tc.in); got != tc.want {
			t.Errorf("%s: Pick = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestAllow: only usable sources that were allowed are known.
func TestAllow(t *testing.T) {
	f := New()
	f.Allow("https://x/a.png")
	f.Allow("http://x/b.png")
	if !f.Known("https://x/a.png") || f.Known("http://x/b.png") || f.Known("https://x/other.png") {
		t.Error("Known does not match what was allowed")
	}
}

// TestPrivateHostsRefused: the Fetcher New makes never connects to this
// machine or its local network, whatever the URL names (an address, or a
// name that resolves to one); public addresses pass the check.
func TestPrivateHostsRefused(t *testing.T) {
	f := New()
	for _, src := range []string{
		"https://127.0.0.1/icon.png",
		"https://localhost/icon.png",
		"https://[::1]/icon.png",
		"https://10.1.2.3/icon.png",
		"https://192.168.0.1/icon.png",
		"https://169.254.169.254/latest/meta-data/",
		"https://100.64.0.1/icon.png",
		"https://[fe80::1]/icon.png",
	} {
		if _, err := f.fetch(src); !errors.Is(err, ErrPrivate) {
			t.Errorf("%s: %v, want ErrPrivate", src, err)
		}
	}
	for _, addr := range []string{"93.184.215.14:443", "[2606:2800:21f:cb07:6820:80da:af6b:8b2c]:443"} {
		if err := publicOnly("tcp", addr, nil); err != nil {
			t.Errorf("%s refused: %v", addr, err)
		}
	}
}
