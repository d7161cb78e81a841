package supervisor

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
)

// redeployable is a stateful Streamable HTTP server (revision 2025-11-25)
// with a "hello" tool that can be redeployed: the new deployment knows
// none of the old sessions and answers 404 to requests carrying one, GET
// streams included, as a restarted server does.
type redeployable struct {
	URL string
	srv *httptest.Server

	mu    sync.Mutex
	h     http.Handler
	ids   *server.InsecureStatefulSessionIdManager
	inits int // initialize requests, over every deployment
	get   int // status of GET requests; 0: as the server answers
	// stale is the status and body of the answer to an unknown session;
	// zero: 404 "Invalid session ID", as the spec has it.
	stale struct {
		status int
		body   string
	}
}

func newRedeployable(t *testing.T) *redeployable {
	rd := &redeployable{}
	rd.deploy()
	rd.srv = httptest.NewServer(rd)
	t.Cleanup(rd.srv.Close)
	rd.URL = rd.srv.URL + "/mcp"
	return rd
}

// deploy replaces the server with a new one.
func (rd *redeployable) deploy() {
	s := server.NewMCPServer("redeployable", "1", server.WithToolCapabilities(true))
	s.AddTool(mcp.NewTool("hello"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("hello"), nil
	})
	ids := &server.InsecureStatefulSessionIdManager{}
	h := server.NewStreamableHTTPServer(s, server.WithSessionIdManager(ids),
		server.WithStreamableHTTPProtocolVersions(mcp.ProtocolVersion20251125, mcp.ProtocolVersion20250618))
	rd.mu.Lock()
	rd.h, rd.ids = h, ids
	rd.mu.Unlock()
}

func (rd *redeployable) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	rd.mu.Lock()
	h, ids, get, stale := rd.h, rd.ids, rd.get, rd.stale
	if bytes.Contains(body, []byte(`"method":"initialize"`)) {
		rd.inits++
	}
	rd.mu.Unlock()
	if id := r.Header.Get(transport.HeaderKeySessionID); id != "" {
		if _, err := ids.Validate(id); err != nil {
			if stale.status == 0 {
				stale.status, stale.body = http.StatusNotFound, "Invalid session ID"
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(stale.status)
			_, _ = io.WriteString(w, stale.body)
			return
		}
		if bytes.Contains(body, []byte(`"name":"malformed"`)) {
			http.Error(w, `{"jsonrpc":"2.0","error":{"code":-32602,"message":"Bad Request: invalid arguments"}}`, http.StatusBadRequest)
			return
		}
	}
	if r.Method == http.MethodGet && get != 0 {
		http.Error(w, "no GET stream here", get)
		return
	}
	h.ServeHTTP(w, r)
}

func (rd *redeployable) initializes() int {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	return rd.inits
}

