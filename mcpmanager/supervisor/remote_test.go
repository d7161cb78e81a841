package supervisor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth/oauthtest"
)

// remoteServer is a Streamable HTTP MCP server with an "ask" tool
// (elicitation) and a "sample" tool (sampling). allow decides, per JSON-RPC
// method, whether a request gets through (else 401).
//
// It speaks one era: eraModern is a 2026-07-28 server that refuses the
// initialize handshake (HTTP 404, as a server without it does), eraLegacy a
// 2025-11-25 one whose server/discover lists only the handshake's
// revisions. Its tools ask for input the 2026-07-28 way (input_required);
// mcp-go turns that into server-initiated requests for a legacy client, so
// both ways of asking are tested.
type remoteServer struct {
	URL  string
	mu   sync.Mutex
	caps mcp.ClientCapabilities // what the client offered (at initialize, or in a request's _meta)
	// methods are the JSON-RPC methods the server was sent, in order.
	methods []string
	// refuse is how many more requests of each method to answer with 503.
	refuse map[string]int
}

// refuseNext has the server answer the next n requests of method with 503.
func (rs *remoteServer) refuseNext(method string, n int) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.refuse == nil {
		rs.refuse = map[string]int{}
	}
	rs.refuse[method] += n
}

// The eras a remoteServer speaks.
const (
	eraModern = mcp.ProtocolVersion20260728
	eraLegacy = mcp.ProtocolVersion20251125
)

func newRemoteServer(t *testing.T, allow func(method string, r *http.Request) bool) *remoteServer {
	return newEraServer(t, eraLegacy, allow)
}

