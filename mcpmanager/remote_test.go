package mcpmanager

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/registry"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// everythingHTTP runs server-everything in mode (streamableHttp or sse) on a
// free loopback port and returns its base URL.
func everythingHTTP(t *testing.T, mode string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(npm(t, "mcp-server-everything"), mode)
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		once := sync.Once{}
		for sc.Scan() {
			if strings.Contains(sc.Text(), fmt.Sprint(port)) {
				once.Do(func() { close(ready) })
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		t.Fatalf("server-everything %s did not start", mode)
	}
	return fmt.Sprintf("http://127.0.0.1:%d", port)
}

// headerProxy forwards to target and records the X-Switchboard-Test header it saw.
func headerProxy(t *testing.T, target string) (string, func() string) {
	t.Helper()
	u, _ := url.Parse(target)
	var mu sync.Mutex
	var seen string
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.FlushInterval = -1 // stream SSE through
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if v := r.Header.Get("X-Switchboard-Test"); v != "" {
			seen = v
		}
		mu.Unlock()
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() string { mu.Lock(); defer mu.Unlock(); return seen }
}

func TestRemoteServers(t *testing.T) {
	httpURL := everythingHTTP(t, "streamableHttp")
	sseURL := everythingHTTP(t, "sse")
	proxied, seenHeader := headerProxy(t, httpURL)

	unauthorized := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"`)
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	}))
	t.Cleanup(unauthorized.Close)
	stop := make(chan struct{})
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // never answers while the test runs
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	t.Cleanup(silent.Close)
	t.Cleanup(func() { close(stop) }) // runs first: lets Close finish

	m := New(Options{})
	t.Cleanup(func() { m.Close(context.Background()) })
	m.Apply([]ServerConfig{
		{Name: "http", Remote: &supervisor.Remote{URL: proxied + "/mcp", Headers: map[string]string{"X-Switchboard-Test": "header-ok"}}},
		{Name: "sse", Remote: &supervisor.Remote{URL: sseURL + "/sse", Type: supervisor.RemoteSSE}},
		{Name: "fallback", Remote: &supervisor.Remote{URL: sseURL + "/sse"}},         // no type: HTTP fails, SSE works
		{Name: "denied", Remote: &supervisor.Remote{URL: unauthorized.URL + "/mcp"}}, // no restarts: a 401 will not heal by itself
		{Name: "silent", Remote: &supervisor.Remote{URL: silent.URL + "/mcp", Type: supervisor.RemoteHTTP}, StartTimeout: time.Second, Restart: supervisor.Restart{Disabled: true}},
		{Name: "local", Command: faultServer},
	})
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	m.WaitSettled(ctx)

	for _, name := range []string{"http", "sse", "fallback", "local"} {
		if st := statusOf(m, name); st.State != supervisor.Ready {
			t.Errorf("%s: %s %q", name, st.State, st.Error)
		}
	}
	if st := statusOf(m, "denied"); st.State != supervisor.Error || !strings.HasPrefix(st.Error, "denied: the server needs authorization (HTTP 401): add its token") || st.Restarts != 0 {
		t.Errorf("denied: %s %q", st.State, st.Error)
	}
	if st := statusOf(m, "silent"); st.State != supervisor.Error || !strings.Contains(st.Error, "did not finish the MCP handshake") {
		t.Errorf("silent: %s %q", st.State, st.Error)
	}
	for _, name := range []string{"http", "sse", "fallback"} {
		res, err := m.Registry().Call(ctx, name+"__echo", map[string]any{"message": "over " + name}, registry.CallOptions{})
		if err != nil || !strings.Contains(callText(t, res), "over "+name) {
			t.Errorf("%s echo = %v, %v", name, res, err)
		}
	}
	if got := seenHeader(); got != "header-ok" {
		t.Errorf("configured header reached the server as %q", got)
	}
	if res, err := m.Registry().Call(ctx, "local__echo", map[string]any{"text": "still fine"}, registry.CallOptions{}); err != nil || callText(t, res) != "still fine" {
		t.Errorf("local server affected by remote failures: %v %v", res, err)
	}
}
