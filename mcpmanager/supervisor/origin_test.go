package supervisor

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// collector is another origin (another port on 127.0.0.1) that records
// every request it gets.
type collector struct {
	URL  string
	mu   sync.Mutex
	seen []http.Header
}

func newCollector(t *testing.T) *collector {
	t.Helper()
	c := &collector{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.seen = append(c.seen, r.Header.Clone())
		c.mu.Unlock()
		http.Error(w, "nothing here", http.StatusNotFound)
	}))
	t.Cleanup(srv.Close)
	c.URL = srv.URL
	return c
}

func (c *collector) requests() []http.Header {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]http.Header(nil), c.seen...)
}

// loggedIn is an Authorizer holding a token for url.
func loggedIn(t *testing.T, url string) *oauth.Authorizer {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"server_url": url, "access_token": "oauth-secret", "token_type": "Bearer"})
	st := oauth.NewMemoryStore()
	if err := st.Set(oauth.KeyFor("remote"), string(b)); err != nil {
		t.Fatal(err)
	}
	return oauth.New(oauth.Config{Server: "remote", URL: url}, st)
}

// TestRedirectToAnotherOrigin: a server that redirects elsewhere is
// refused before anything — the OAuth token, the configured headers, the
// request itself — reaches the other origin, and the error names the server
// and the target.
func TestRedirectToAnotherOrigin(t *testing.T) {
	for _, c := range []struct {
		name   string
		typ    string
		status int
	}{
		{"streamable http, 307", RemoteHTTP, http.StatusTemporaryRedirect},
		{"streamable http, 308", RemoteHTTP, http.StatusPermanentRedirect},
		{"sse, 302", RemoteSSE, http.StatusFound},
		{"either, 301", "", http.StatusMovedPermanently},
	} {
		t.Run(c.name, func(t *testing.T) {
			other := newCollector(t)
			target := other.URL + "/mcp"
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, target, c.status)
			}))
			t.Cleanup(srv.Close)
			rec := newRecorder()
			s, wait := runRemote(t, Spec{
				Name:         "remote",
				Remote:       &Remote{URL: srv.URL + "/mcp", Type: c.typ, Headers: map[string]string{"X-Api-Key": "header-secret"}},
				Auth:         loggedIn(t, srv.URL+"/mcp"),
				StartTimeout: 5 * time.Second,
			}, Options{OnStatus: rec.on})
			err := wait()
			if !errors.Is(err, ErrOtherOrigin) {
				t.Errorf("Run returned %v, want ErrOtherOrigin", err)
			}
			st := s.Status()
			if st.State != Error || st.Restarts != 0 || !strings.HasPrefix(st.Error, "remote: refused the redirect to "+target) {
				t.Errorf("status %s %q (%d restarts), want error naming the server and %s, no restarts", st.State, st.Error, st.Restarts, target)
			}
			for _, h := range other.requests() {
				t.Errorf("the other origin got a request (Authorization %q, X-Api-Key %q)", h.Get("Authorization"), h.Get("X-Api-Key"))
			}
		})
	}
}