// TestSessionExpiredRenewed: a server that forgets the session (restarted,
// redeployed) answers 404 to it. The spec has the client start a new
// session: the supervisor does so at once — no backoff, no restart counted —
// and the call that found out is sent again on the new session.
func TestSessionExpiredRenewed(t *testing.T) {
	ra := RenewAfter
	RenewAfter = 0
	t.Cleanup(func() { RenewAfter = ra })
	spec := func(url string) Spec {
		return Spec{Name: "remote", Remote: &Remote{URL: url, Type: RemoteHTTP}, StartTimeout: 5 * time.Second}
	}

	t.Run("a call on the ended session is sent again on the next", func(t *testing.T) {
		rd := newRedeployable(t)
		s, _ := runRemote(t, spec(rd.URL), Options{})
		waitState(t, s, Ready, 10*time.Second)
		rd.deploy()
		text, isErr, err := callTool(t.Context(), s, "hello")
		if err != nil || isErr || text != "hello" {
			t.Fatalf("call after the redeploy: %q %v %v; want it answered on a new session", text, isErr, err)
		}
		st := waitState(t, s, Ready, 10*time.Second)
		if st.Restarts != 0 || rd.initializes() != 2 {
			t.Errorf("%d restarts, %d initialize requests; want none counted and one new session", st.Restarts, rd.initializes())
		}
		if text, _, err := callTool(t.Context(), s, "hello"); err != nil || text != "hello" {
			t.Errorf("next call: %q %v", text, err)
		}
	})

	t.Run("an idle session is renewed when its GET stream finds it gone", func(t *testing.T) {
		rd := newRedeployable(t)
		s, _ := runRemote(t, spec(rd.URL), Options{})
		waitState(t, s, Ready, 10*time.Second)
		// The GET stream opened on the session (the health check, 3
		// minutes off, plays no part).
		mcptest.Within(t, 10*time.Second, "the GET stream", func() error {
			if !strings.Contains(strings.Join(s.Log().Tail(0), "\n"), "listening to server forever") {
				return fmt.Errorf("not opened yet")
			}
			return nil
		})
		rd.deploy()
		rd.srv.CloseClientConnections() // the old process's streams end with it
		mcptest.Within(t, 10*time.Second, "a new session", func() error {
			if n := rd.initializes(); n != 2 {
				return fmt.Errorf("%d initialize requests", n)
			}
			return nil
		})
		if st := waitState(t, s, Ready, 10*time.Second); st.Restarts != 0 {
			t.Errorf("%d restarts counted", st.Restarts)
		}
	})
}

