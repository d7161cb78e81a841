package mcpmanager

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth/oauthtest"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
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
	cmd := exec.Command(proctest.NPM(t, "mcp-server-everything"), mode)
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

// dropProxy forwards to target but drops the connection of every tools/call.
func dropProxy(t *testing.T, target string) string {
	t.Helper()
	u, _ := url.Parse(target)
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.FlushInterval = -1
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"tools/call"`)) {
			c, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				c.Close() // the server went away mid-call
			}
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestRemoteServers(t *testing.T) {
	httpURL := everythingHTTP(t, "streamableHttp")
	sseURL := everythingHTTP(t, "sse")
	proxied, seenHeader := headerProxy(t, httpURL)
	dropping := dropProxy(t, httpURL)

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
		{Name: "dropper", Remote: &supervisor.Remote{URL: dropping + "/mcp", Type: supervisor.RemoteHTTP}},
	})
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	m.WaitSettled(ctx)

	for _, name := range []string{"http", "sse", "fallback", "local", "dropper"} {
		if st := statusOf(m, name); st.State != supervisor.Ready {
			t.Errorf("%s: %s %q", name, st.State, st.Error)
		}
	}
	if st := statusOf(m, "denied"); st.State != supervisor.NeedsLogin || !strings.HasPrefix(st.Error, "denied: the server needs you to log in (HTTP 401): press Log in") || st.Restarts != 0 {
		t.Errorf("denied: %s %q", st.State, st.Error)
	}
	if st := statusOf(m, "silent"); st.State != supervisor.Error || !strings.Contains(st.Error, "did not finish the MCP handshake") {
		t.Errorf("silent: %s %q", st.State, st.Error)
	}
	// A server that goes away mid-call fails that call, naming itself.
	if _, err := m.Router().Call(ctx, "dropper", "echo", map[string]any{"message": "lost"}, router.CallOptions{}); err == nil || !strings.HasPrefix(err.Error(), "dropper: echo: ") {
		t.Errorf("dropped call: %v", err)
	}
	for _, name := range []string{"http", "sse", "fallback"} {
		res, err := m.Router().Call(ctx, name, "echo", map[string]any{"message": "over " + name}, router.CallOptions{})
		if err != nil || !strings.Contains(mcptest.Text(res), "over "+name) {
			t.Errorf("%s echo = %v, %v", name, res, err)
		}
	}
	if got := seenHeader(); got != "header-ok" {
		t.Errorf("configured header reached the server as %q", got)
	}
	if res, err := m.Router().Call(ctx, "local", "echo", map[string]any{"text": "still fine"}, router.CallOptions{}); err != nil || mcptest.Text(res) != "still fine" {
		t.Errorf("local server affected by remote failures: %v %v", res, err)
	}
}

func TestLogin(t *testing.T) {
	oauthtest.FollowRedirects(t)
	store := oauth.NewMemoryStore()
	var shown []string
	locked := oauthtest.New(t)
	lockedURL := locked.URL
	m := New(Options{Tokens: store, OnLoginURL: func(server, u string) { shown = append(shown, server+" "+u) }})
	t.Cleanup(func() { m.Close(context.Background()) })
	m.Apply([]ServerConfig{
		{Name: "locked", Remote: &supervisor.Remote{URL: lockedURL}},
		{Name: "local", Command: faultServer},
	})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	m.WaitSettled(ctx)
	if st := statusOf(m, "locked"); st.State != supervisor.NeedsLogin || !strings.Contains(st.Error, "switchboard servers login locked") {
		t.Fatalf("before login: %s %q", st.State, st.Error)
	}
	if _, err := m.Router().Call(ctx, "locked", "whoami", nil, router.CallOptions{}); err == nil || !strings.Contains(err.Error(), "log in") {
		t.Errorf("call before login: %v", err)
	}

	if err := m.Login(ctx, "locked"); err != nil {
		t.Fatal(err)
	}
	if len(shown) != 1 || !strings.HasPrefix(shown[0], "locked "+strings.TrimSuffix(lockedURL, "/mcp")+"/authorize?") {
		t.Errorf("login URL offered: %q", shown)
	}
	m.WaitSettled(ctx)
	res, err := m.Router().Call(ctx, "locked", "whoami", nil, router.CallOptions{})
	if err != nil || mcptest.Text(res) != "you are logged in" {
		t.Fatalf("after login: %v %v (status %+v)", res, err, statusOf(m, "locked"))
	}
	if raw, err := store.Get(oauth.KeyFor("locked")); err != nil || !strings.Contains(raw, locked.Token()) {
		t.Errorf("token not kept in the store: %q %v", raw, err)
	}

	// The login outlives a restart: the token is sent again without a new login.
	if err := m.Restart(ctx, "locked"); err != nil {
		t.Fatal(err)
	}
	m.WaitSettled(ctx)
	if st := statusOf(m, "locked"); st.State != supervisor.Ready || locked.Logins() != 1 {
		t.Errorf("after restart: %s %q, %d logins", st.State, st.Error, locked.Logins())
	}

	for _, c := range []struct{ name, want string }{
		{"local", "only remote (http/sse) servers log in"},
		{"nobody", "no server with that name"},
	} {
		if err := m.Login(ctx, c.name); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Login(%s) = %v, want %q", c.name, err, c.want)
		}
	}
}

// A login another process stored (the CLI's 'servers login' while the
// window or daemon runs) reaches a server that needs one: it starts
// again by itself, with no Log in pressed here.
func TestLoginFromAnotherProcess(t *testing.T) {
	oauthtest.FollowRedirects(t)
	prev := LoginRecheck
	LoginRecheck = 50 * time.Millisecond
	t.Cleanup(func() { LoginRecheck = prev })
	store := oauth.NewMemoryStore()
	locked := oauthtest.New(t)
	m := New(Options{Tokens: store})
	t.Cleanup(func() { m.Close(context.Background()) })
	m.Apply([]ServerConfig{{Name: "locked", Remote: &supervisor.Remote{URL: locked.URL}}})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	m.WaitSettled(ctx)
	if st := statusOf(m, "locked"); st.State != supervisor.NeedsLogin {
		t.Fatalf("before login: %s %q", st.State, st.Error)
	}
	cli := oauth.New(oauth.Config{Server: "locked", URL: locked.URL}, store) // the other process
	if err := cli.Login(ctx, nil); err != nil {
		t.Fatal(err)
	}
	mcptest.Within(t, 10*time.Second, "the server to start with the stored login", func() error {
		if st := statusOf(m, "locked"); st.State != supervisor.Ready {
			return fmt.Errorf("%s %q", st.State, st.Error)
		}
		return nil
	})
	if res, err := m.Router().Call(ctx, "locked", "whoami", nil, router.CallOptions{}); err != nil || mcptest.Text(res) != "you are logged in" {
		t.Errorf("call after the other process's login: %v %v", res, err)
	}
}

// TestCloseWaitsForTheLoginLookout: Close returns only after the goroutine
// that watches the keyring for another process's login has ended, so no
// keyring read follows Close.
func TestCloseWaitsForTheLoginLookout(t *testing.T) {
	oauthtest.FollowRedirects(t)
	prev := LoginRecheck
	LoginRecheck = time.Hour // the look-out waits on its ticker when Close comes
	t.Cleanup(func() { LoginRecheck = prev })
	locked := oauthtest.New(t)
	m := New(Options{Tokens: oauth.NewMemoryStore()})
	m.Apply([]ServerConfig{{Name: "locked", Remote: &supervisor.Remote{URL: locked.URL}}})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	m.WaitSettled(ctx)
	watching := func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		return m.auth["locked"].watching
	}
	mcptest.Within(t, 10*time.Second, "the look-out to start", func() error {
		if !watching() {
			return errors.New("not watching")
		}
		return nil
	})
	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if watching() {
		t.Error("Close returned while the login look-out still ran")
	}
}

func TestFromConfigOAuth(t *testing.T) {
	secrets := map[string]string{"${secret:remote_OAUTH_CLIENT_SECRET}": "s3cret"}
	expand := func(v string) (string, error) {
		if r, ok := secrets[v]; ok {
			return r, nil
		}
		return "", fmt.Errorf("secret %q is not in the keyring", v)
	}
	cases := []struct {
		name  string
		entry string
		want  oauth.Settings
		err   string // substring of StartError
	}{
		{"no oauth object", `{"url": "https://x.example/mcp"}`, oauth.Settings{}, ""},
		{"pre-registered client, its secret from the keyring", `{"url": "https://x.example/mcp", "oauth": {"clientId": "id", "clientSecret": "${secret:remote_OAUTH_CLIENT_SECRET}", "scopes": ["a", "b"], "redirectPort": 8765}}`,
			oauth.Settings{ClientID: "id", ClientSecret: "s3cret", Scopes: []string{"a", "b"}, RedirectPort: 8765}, ""},
		{"Claude Code's callbackPort: the localhost URI it sends", `{"url": "https://x.example/mcp", "oauth": {"clientId": "id", "callbackPort": 8765}}`,
			oauth.Settings{ClientID: "id", RedirectPort: 8765, RedirectURI: "http://localhost:8765/callback"}, ""},
		{"the login's other options", `{"url": "https://x.example/mcp", "oauth": {"redirectUri": "http://127.0.0.1:9/cb", "resource": false, "clientMetadataUrl": "https://sb.example/c.json"}}`,
			oauth.Settings{RedirectPort: 9, RedirectURI: "http://127.0.0.1:9/cb", NoResource: true, ClientMetadataURL: "https://sb.example/c.json"}, ""},
		{"secret missing from the keyring", `{"url": "https://x.example/mcp", "oauth": {"clientId": "id", "clientSecret": "${secret:gone}"}}`,
			oauth.Settings{ClientID: "id", ClientSecret: "${secret:gone}"}, "is not in the keyring"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := config.ParseContext(context.Background(), "test.json", []byte(`{"mcpServers": {"remote": `+c.entry+`}}`))
			if err != nil {
				t.Fatal(err)
			}
			sc := Specs(f.Servers, expand)[0]
			if sc.Remote == nil || !reflect.DeepEqual(sc.Remote.OAuth, c.want) || !strings.Contains(sc.StartError, c.err) || (c.err == "") != (sc.StartError == "") {
				t.Errorf("remote %+v, start error %q; want %+v and %q", sc.Remote, sc.StartError, c.want, c.err)
			}
		})
	}
}
