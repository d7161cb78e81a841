package chat_test

import (
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/mcpmanager/registry"
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
				req.Params.Meta = &mcp.Meta{AdditionalFields: map[string]any{registry.RetryMeta: true}}
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