// TestStaleSessionAnswers: many servers say with a 400 what the spec says
// with a 404 — that they do not know the session (the TypeScript SDK's
// example servers, server-everything among them, and the Python SDK before
// 1.10). Each way of saying it starts a new session at once and the call
// that found out is answered on it; a 400 about anything else fails only
// its call.
func TestStaleSessionAnswers(t *testing.T) {
	ra := RenewAfter
	RenewAfter = 0
	t.Cleanup(func() { RenewAfter = ra })
	for _, tc := range []struct {
		name   string
		status int
		body   string
	}{
		{"404, as the spec has it", http.StatusNotFound, "Invalid session ID"},
		{"400 of the TypeScript SDK's examples", http.StatusBadRequest, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}`},
		{"400 in plain text", http.StatusBadRequest, "Invalid or expired session"},
		{"400 of a restarted stateful server", http.StatusBadRequest, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rd := newRedeployable(t)
			rd.stale.status, rd.stale.body = tc.status, tc.body
			s, _ := runRemote(t, Spec{Name: "remote", Remote: &Remote{URL: rd.URL, Type: RemoteHTTP}, StartTimeout: 5 * time.Second}, Options{})
			waitState(t, s, Ready, 10*time.Second)
			rd.deploy()
			text, isErr, err := callTool(t.Context(), s, "hello")
			if err != nil || isErr || text != "hello" {
				t.Fatalf("call after the redeploy: %q %v %v; want it answered on a new session", text, isErr, err)
			}
			if st := waitState(t, s, Ready, 10*time.Second); st.Restarts != 0 || rd.initializes() != 2 {
				t.Errorf("%d restarts, %d initialize requests; want none counted and one new session", st.Restarts, rd.initializes())
			}
		})
	}

	t.Run("a 400 about the request keeps the session", func(t *testing.T) {
		rd := newRedeployable(t)
		s, _ := runRemote(t, Spec{Name: "remote", Remote: &Remote{URL: rd.URL, Type: RemoteHTTP}, StartTimeout: 5 * time.Second}, Options{})
		waitState(t, s, Ready, 10*time.Second)
		if text, isErr, err := callTool(t.Context(), s, "malformed"); err == nil && !isErr {
			t.Fatalf("a call the server refused with 400 succeeded: %q", text)
		}
		if text, _, err := callTool(t.Context(), s, "hello"); err != nil || text != "hello" {
			t.Fatalf("next call: %q %v", text, err)
		}
		if n := rd.initializes(); n != 1 {
			t.Errorf("%d initialize requests; want the session kept", n)
		}
	})
}

// silentListener accepts connections and never writes a byte.
func silentListener(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return "http://" + ln.Addr().String()
}

// TestSilentServer: a server that accepts the connection and never answers
// ends the start within StartTimeout, over SSE (where the stream's headers
// never come) as over Streamable HTTP, saying what to check; and without a
// "type", SSE is not tried after Streamable HTTP got no answer at all.
func TestSilentServer(t *testing.T) {
	const timeout = 300 * time.Millisecond
	base := silentListener(t)
	for _, c := range []struct{ typ, path string }{{RemoteSSE, "/sse"}, {"", "/mcp"}} {
		t.Run("type "+c.typ, func(t *testing.T) {
			url := base + c.path
			s, wait := runRemote(t, Spec{Name: "silent", Remote: &Remote{URL: url, Type: c.typ}, StartTimeout: timeout, Restart: Restart{Disabled: true}}, Options{})
			_ = wait()
			want := "silent: the server at " + url + " accepted the connection but did not answer in 300ms, so it did not finish the MCP handshake: check the URL (path /sse or /mcp) and that the server is up"
			if st := s.Status(); st.State != Error || !strings.HasPrefix(st.Error, want) {
				t.Errorf("status %s %q, want error %q", st.State, st.Error, want)
			}
		})
	}
	t.Run("test connection", func(t *testing.T) {
		s, err := New(Spec{Name: "silent", Remote: &Remote{URL: base + "/mcp"}, StartTimeout: timeout}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second) // the test ends either way
		defer cancel()
		p := s.Probe(ctx)
		if p.OK || p.Transport != RemoteHTTP || !strings.Contains(p.Error, "accepted the connection but did not answer in 300ms") {
			t.Errorf("probe over %s: ok %v, %q; want the silence reported after Streamable HTTP alone", p.Transport, p.OK, p.Error)
		}
	})
}

// refuser answers every request with status and body, and counts the
// requests of each HTTP method.
func refuser(t *testing.T, status int, body string) (url string, methods func() map[string]int) {
	var mu sync.Mutex
	seen := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if !strings.Contains(r.URL.Path, ".well-known") {
			seen[r.Method]++
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(r.URL.Path, ".well-known") || r.URL.Path == "/register" {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp", func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		return seen
	}
}

// TestRefusedWithoutOAuth: a server that wants a header of its own (an API
// key) and refuses with a 401 without an OAuth challenge or metadata, or
// with a 403, is shown with its status and its own message, and the header
// to add — no login offered, no guess at legacy SSE, no restarts.
func TestRefusedWithoutOAuth(t *testing.T) {
	cases := []struct {
		name    string
		status  int
		body    string
		headers map[string]string
		want    string
	}{
		{"401 without a challenge", http.StatusUnauthorized, `{"error":"missing or invalid X-API-Key header"}`, nil,
			`hk: the server at URL refused the connection (HTTP 401, and it offers no OAuth login): "missing or invalid X-API-Key header": add the X-API-Key header to "headers" in the server's config, e.g. "headers": {"X-API-Key": "${secret:NAME}"}`},
		{"403 for a missing header", http.StatusForbidden, `missing X-API-Key`, nil,
			`hk: the server at URL refused the connection (HTTP 403 Forbidden): "missing X-API-Key": add the X-API-Key header to "headers"`},
		{"403 for the configured header, secret masked", http.StatusForbidden, `{"message":"bad x-api-key sekrit"}`, map[string]string{"X-API-Key": "sekrit"},
			`hk: the server at URL refused the connection (HTTP 403 Forbidden): "bad x-api-key ***": check the value of the X-API-Key header in "headers" of the server's config`},
		{"403 naming no header", http.StatusForbidden, `{"error":{"message":"not allowed"}}`, nil,
			`(HTTP 403 Forbidden): "not allowed": add the header it asks for (an API key, say) to "headers" in the server's config, keeping its value as ${secret:NAME}, or ask the server's operator for access`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			url, methods := refuser(t, c.status, c.body)
			a := oauth.New(oauth.Config{Server: "hk", URL: url}, nil)
			redact := func(s string) string { return strings.ReplaceAll(s, "sekrit", "***") }
			s, wait := runRemote(t, Spec{Name: "hk", Remote: &Remote{URL: url, Headers: c.headers}, Auth: a, StartTimeout: 5 * time.Second, Redact: redact}, Options{})
			_ = wait()
			st := s.Status()
			want := strings.ReplaceAll(c.want, "URL", url)
			if st.State != Error || !strings.Contains(st.Error, want) || strings.Contains(st.Error, "log in") || st.Restarts != 0 {
				t.Errorf("status %s %q (%d restarts)\nwant error containing %q, no login, no restarts", st.State, st.Error, st.Restarts, want)
			}
			if m := methods(); m[http.MethodGet] != 0 {
				t.Errorf("legacy SSE was tried after a %d: %v", c.status, m)
			}
		})
	}
}

