package oauth_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
)

// TestUnauthorizedWithoutOAuth: a 401 without a Bearer challenge from a
// server that publishes no OAuth metadata is no request to log in (an API
// key server): the Transport hands it back as it came, body and all, and
// asks for no login. With metadata, the same 401 still asks for one (the
// spec's fallback to the well-known URLs).
func TestUnauthorizedWithoutOAuth(t *testing.T) {
	for _, c := range []struct {
		name     string
		metadata bool
	}{{"no metadata: passed through", false}, {"protected-resource metadata: needs login", true}} {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			f.wwwAuth = ""
			if !c.metadata {
				f.docs = map[string]any{}
			}
			var asked error
			tr := &oauth.Transport{Auth: oauth.New(oauth.Config{Server: "hk", URL: f.URL + "/mcp"}, nil), OnNeedsLogin: func(err error) { asked = err }}
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, f.URL+"/mcp", strings.NewReader(`{}`))
			resp, err := tr.RoundTrip(req)
			if c.metadata {
				if !errors.Is(err, oauth.ErrNeedsLogin) || asked == nil {
					t.Fatalf("RoundTrip = %v, %v (login asked: %v); want ErrNeedsLogin", resp, err, asked)
				}
				return
			}
			if err != nil || asked != nil {
				t.Fatalf("RoundTrip: %v (login asked: %v); want the 401 itself", err, asked)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(string(body), "invalid_token") {
				t.Errorf("got %d %q, want the server's 401 and its body", resp.StatusCode, body)
			}
		})
	}
}