func newEraServer(t *testing.T, era string, allow func(method string, r *http.Request) bool) *remoteServer {
	t.Helper()
	rs := &remoteServer{}
	s := server.NewMCPServer("remote", "1", server.WithToolCapabilities(true))
	s.AddTool(mcp.NewTool("ask"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res := server.ElicitationResponse(req.Params.InputResponses, "who")
		if res == nil {
			return server.NewInputRequestBuilder("asked").Elicit("who", mcp.ElicitationParams{
				Message: "who are you?",
				RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{
					"name": map[string]any{"type": "string", "default": "Ada"},
					"age":  map[string]any{"type": "integer", "default": 36},
				}},
			}).ToolResult(), nil
		}
		b, _ := json.Marshal(res.ElicitationResponse)
		return mcp.NewToolResultText(string(b)), nil
	})
	s.AddTool(mcp.NewTool("sample"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res := server.SamplingResponse(req.Params.InputResponses, "hi")
		if res == nil {
			p := mcp.CreateMessageParams{MaxTokens: 10, Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("hi")}}}
			return server.NewInputRequestBuilder("").Sample("hi", p).ToolResult(), nil
		}
		return mcp.NewToolResultText(res.Model), nil
	})
	var opts []server.StreamableHTTPOption
	if era == eraLegacy {
		opts = append(opts, server.WithStreamableHTTPProtocolVersions(mcp.ProtocolVersion20251125, mcp.ProtocolVersion20250618, mcp.ProtocolVersion20250326))
	}
	h := server.NewStreamableHTTPServer(s, opts...)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			Method string `json:"method"`
			Params struct {
				Capabilities *mcp.ClientCapabilities `json:"capabilities"`
				Meta         struct {
					Capabilities *mcp.ClientCapabilities `json:"io.modelcontextprotocol/clientCapabilities"`
				} `json:"_meta"`
			} `json:"params"`
		}
		_ = json.Unmarshal(body, &msg)
		rs.mu.Lock()
		if msg.Method != "" {
			rs.methods = append(rs.methods, msg.Method)
		}
		refused := rs.refuse[msg.Method] > 0
		if refused {
			rs.refuse[msg.Method]--
		}
		for _, c := range []*mcp.ClientCapabilities{msg.Params.Capabilities, msg.Params.Meta.Capabilities} {
			if c != nil {
				rs.caps = *c
			}
		}
		rs.mu.Unlock()
		if refused {
			http.Error(w, "unavailable", http.StatusServiceUnavailable)
			return
		}
		if !allow(msg.Method, r) {
			w.Header().Set("WWW-Authenticate", `Bearer scope="mcp"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		if era == eraModern && msg.Method == string(mcp.MethodInitialize) {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	rs.URL = srv.URL + "/mcp"
	return rs
}

func (rs *remoteServer) sent() []string {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return slices.Clone(rs.methods)
}

func (rs *remoteServer) offered() mcp.ClientCapabilities {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.caps
}

// runRemote supervises a remote server until the test ends.
func runRemote(t *testing.T, spec Spec, opts Options) (*Server, func() error) {
	t.Helper()
	s, err := New(spec, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return s, func() error {
		select {
		case err := <-done:
			done <- err
			return err
		case <-time.After(10 * time.Second):
			t.Fatal("Run did not return")
			return nil
		}
	}
}

// answers records what the handler was asked and answers like a user would.
type answers struct {
	mu      sync.Mutex
	servers []string
	message string
}

func (a *answers) CreateMessage(_ context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	a.mu.Lock()
	a.servers = append(a.servers, server)
	a.mu.Unlock()
	return &mcp.CreateMessageResult{Model: "test-model", SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("hello")}}, nil
}

func (a *answers) Elicit(_ context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	a.mu.Lock()
	a.servers = append(a.servers, server)
	a.message = req.Params.Message
	a.mu.Unlock()
	// The user filled in one field; the other keeps its default.
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"age": 7}}}, nil
}

func callTool(ctx context.Context, s *Server, name string) (string, bool, error) {
	c, err := s.Client()
	if err != nil {
		return "", false, err
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return "", false, err
	}
	return res.Content[0].(mcp.TextContent).Text, res.IsError, nil
}

// A server asks for input the way its era does: a 2026-07-28 server with
// input_required results, answered and retried by mcp-go; a 2025-11-25 one
// with elicitation and sampling requests of its own. The handler sees the
// same questions either way.
func TestServerRequests(t *testing.T) {
	for _, era := range []string{eraModern, eraLegacy} {
		t.Run(era+" with a handler: offered, routed with the server's name, defaults filled in", func(t *testing.T) {
			rs := newEraServer(t, era, func(string, *http.Request) bool { return true })
			h := &answers{}
			s, _ := runRemote(t, Spec{Name: "remote", Remote: &Remote{URL: rs.URL, Type: RemoteHTTP}}, Options{Requests: h})
			waitState(t, s, Ready, 10*time.Second)
			if got := s.Status().Protocol; got != era {
				t.Errorf("Status.Protocol = %q, want %q", got, era)
			}
			if c := rs.offered(); c.Elicitation == nil || c.Elicitation.Form == nil || c.Elicitation.URL == nil || c.Sampling == nil || c.Sampling.Tools == nil {
				t.Errorf("capabilities offered: %+v (want elicitation form and url, sampling with tools)", c)
			}
			text, isErr, err := callTool(t.Context(), s, "ask")
			var got mcp.ElicitationResponse
			if err != nil || isErr || json.Unmarshal([]byte(text), &got) != nil {
				t.Fatalf("ask: %q %v %v", text, isErr, err)
			}
			if want := map[string]any{"name": "Ada", "age": float64(7)}; got.Action != "accept" || !reflect.DeepEqual(got.Content, want) {
				t.Errorf("the server got %+v, want accept with %v", got, want)
			}
			if text, isErr, err := callTool(t.Context(), s, "sample"); err != nil || isErr || text != "test-model" {
				t.Errorf("sample: %q %v %v", text, isErr, err)
			}
			h.mu.Lock()
			defer h.mu.Unlock()
			if !reflect.DeepEqual(h.servers, []string{"remote", "remote"}) || h.message != "who are you?" {
				t.Errorf("handler saw servers %v, message %q", h.servers, h.message)
			}
			sent := rs.sent()
			if handshake := slices.Contains(sent, string(mcp.MethodInitialize)); handshake != (era == eraLegacy) {
				t.Errorf("%s server was sent %v: initialize only for the legacy one", era, sent)
			}
		})
		t.Run(era+" without one: not offered", func(t *testing.T) {
			rs := newEraServer(t, era, func(string, *http.Request) bool { return true })
			s, _ := runRemote(t, Spec{Name: "remote", Remote: &Remote{URL: rs.URL, Type: RemoteHTTP}}, Options{})
			waitState(t, s, Ready, 10*time.Second)
			if c := rs.offered(); c.Elicitation != nil || c.Sampling != nil {
				t.Errorf("capabilities offered without a handler: %+v", c)
			}
			if _, isErr, err := callTool(t.Context(), s, "ask"); err == nil && !isErr {
				t.Error("an elicitation was answered without a handler")
			}
		})
	}
}

// TestEraRemembered: a restarted server is asked for the revision it spoke
// straight away (no server/discover before initialize); a start that fails
// forgets it, and the next start probes again.
func TestEraRemembered(t *testing.T) {
	hi, ht := HealthInterval, HealthTimeout
	HealthInterval, HealthTimeout = 50*time.Millisecond, time.Second
	t.Cleanup(func() { HealthInterval, HealthTimeout = hi, ht })
	rs := newEraServer(t, eraLegacy, func(string, *http.Request) bool { return true })
	s, _ := runRemote(t, Spec{Name: "remote", Remote: &Remote{URL: rs.URL, Type: RemoteHTTP}}, Options{})
	waitState(t, s, Ready, 10*time.Second)
	opening := func(from int) []string {
		var out []string
		for _, m := range rs.sent()[from:] {
			if m == "server/discover" || m == "initialize" {
				out = append(out, m)
			}
		}
		return out
	}
	if got := opening(0); !slices.Equal(got, []string{"server/discover", "initialize"}) {
		t.Fatalf("first start sent %v, want a probe, then the handshake", got)
	}

	// A refused ping restarts the session: the handshake comes at once.
	mark := len(rs.sent())
	rs.refuseNext("ping", 1)
	waitRestarts(t, s, 1)
	waitState(t, s, Ready, 10*time.Second)
	if got := opening(mark); !slices.Equal(got, []string{"initialize"}) {
		t.Errorf("restart sent %v, want the remembered handshake only", got)
	}

	// This time the handshake fails once: the next start probes again.
	mark = len(rs.sent())
	rs.refuseNext("initialize", 1)
	rs.refuseNext("ping", 1)
	waitRestarts(t, s, 3)
	waitState(t, s, Ready, 10*time.Second)
	if got := opening(mark); !slices.Equal(got, []string{"initialize", "server/discover", "initialize"}) {
		t.Errorf("after a failed start the server was sent %v, want the failed handshake, then a probe and the handshake", got)
	}
	if st := s.Status(); st.Protocol != eraLegacy {
		t.Errorf("Status.Protocol = %q", st.Protocol)
	}
}

// waitRestarts waits until s has restarted at least n times.
func waitRestarts(t *testing.T, s *Server, n int) {
	t.Helper()
	mcptest.Within(t, 10*time.Second, fmt.Sprintf("%d restarts", n), func() error {
		if got := s.Status().Restarts; got < n {
			return fmt.Errorf("%d so far", got)
		}
		return nil
	})
}

func TestApplyDefaults(t *testing.T) {
	schema := map[string]any{"type": "object", "properties": map[string]any{
		"name":  map[string]any{"type": "string", "default": "Ada"},
		"n":     map[string]any{"type": "number", "default": 1.5},
		"ok":    map[string]any{"type": "boolean", "default": false},
		"plain": map[string]any{"type": "string"},
	}}
	cases := []struct {
		name    string
		content any
		want    any
	}{
		{"nil content gets every default", nil, map[string]any{"name": "Ada", "n": 1.5, "ok": false}},
		{"given values win", map[string]any{"name": "Bo", "ok": true}, map[string]any{"name": "Bo", "n": 1.5, "ok": true}},
		{"a false default is still applied", map[string]any{"plain": "x"}, map[string]any{"name": "Ada", "n": 1.5, "ok": false, "plain": "x"}},
		{"non-object content is left alone", "text", "text"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ApplyDefaults(schema, c.content); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %#v, want %#v", got, c.want)
			}
		})
	}
}

func TestNeedsLogin(t *testing.T) {
	cases := []struct {
		name    string
		allow   func(method string, r *http.Request) bool
		headers map[string]string
		call    bool  // the 401 comes on a later request
		want    State // final state
		msg     string
	}{
		{"refused at initialize", func(string, *http.Request) bool { return false }, nil, false, NeedsLogin,
			"remote: the server needs you to log in (HTTP 401): press Log in on the Servers page or run 'switchboard servers login remote'"},
		{"refused on a later request", func(m string, r *http.Request) bool {
			return m == "initialize" || m == "server/discover" || strings.HasPrefix(m, "notifications/") || r.Method == http.MethodGet
		}, nil, true, NeedsLogin,
			"switchboard servers login remote"},
		{"the configured header refused", func(string, *http.Request) bool { return false }, map[string]string{"Authorization": "Bearer stale"}, false, Error,
			"remote: the server refused the configured Authorization header (HTTP 401): update the secret it uses"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rs := newRemoteServer(t, c.allow)
			rec := newRecorder()
			a := oauth.New(oauth.Config{Server: "remote", URL: rs.URL}, nil)
			s, wait := runRemote(t, Spec{Name: "remote", Remote: &Remote{URL: rs.URL, Headers: c.headers}, Auth: a, StartTimeout: 5 * time.Second}, Options{OnStatus: rec.on})
			if c.call {
				waitState(t, s, Ready, 10*time.Second)
				cl, err := s.Client()
				if err != nil {
					t.Fatal(err)
				}
				if _, err := cl.ListTools(t.Context(), mcp.ListToolsRequest{}); !errors.Is(err, ErrNeedsLogin) {
					t.Errorf("list tools: %v, want ErrNeedsLogin", err)
				}
			}
			err := wait()
			st := s.Status()
			if st.State != c.want || !strings.Contains(st.Error, c.msg) || st.Restarts != 0 {
				t.Errorf("status %s %q (%d restarts), want %s containing %q and no restarts", st.State, st.Error, st.Restarts, c.want, c.msg)
			}
			if errors.Is(err, ErrNeedsLogin) != (c.want == NeedsLogin) {
				t.Errorf("Run returned %v", err)
			}
			if c.want == NeedsLogin && a.Challenge() == nil {
				t.Error("the challenge was not kept for the login")
			}
		})
	}
}

// TestStrictLegacyServer: a server written before 2026-07-28 that exits when
// its first message is not initialize (here, the server/discover probe) is
// started once more and asked for the handshake straight away, within the
// same start: ready on 2025-11-25, no restart counted, and later restarts
// ask for that revision at once.
func TestStrictLegacyServer(t *testing.T) {
	s, _, _ := start(t, "strict-init", nil)
	st := waitState(t, s, Ready, 15*time.Second)
	if st.Protocol != mcp.LATEST_LEGACY_PROTOCOL_VERSION || st.Restarts != 0 {
		t.Fatalf("status %+v: want ready on %s without a restart", st, mcp.LATEST_LEGACY_PROTOCOL_VERSION)
	}
	if got, err := echo(t.Context(), s, "still here"); err != nil || got != "still here" {
		t.Fatalf("echo = %q, %v", got, err)
	}
	if tail := strings.Join(s.Log().Tail(20), "\n"); !strings.Contains(tail, `expected initialize, got "server/discover"`) {
		t.Errorf("the probe did not reach the server first; its log:\n%s", tail)
	}
}

// A 403 insufficient_scope on one tool call fails that call alone, saying
// which login fixes it; the session, its other tools and the server's
// state stay. A login's token without the scope reaches the start
// (initialize) fine, so only the call needs it.
func TestStepUpFailsOnlyTheCall(t *testing.T) {
	oauthtest.FollowRedirects(t)
	srv := oauthtest.New(t)
	srv.StepUp("admin", "write")
	a := oauth.New(oauth.Config{Server: "remote", URL: srv.URL}, nil)
	if err := a.Login(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	s, _ := runRemote(t, Spec{Name: "remote", Remote: &Remote{URL: srv.URL, Type: RemoteHTTP}, Auth: a, StartTimeout: 5 * time.Second}, Options{})
	waitState(t, s, Ready, 10*time.Second)
	cases := []struct {
		tool, err string // err: substring of the call's error; "" for none
	}{
		{"admin", `remote: the server needs you to log in: it asks for more permissions than the login granted (scope "write"): log in again asking for them with 'switchboard servers login remote'`},
		{"whoami", ""},
		{"admin", "switchboard servers login remote"}, // again: the session is still there
	}
	for _, c := range cases {
		text, _, err := callTool(t.Context(), s, c.tool)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.tool, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err) || !errors.Is(err, oauth.ErrStepUp) || !errors.Is(err, ErrNeedsLogin)):
			t.Errorf("%s: %q, %v; want an error containing %q (matching oauth.ErrStepUp and ErrNeedsLogin)", c.tool, text, err, c.err)
		}
	}
	if st := s.Status(); st.State != Ready || st.Restarts != 0 {
		t.Errorf("status %s %q (%d restarts), want ready", st.State, st.Error, st.Restarts)
	}
	// The step-up login asks for the scope, and the call then works.
	if err := a.Login(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	if text, _, err := callTool(t.Context(), s, "admin"); err != nil || text != "admin done" {
		t.Errorf("admin after the step-up login: %q, %v", text, err)
	}
}