// TestTransportLogsInServerLog: mcp-go's own lines ("listening to server
// forever", a GET stream the server does not offer) go to the server's log,
// never to the process's default logger (stderr).
func TestTransportLogsInServerLog(t *testing.T) {
	var out bytes.Buffer
	var mu sync.Mutex
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return out.Write(p)
	}), nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })

	rd := newRedeployable(t)
	rd.get = http.StatusMethodNotAllowed // the spec allows a server without a GET stream
	s, _ := runRemote(t, Spec{Name: "remote", Remote: &Remote{URL: rd.URL, Type: RemoteHTTP}, StartTimeout: 5 * time.Second}, Options{})
	waitState(t, s, Ready, 10*time.Second)
	mcptest.Within(t, 10*time.Second, "mcp-go's lines in the server's log", func() error {
		if log := strings.Join(s.Log().Tail(0), "\n"); !strings.Contains(log, "[debug] mcp-go: listening to server forever") ||
			!strings.Contains(log, "[info] mcp-go: server does not support listening") {
			return fmt.Errorf("the log so far:\n%s", log)
		}
		return nil
	})
	mu.Lock()
	defer mu.Unlock()
	if strings.Contains(out.String(), "listening") {
		t.Errorf("mcp-go logged to the default logger:\n%s", out.String())
	}
	if tail := s.stderrTail(20); len(tail) != 0 {
		t.Errorf("mcp-go's lines are shown as the server's stderr: %q", tail)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestServerGoneEndsTheSession: a call that finds nobody listening at an
// established session's server ends the session at once (the health
// check's ping is minutes off), and the server is started again when it
// is back at its address.
func TestServerGoneEndsTheSession(t *testing.T) {
	hi := HealthInterval
	HealthInterval = time.Hour // only the call can notice
	t.Cleanup(func() { HealthInterval = hi })
	rd := &redeployable{}
	rd.deploy()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	first := &http.Server{Handler: rd}
	go func() { _ = first.Serve(ln) }()
	s, _ := runRemote(t, Spec{Name: "remote", Remote: &Remote{URL: "http://" + addr + "/mcp", Type: RemoteHTTP}, StartTimeout: 5 * time.Second,
		Restart: Restart{Delay: 50 * time.Millisecond}}, Options{})
	waitState(t, s, Ready, 10*time.Second)
	_ = first.Close() // the server went away, its port closed

	if _, _, err := callTool(t.Context(), s, "hello"); err == nil {
		t.Fatal("a call with the server gone succeeded")
	}
	mcptest.Within(t, 5*time.Second, "the session to end", func() error {
		if st := s.Status(); st.State == Ready {
			return fmt.Errorf("still %s", st.State)
		}
		return nil
	})

	rd.deploy() // back at the same address
	ln2, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	second := &http.Server{Handler: rd}
	go func() { _ = second.Serve(ln2) }()
	t.Cleanup(func() { _ = second.Close() })
	waitState(t, s, Ready, 10*time.Second)
	if text, _, err := callTool(t.Context(), s, "hello"); err != nil || text != "hello" {
		t.Fatalf("call once the server is back: %q %v", text, err)
	}
}

// gateway serves rd on a loopback address it can take off the network
// (its port closed, then opened again) or have answer 502 as a load
// balancer does while the server behind it is redeployed.
type gateway struct {
	rd   *redeployable
	addr string
	bad  atomic.Bool // answer 502

	mu  sync.Mutex
	srv *http.Server
}

func newGateway(t *testing.T) *gateway {
	rd := &redeployable{}
	rd.deploy()
	g := &gateway{rd: rd, addr: "127.0.0.1:0"}
	g.open(t)
	t.Cleanup(g.close)
	return g
}

func (g *gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if g.bad.Load() {
		http.Error(w, "502 Bad Gateway", http.StatusBadGateway)
		return
	}
	g.rd.ServeHTTP(w, r)
}

// open listens at the gateway's address (a free one at first).
func (g *gateway) open(t *testing.T) {
	ln, err := net.Listen("tcp", g.addr)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: g}
	g.mu.Lock()
	g.addr, g.srv = ln.Addr().String(), srv
	g.mu.Unlock()
	go func() { _ = srv.Serve(ln) }()
}