// TestRedirectWithinOrigin: a redirect on the same origin is still
// followed, with the token and the configured headers.
func TestRedirectWithinOrigin(t *testing.T) {
	m := server.NewMCPServer("same", "1", server.WithToolCapabilities(true))
	h := server.NewStreamableHTTPServer(m)
	var mu sync.Mutex
	var refused []string
	mux := http.NewServeMux()
	mux.HandleFunc("/old/mcp", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/mcp", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Api-Key") != "header-secret" || r.Header.Get("Authorization") != "Bearer oauth-secret" {
			mu.Lock()
			refused = append(refused, r.Method+" without credentials")
			mu.Unlock()
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	s, _ := runRemote(t, Spec{
		Name:         "remote",
		Remote:       &Remote{URL: srv.URL + "/old/mcp", Type: RemoteHTTP, Headers: map[string]string{"X-Api-Key": "header-secret"}},
		Auth:         loggedIn(t, srv.URL+"/old/mcp"),
		StartTimeout: 5 * time.Second,
	}, Options{})
	waitState(t, s, Ready, 10*time.Second)
	mu.Lock()
	defer mu.Unlock()
	if len(refused) > 0 {
		t.Errorf("requests after the redirect lacked credentials: %q", refused)
	}
}

// TestGuard: the bottom of the HTTP stack refuses every request to another
// origin — another host, port or a step down from https — whatever made it.
func TestGuard(t *testing.T) {
	g, err := newOriginGuard("remote", "https://mcp.example.com/mcp")
	if err != nil {
		t.Fatal(err)
	}
	called := 0
	g.base = roundTripFunc(func(*http.Request) (*http.Response, error) {
		called++
		return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("{}"))}, nil
	})
	cases := []struct {
		url string
		ok  bool
	}{
		{"https://mcp.example.com/mcp", true},
		{"https://MCP.example.com:443/messages?session=1", true},
		{"http://mcp.example.com/mcp", false},
		{"https://mcp.example.com:8443/mcp", false},
		{"https://evil.example/mcp", false},
		{"https://mcp.example.com.evil.example/mcp", false},
	}
	for _, c := range cases {
		called = 0
		req, _ := http.NewRequest(http.MethodPost, c.url, strings.NewReader("{}"))
		req.Header.Set("Authorization", "Bearer oauth-secret")
		resp, err := g.RoundTrip(req)
		if c.ok {
			if err != nil || called != 1 {
				t.Errorf("%s: %v (sent %d)", c.url, err, called)
			} else {
				resp.Body.Close()
			}
			continue
		}
		var oe *OriginError
		if !errors.As(err, &oe) || called != 0 || oe.Target != c.url || oe.Server != "remote" {
			t.Errorf("%s: %v (sent %d), want an OriginError and nothing sent", c.url, err, called)
		}
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestFinalURLChecked: the URL rules hold at start for the URL as it is
// then, whatever a placeholder put in it.
func TestFinalURLChecked(t *testing.T) {
	for _, u := range []string{"http://169.254.169.254/mcp", "https://{{host}}/mcp", "https://127.0.0.1:1/mcp?k=${secret:k}"} {
		t.Run(u, func(t *testing.T) {
			s, wait := runRemote(t, Spec{Name: "remote", Remote: &Remote{URL: u}}, Options{})
			if err := wait(); !errors.Is(err, config.ErrURL) {
				t.Errorf("Run returned %v, want config.ErrURL", err)
			}
			if st := s.Status(); st.State != Error || !strings.HasPrefix(st.Error, "remote: url ") || st.Restarts != 0 {
				t.Errorf("status %s %q (%d restarts)", st.State, st.Error, st.Restarts)
			}
		})
	}
}

// TestRemoteMessageLimit: a remote server's oversized answer fails with the
// limit named instead of being read whole.
func TestRemoteMessageLimit(t *testing.T) {
	smallLimit(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":0,"result":{"x":"`)
		chunk := strings.Repeat("x", 64<<10)
		for range (4 << 20) / len(chunk) {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	s, wait := runRemote(t, Spec{Name: "remote", Remote: &Remote{URL: srv.URL + "/mcp", Type: RemoteHTTP}, Restart: Restart{Disabled: true}, StartTimeout: 5 * time.Second}, Options{})
	err := wait()
	if st := s.Status(); !errors.Is(err, wire.ErrTooLarge) || !strings.Contains(st.Error, "1 MB limit") {
		t.Errorf("Run returned %v; status %q", err, st.Error)
	}
}

// TestCappedBody: one server-sent event, or one JSON body, is bounded;
// many events that each fit are not.
func TestCappedBody(t *testing.T) {
	many := func(event string, n int) string { return strings.Repeat(event, n) }
	cases := []struct {
		name   string
		events bool
		body   string
		over   bool
	}{
		{"events that each fit, LF", true, many("data: 0123456789\n\n", 100), false},
		{"events that each fit, CRLF", true, many("data: 0123456789\r\n\r\n", 100), false},
		{"events that each fit, CR", true, many("data: 0123456789\r\r", 100), false},
		{"one event of many short lines", true, many("data: 0123456789\n", 100), true},
		{"one event of many short CRLF lines", true, many("data: 0123456789\r\n", 100), true},
		{"an event over the limit inside one read", true, many("x", 200) + "\n\n", true},
		{"a JSON body within the limit", false, many("x", 64), false},
		{"a JSON body over it", false, many("x\n", 100), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := &capped{rc: io.NopCloser(strings.NewReader(c.body)), limit: 64, events: c.events}
			got, err := io.ReadAll(body)
			if c.over {
				if !errors.Is(err, wire.ErrTooLarge) {
					t.Errorf("err %v after %d bytes, want ErrTooLarge", err, len(got))
				}
				return
			}
			if err != nil || string(got) != c.body {
				t.Errorf("err %v, got %d of %d bytes", err, len(got), len(c.body))
			}
		})
	}
}

// TestRemoteNotFound: a URL whose path nothing serves says so, instead of
// mcp-go's guess that the server speaks legacy SSE.
func TestRemoteNotFound(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	s, wait := runRemote(t, Spec{Name: "remote", Remote: &Remote{URL: srv.URL + "/sse"}, Restart: Restart{Disabled: true}, StartTimeout: 5 * time.Second}, Options{})
	_ = wait()
	if st := s.Status(); !strings.Contains(st.Error, srv.URL+"/sse answered 404 Not Found over Streamable HTTP and over SSE: check the URL's path") {
		t.Errorf("status %q", st.Error)
	}
}
