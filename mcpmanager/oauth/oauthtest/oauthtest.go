// Package oauthtest runs an OAuth-protected MCP server on 127.0.0.1 for
// tests of the packages that log in to one: an MCP endpoint with a "whoami"
// tool that answers only with a token from its own authorization server
// (protected-resource and RFC 8414 metadata, dynamic client registration, an
// authorization endpoint that approves at once, a token endpoint that checks
// PKCE and the resource parameter). FollowRedirects stands in for the
// browser.
//
//	srv := oauthtest.New(t)      // stops when the test ends
//	oauthtest.FollowRedirects(t) // oauth.OpenBrowser follows the redirect over HTTP
//	m.Apply([]mcpmanager.ServerConfig{{Name: "locked", Remote: &supervisor.Remote{URL: srv.URL}}})
//	err := m.Login(ctx, "locked")
//
// StepUp adds a tool that needs a scope the first login does not ask for:
// a call with a token without it is refused with 403 insufficient_scope.
//
// A Server is safe for concurrent use.
package oauthtest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
)

// Server is the protected MCP server and its authorization server.
type Server struct {
	URL string // the MCP endpoint

	base string
	mcp  http.Handler
	srv  *server.MCPServer

	mu        sync.Mutex
	challenge string
	scope     string // asked for by the login in progress
	token     string
	granted   string // the token's scope
	logins    int
	needs     map[string]string // tool → the scope its calls need
	noDCR     bool              // its metadata offers no dynamic registration
}

// New starts a Server; it stops, with its client connections, when t ends.
func New(t testing.TB) *Server {
	t.Helper()
	m := server.NewMCPServer("protected", "1", server.WithToolCapabilities(true))
	m.AddTool(mcp.NewTool("whoami", mcp.WithDescription("Says whether the caller logged in")), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("you are logged in"), nil
	})
	s := &Server{mcp: server.NewStreamableHTTPServer(m), srv: m, needs: map[string]string{}}
	hs := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(func() {
		hs.CloseClientConnections() // a client's open event stream must not hold Close up
		hs.Close()
	})
	s.base = hs.URL
	s.URL = hs.URL + "/mcp"
	return s
}

// Token is the access token issued last ("" before any login).
func (s *Server) Token() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.token
}

// StepUp adds tool, whose calls need scope: a token without it is refused
// with 403 insufficient_scope naming it. Call it before a client connects.
func (s *Server) StepUp(tool, scope string) {
	s.mu.Lock()
	s.needs[tool] = scope
	s.mu.Unlock()
	s.srv.AddTool(mcp.NewTool(tool, mcp.WithDescription("Needs the "+scope+" scope")), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(tool + " done"), nil
	})
}

// NoRegistration makes the authorization server one that offers no
// dynamic client registration.
func (s *Server) NoRegistration() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noDCR = true
}

// Logins counts the tokens issued.
func (s *Server) Logins() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logins
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/mcp" {
		s.mu.Lock()
		ok := s.token != "" && r.Header.Get("Authorization") == "Bearer "+s.token
		granted := s.granted
		s.mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+s.base+`/.well-known/oauth-protected-resource/mcp"`)
			http.Error(w, "log in first", http.StatusUnauthorized)
			return
		}
		if need := s.needed(r); need != "" && !slices.Contains(strings.Fields(granted), need) {
			w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="`+need+`", resource_metadata="`+s.base+`/.well-known/oauth-protected-resource/mcp"`)
			http.Error(w, "needs "+need, http.StatusForbidden)
			return
		}
		s.mcp.ServeHTTP(w, r)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	writeJSON := func(status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	switch r.URL.Path {
	case "/.well-known/oauth-protected-resource/mcp":
		writeJSON(http.StatusOK, map[string]any{"resource": s.URL, "authorization_servers": []string{s.base}})
	case "/.well-known/oauth-authorization-server":
		meta := map[string]any{
			"issuer": s.base, "authorization_endpoint": s.base + "/authorize", "token_endpoint": s.base + "/token",
			"registration_endpoint": s.base + "/register", "response_types_supported": []string{"code"},
			"code_challenge_methods_supported": []string{"S256"}, "token_endpoint_auth_methods_supported": []string{"none"},
		}
		if s.noDCR {
			delete(meta, "registration_endpoint")
		}
		writeJSON(http.StatusOK, meta)
	case "/register":
		writeJSON(http.StatusCreated, map[string]any{"client_id": "oauthtest-client"})
	case "/authorize":
		q := r.URL.Query()
		s.challenge, s.scope = q.Get("code_challenge"), q.Get("scope")
		back, err := url.Parse(q.Get("redirect_uri"))
		if err != nil {
			http.Error(w, "bad redirect_uri", http.StatusBadRequest)
			return
		}
		back.RawQuery = url.Values{"code": {"oauthtest-code"}, "state": {q.Get("state")}}.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	case "/token":
		_ = r.ParseForm()
		f := r.PostForm
		sum := sha256.Sum256([]byte(f.Get("code_verifier")))
		if f.Get("code") != "oauthtest-code" || base64.RawURLEncoding.EncodeToString(sum[:]) != s.challenge || f.Get("resource") != s.URL {
			writeJSON(http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
			return
		}
		s.logins++
		s.token, s.granted = fmt.Sprintf("oauthtest-token-%d", s.logins), s.scope
		writeJSON(http.StatusOK, map[string]any{"access_token": s.token, "token_type": "Bearer", "expires_in": 3600})
	default:
		http.NotFound(w, r)
	}
}

// needed is the scope a tools/call request needs (StepUp), if any; the
// body stays for the MCP server to read.
func (s *Server) needed(r *http.Request) string {
	b, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(b))
	var m struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if json.Unmarshal(b, &m) != nil || m.Method != string(mcp.MethodToolsCall) {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.needs[m.Params.Name]
}

// FollowRedirects replaces oauth.OpenBrowser until t ends with a stand-in
// browser: it opens the authorization URL and follows the redirect to the
// login's loopback listener.
func FollowRedirects(t testing.TB) {
	t.Helper()
	prev := oauth.OpenBrowser
	t.Cleanup(func() { oauth.OpenBrowser = prev })
	oauth.OpenBrowser = func(ctx context.Context, u string) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
}
