package oauth_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
)

// TestBearerWithoutOAuth: a server that wants a token of its own answers
// with a bare Bearer challenge, publishes no OAuth metadata, and has no
// registration at MCP 2025-03-26's default address. The login ends saying
// it offers no OAuth login and which header to add, instead of an OAuth
// error from /register; the browser is never opened.
func TestBearerWithoutOAuth(t *testing.T) {
	for _, status := range []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusMethodNotAllowed} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch {
				case strings.HasPrefix(r.URL.Path, "/.well-known/"):
					http.NotFound(w, r)
				case r.URL.Path == "/register":
					http.Error(w, `{"error":"unauthorized","error_description":"Bearer token required"}`, status)
				default:
					w.Header().Set("WWW-Authenticate", `Bearer realm="api"`)
					http.Error(w, `{"error":"unauthorized"}`, http.StatusUnauthorized)
				}
			}))
			t.Cleanup(srv.Close)
			opened := browser(t)
			a := oauth.New(oauth.Config{Server: "keyed", URL: srv.URL + "/mcp"}, nil)
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+"/mcp", strings.NewReader(`{}`))
			if _, err := (&oauth.Transport{Auth: a}).RoundTrip(req); !errors.Is(err, oauth.ErrNeedsLogin) {
				t.Fatalf("first request: %v, want ErrNeedsLogin", err)
			}
			err := a.Login(t.Context(), nil)
			if !errors.Is(err, oauth.ErrNoOAuth) || !strings.Contains(err.Error(), `add "headers": {"Authorization": "Bearer ${secret:NAME}"}`) {
				t.Errorf("login: %v; want ErrNoOAuth naming the header to add", err)
			}
			if n := opened.Opens(); n != 0 {
				t.Errorf("the browser was opened %d times", n)
			}
		})
	}
}