// close closes its port, and every connection.
func (g *gateway) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	_ = g.srv.Close()
}

// TestUnreachableRemoteKeepsTrying: a remote server that was connected and
// then went from the network (its port closed; a gateway in front answering
// 502 while it is redeployed) is tried again past its restart attempts, so
// it is back by itself once it is; one whose address never worked still
// stops in Error after them.
func TestUnreachableRemoteKeepsTrying(t *testing.T) {
	mrd, hi, ht := MaxRestartDelay, HealthInterval, HealthTimeout
	MaxRestartDelay, HealthInterval, HealthTimeout = 20*time.Millisecond, 50*time.Millisecond, time.Second
	t.Cleanup(func() { MaxRestartDelay, HealthInterval, HealthTimeout = mrd, hi, ht })
	restart := Restart{MaxAttempts: 2, Delay: 5 * time.Millisecond}

	for _, tc := range []struct {
		name     string
		down, up func(t *testing.T, g *gateway)
	}{
		{"its port closed", func(_ *testing.T, g *gateway) { g.close() }, func(t *testing.T, g *gateway) { g.open(t) }},
		{"a gateway answers 502", func(_ *testing.T, g *gateway) { g.bad.Store(true) }, func(_ *testing.T, g *gateway) { g.bad.Store(false) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGateway(t)
			s, _ := runRemote(t, Spec{Name: "remote", Remote: &Remote{URL: "http://" + g.addr + "/mcp", Type: RemoteHTTP}, StartTimeout: 5 * time.Second, Restart: restart}, Options{})
			waitState(t, s, Ready, 10*time.Second)
			tc.down(t, g)
			mcptest.Within(t, 10*time.Second, "restarts past the attempts", func() error {
				st := s.Status()
				if st.State == Error {
					t.Fatalf("gave up after %d restarts: %s", st.Restarts, st.Error)
				}
				if st.Restarts <= restart.MaxAttempts+2 {
					return fmt.Errorf("%d restarts, %s", st.Restarts, st.State)
				}
				if first, _, _ := strings.Cut(st.Error, "\n"); !strings.Contains(first, ". Switchboard keeps trying to reconnect (every ") {
					t.Errorf("status %q; want its first line to say Switchboard keeps trying", st.Error)
				}
				return nil
			})
			tc.up(t, g)
			waitState(t, s, Ready, 10*time.Second)
			if text, _, err := callTool(t.Context(), s, "hello"); err != nil || text != "hello" {
				t.Fatalf("call once the server is back: %q %v", text, err)
			}
		})
	}

	t.Run("an address that never worked", func(t *testing.T) {
		g := newGateway(t)
		g.close()
		s, _ := runRemote(t, Spec{Name: "remote", Remote: &Remote{URL: "http://" + g.addr + "/mcp", Type: RemoteHTTP}, StartTimeout: 5 * time.Second, Restart: restart}, Options{})
		if st := waitState(t, s, Error, 10*time.Second); st.Restarts != restart.MaxAttempts {
			t.Errorf("%d restarts before giving up, want %d", st.Restarts, restart.MaxAttempts)
		}
	})
}
