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

	"github.com/mark3labs/mcp-go/mcp"

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
	u, _ := everythingProcess(t, mode)
	return u
}

// everythingProcess is everythingHTTP, with the server's process.
func everythingProcess(t *testing.T, mode string) (string, *os.Process) {
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
	return fmt.Sprintf("http://127.0.0.1:%d", port), cmd.Process
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

// switchProxy forwards to one target, then (switchTo) to another: a server
// redeployed behind a load balancer, whose address never stops answering.
func switchProxy(t *testing.T, target string) (addr string, switchTo func(string)) {
	t.Helper()
	var mu sync.Mutex
	to := target
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		u, _ := url.Parse(to)
		mu.Unlock()
		rp := httputil.NewSingleHostReverseProxy(u)
		rp.FlushInterval = -1 // stream SSE through
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func(target string) {
		mu.Lock()
		to = target
		mu.Unlock()
	}
}

// TestRedeployedRemoteServer: server-everything, redeployed behind the
// address Switchboard uses, answers the old session with a 400 ("No valid
// session ID provided"), not the spec's 404. Switchboard starts a new
// session at once, counted as no restart, and the call that found out is
// answered on it — not failed until the health check, minutes later.
func TestRedeployedRemoteServer(t *testing.T) {
	ra := supervisor.RenewAfter
	supervisor.RenewAfter = 0 // the session that worked is renewed however young
	t.Cleanup(func() { supervisor.RenewAfter = ra })
	first := everythingHTTP(t, "streamableHttp")
	second := everythingHTTP(t, "streamableHttp")
	addr, redeploy := switchProxy(t, first)

	m := New(Options{})
	t.Cleanup(func() { m.Close(context.Background()) })
	m.Apply([]ServerConfig{{Name: "hosted", Remote: &supervisor.Remote{URL: addr + "/mcp", Type: supervisor.RemoteHTTP}}})
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	m.WaitSettled(ctx)
	call := func() (string, error) {
		res, err := m.Router().Call(ctx, "hosted", "echo", map[string]any{"message": "still here"}, router.CallOptions{})
		return mcptest.Text(res), err
	}
	if text, err := call(); err != nil || !strings.Contains(text, "still here") {
		t.Fatalf("before the redeploy: %q %v", text, err)
	}
	redeploy(second)
	if text, err := call(); err != nil || !strings.Contains(text, "still here") {
		t.Fatalf("after the redeploy: %q %v; want it answered on a new session", text, err)
	}
	if st := statusOf(m, "hosted"); st.State != supervisor.Ready || st.Restarts != 0 {
		t.Errorf("after the redeploy: %s, %d restarts %q; want ready, none counted", st.State, st.Restarts, st.Error)
	}
}

// TestRemoteKilledMidCall: a remote server (server-everything over
// Streamable HTTP and over SSE) killed while a call runs: the call's error
// names the server, says the connection was lost during the call and that
// Switchboard reconnects — not mcp-go's "context canceled" or "connection
// has been closed".
func TestRemoteKilledMidCall(t *testing.T) {
	for _, tc := range []struct{ mode, path, typ string }{
		{"streamableHttp", "/mcp", supervisor.RemoteHTTP},
		{"sse", "/sse", supervisor.RemoteSSE},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			base, proc := everythingProcess(t, tc.mode)
			m := New(Options{})
			t.Cleanup(func() { m.Close(context.Background()) })
			m.Apply([]ServerConfig{{Name: "hosted", Remote: &supervisor.Remote{URL: base + tc.path, Type: tc.typ}}})
			ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
			defer cancel()
			m.WaitSettled(ctx)

			progressed := make(chan struct{}, 64)
			opts := router.CallOptions{Meta: &mcp.Meta{ProgressToken: "t"}, OnProgress: func(router.Progress) { progressed <- struct{}{} }}
			called := make(chan error, 1)
			go func() {
				_, err := m.Router().Call(ctx, "hosted", "trigger-long-running-operation", map[string]any{"duration": 60, "steps": 600}, opts)
				called <- err
			}()
			select {
			case <-progressed: // the call runs
			case err := <-called:
				t.Fatalf("the call ended before the server was killed: %v", err)
			case <-ctx.Done():
				t.Fatal("no progress from the call")
			}
			if err := proc.Kill(); err != nil {
				t.Fatal(err)
			}
			var got error
			select {
			case got = <-called:
			case <-ctx.Done():
				t.Fatal("the call did not end after its server was killed")
			}
			var lost *supervisor.LostError
			want := "the connection to hosted was lost during the call"
			if !errors.As(got, &lost) || !strings.Contains(got.Error(), want) || !strings.Contains(got.Error(), "Switchboard is reconnecting — call again") {
				t.Fatalf("error = %v; want one saying %q and that Switchboard reconnects", got, want)
			}
			if !errors.Is(got, supervisor.ErrDisconnected) {
				t.Errorf("error %v does not match ErrDisconnected", got)
			}
			if testing.Verbose() {
				t.Logf("the call said: %v", got)
			}
		})
	}
}

// TestRemoteWrongPath: a URL where server-everything serves no MCP says
// so in its first line — the path to check, or the "type" to change — on
// the Servers page and in Test connection, with mcp-go's guesses ("likely a
// legacy SSE server", "unexpected status code") only behind it; and it is
// not restarted, as it would answer the same.
func TestRemoteWrongPath(t *testing.T) {
	base := everythingHTTP(t, "streamableHttp")
	for _, tc := range []struct {
		name string
		cfg  ServerConfig
		want string // the first line
	}{
		{"no path", ServerConfig{Name: "nopath", Remote: &supervisor.Remote{URL: base}},
			"nopath: " + base + " answered 404 Not Found over Streamable HTTP and over SSE: check the URL's path (servers often serve /mcp or /sse)"},
		{"typed sse", ServerConfig{Name: "typedsse", Remote: &supervisor.Remote{URL: base + "/mcp", Type: supervisor.RemoteSSE}},
			"typedsse: " + base + `/mcp refused the SSE stream (HTTP 400): if the server speaks Streamable HTTP, set "type": "http" (or remove "type"); else check the URL's path (SSE servers often serve /sse)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := New(Options{})
			t.Cleanup(func() { m.Close(context.Background()) })
			ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
			defer cancel()
			p := m.Test(ctx, tc.cfg)
			if p.OK || strings.Split(p.Error, "\n")[0] != tc.want {
				t.Errorf("test connection: ok %v, error\n%s\nwant first line\n%s", p.OK, p.Error, tc.want)
			}
			if n := len(p.Steps); n == 0 || p.Steps[n-1].Error != tc.want {
				t.Errorf("test connection's steps: %+v; want the last failed saying\n%s", p.Steps, tc.want)
			}
			m.Apply([]ServerConfig{tc.cfg})
			m.WaitSettled(ctx)
			st := statusOf(m, tc.cfg.Name)
			if first := strings.Split(st.Error, "\n")[0]; st.State != supervisor.Error || first != tc.want || st.Restarts != 0 {
				t.Errorf("status: %s, %d restarts, error\n%s\nwant error, none, first line\n%s", st.State, st.Restarts, st.Error, tc.want)
			}
		})
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
