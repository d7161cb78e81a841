package chat_test

import (
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// TestURLElicitationCard: a URL elicitation reaches the user with its
// domain, marked as retrying a tool call when it stands for a -32042; the
// user's accept (Open or Done) and decline go back to the server; a URL
// that is not a web page is declined without being shown.
func TestURLElicitationCard(t *testing.T) {
	for _, tc := range []struct {
		name       string
		url        string
		retry      bool
		answer     string
		wantShown  bool
		wantDomain string
		want       mcp.ElicitationResponseAction
	}{
		{"opened", "https://auth.example.com/connect?x=1", false, "accept", true, "auth.example.com", mcp.ElicitationResponseActionAccept},
		{"declined", "https://auth.example.com/connect", false, "decline", true, "auth.example.com", mcp.ElicitationResponseActionDecline},
		{"a waiting tool call's Done", "http://127.0.0.1:8123/x", true, "accept", true, "127.0.0.1", mcp.ElicitationResponseActionAccept},
		{"not a web page", "javascript:alert(1)", false, "accept", false, "", mcp.ElicitationResponseActionDecline},
		{"credentials in the URL", "https://bank.example@evil.example/", false, "accept", false, "", mcp.ElicitationResponseActionDecline},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &elicitor{answer: chat.ElicitAnswer{Action: tc.answer}}
			q := &chat.Requests{Engine: chat.New(chat.Options{}), Elicitor: e}
			req := mcp.ElicitationRequest{Params: mcp.ElicitationParams{Mode: mcp.ElicitationModeURL, ElicitationID: "e1", URL: tc.url, Message: "Connect"}}
			if tc.retry {
				req.Params.Meta = &mcp.Meta{AdditionalFields: map[string]any{router.RetryMeta: true}}
			}
			res, err := q.Elicit(t.Context(), "links", req)
			if err != nil {
				t.Fatal(err)
			}
			if res.Action != tc.want || res.Content != nil {
				t.Errorf("answered %s %v, want %s", res.Action, res.Content, tc.want)
			}
			if shown := len(e.got) == 1; shown != tc.wantShown {
				t.Fatalf("shown %v, want %v", shown, tc.wantShown)
			}
			if tc.wantShown {
				if g := e.got[0]; g.Mode != "url" || g.URL != tc.url || g.Domain != tc.wantDomain || g.Retry != tc.retry || g.Message != "Connect" || g.Server != "links" {
					t.Errorf("shown %+v", g)
				}
			}
		})
	}
}

// TestSiteOf: a link's host is shown in ASCII — a look-alike in another
// alphabet as its xn-- form — with the domain a person registers.
func TestSiteOf(t *testing.T) {
	for _, c := range []struct{ url, host, registrable, written string }{
		{"https://auth.example.com/x", "auth.example.com", "example.com", ""},
		{"https://apple.com.login.evil.example/", "apple.com.login.evil.example", "evil.example", ""},
		{"https://\u0430pple.com/", "xn--pple-43d.com", "xn--pple-43d.com", "\u0430pple.com"},
		{"https://login.b\u0430nk.co.uk/", "login.xn--bnk-6cd.co.uk", "xn--bnk-6cd.co.uk", "login.b\u0430nk.co.uk"},
		{"https://EXAMPLE.com./", "example.com", "example.com", ""},
		{"http://127.0.0.1:8123/x", "127.0.0.1", "127.0.0.1", ""},
		{"http://localhost:3000/", "localhost", "localhost", ""},
	} {
		u, err := chat.CheckURL(c.url)
		if err != nil {
			t.Fatalf("%s: %v", c.url, err)
		}
		if got := chat.SiteOf(u); got != (chat.Site{Host: c.host, Registrable: c.registrable, Written: c.written}) {
			t.Errorf("SiteOf(%s) = %+v; want %s / %s / %q", c.url, got, c.host, c.registrable, c.written)
		}
	}
}
