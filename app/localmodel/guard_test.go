package localmodel

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// backend stands for llama-server: it counts the requests that reach it,
// checks that the key is passed on, and streams its answer in two events,
// the second only once the test has read the first.
type backend struct {
	hits atomic.Int32
	next chan struct{}
}

func (b *backend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.hits.Add(1)
	if r.Header.Get("Authorization") != "Bearer k3y" {
		http.Error(w, "no key passed on", http.StatusUnauthorized)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	io.WriteString(w, "data: one\n\n")
	w.(http.Flusher).Flush()
	<-b.next
	io.WriteString(w, "data: two\n\n")
}

func startGuard(t *testing.T) (*guard, *backend) {
	t.Helper()
	b := &backend{next: make(chan struct{}, 1)}
	ts := httptest.NewServer(b)
	t.Cleanup(ts.Close)
	g, err := newGuard("k3y")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.close() })
	g.setBackend(strings.TrimPrefix(ts.URL, "http://"))
	return g, b
}

// The app's own request passes, streamed as it comes, on either of the
// guard's names.
func TestGuardPassesTheAppsRequests(t *testing.T) {
	g, b := startGuard(t)
	port := strings.TrimPrefix(g.addr(), "127.0.0.1:")
	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port} {
		req, _ := http.NewRequest(http.MethodPost, "http://"+g.addr()+"/v1/chat/completions", strings.NewReader("{}"))
		req.Host = host
		req.Header.Set("Authorization", "Bearer k3y")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(res.Body)
		first, err := r.ReadString('\n')
		if err != nil || first != "data: one\n" || res.StatusCode != http.StatusOK {
			t.Fatalf("Host %s: %s, first line %q (%v)", host, res.Status, first, err)
		}
		b.next <- struct{}{} // the backend writes the rest only now: the first event was not held back
		rest, _ := io.ReadAll(r)
		res.Body.Close()
		if string(rest) != "\ndata: two\n\n" {
			t.Fatalf("Host %s: rest %q", host, rest)
		}
	}
	if n := b.hits.Load(); n != 2 {
		t.Fatalf("backend reached %d times, want 2", n)
	}
}

// What a web page in the browser can send — an Origin, a rebound name in
// Host, a preflight, no key — is refused before llama-server sees it.
func TestGuardRefusesBrowsersAndStrangers(t *testing.T) {
	g, b := startGuard(t)
	port := strings.TrimPrefix(g.addr(), "127.0.0.1:")
	for _, tt := range []struct {
		name   string
		method string
		host   string
		header map[string]string
		status int
	}{
		{"a foreign Origin", "POST", "", map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
		{"a local Origin", "POST", "", map[string]string{"Origin": "http://127.0.0.1:" + port}, http.StatusForbidden},
		{"an empty Origin", "POST", "", map[string]string{"Origin": ""}, http.StatusForbidden},
		{"Origin null", "POST", "", map[string]string{"Origin": "null"}, http.StatusForbidden},
		{"a preflight", "OPTIONS", "", map[string]string{"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}, http.StatusForbidden},
		{"a browser's request without Origin", "GET", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"a rebound name", "POST", "evil.example:" + port, nil, http.StatusMisdirectedRequest},
		{"another port", "POST", "127.0.0.1:1", nil, http.StatusMisdirectedRequest},
		{"localhost without the port", "POST", "localhost", nil, http.StatusMisdirectedRequest},
		{"no key", "POST", "", map[string]string{"Authorization": ""}, http.StatusUnauthorized},
		{"a wrong key", "POST", "", map[string]string{"Authorization": "Bearer k3z"}, http.StatusUnauthorized},
		{"the key without Bearer", "POST", "", map[string]string{"Authorization": "k3y"}, http.StatusUnauthorized},
		{"the key as X-Api-Key", "POST", "", map[string]string{"Authorization": "", "X-Api-Key": "k3y"}, http.StatusUnauthorized},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, "http://"+g.addr()+"/v1/chat/completions", strings.NewReader("{}"))
			req.Header.Set("Authorization", "Bearer k3y")
			if tt.host != "" {
				req.Host = tt.host
			}
			for k, v := range tt.header {
				if k == "Authorization" && v == "" {
					req.Header.Del(k)
					continue
				}
				req.Header[k] = []string{v}
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tt.status || !strings.Contains(string(body), refusedBy) {
				t.Fatalf("%s: %s", res.Status, body)
			}
			if res.Header.Get("Access-Control-Allow-Origin") != "" {
				t.Fatalf("a CORS answer: %v", res.Header)
			}
			if n := b.hits.Load(); n != 0 {
				t.Fatalf("llama-server was reached %d times", n)
			}
		})
	}
}

// Before llama-server runs, and while it is down, the app's request gets
// an answer that says so.
func TestGuardWithoutItsBackend(t *testing.T) {
	g, err := newGuard("k3y")
	if err != nil {
		t.Fatal(err)
	}
	defer g.close()
	ask := func() (int, string) {
		req, _ := http.NewRequest(http.MethodGet, "http://"+g.addr()+"/health", nil)
		req.Header.Set("Authorization", "Bearer k3y")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(body)
	}
	if status, body := ask(); status != http.StatusServiceUnavailable || !strings.Contains(body, "starting") {
		t.Fatalf("before a backend: %d %s", status, body)
	}
	ts := httptest.NewServer(http.NotFoundHandler())
	g.setBackend(strings.TrimPrefix(ts.URL, "http://"))
	ts.Close() // llama-server exited
	if status, body := ask(); status != http.StatusBadGateway || !strings.Contains(body, "not answering") {
		t.Fatalf("backend down: %d %s", status, body)
	}
}
