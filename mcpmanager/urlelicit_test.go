package mcpmanager

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// buildURLServer is the testserver in mode urlserver (URL elicitation,
// -32042, sampling with tools).
func buildURLServer(t *testing.T) string {
	t.Helper()
	return proctest.Server(t, "urlserver")
}

// urlUser stands in for the user in front of a URL card.
type urlUser struct {
	visit  bool   // open the URL (GET it, as the browser would)
	answer string // then answer this, or wait to be withdrawn when ""
	seen   chan mcp.ElicitationParams
}

func (u *urlUser) CreateMessage(context.Context, string, mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return nil, errors.New("no model")
}

func (u *urlUser) Elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	u.seen <- req.Params
	if u.visit {
		res, err := http.Get(req.Params.URL)
		if err != nil {
			return nil, err
		}
		res.Body.Close()
	}
	if u.answer == "" {
		<-ctx.Done() // the server's completion withdraws the card
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionCancel}}, ctx.Err()
	}
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseAction(u.answer)}}, nil
}

// TestURLElicitationRequired: a tool call failing with -32042 shows the
// server's URL (marked as retrying the call) and runs again once the server
// said the elicitation completed, or once the user said Done; a decline
// fails the call.
func TestURLElicitationRequired(t *testing.T) {
	bin := buildURLServer(t)
	for _, tc := range []struct {
		name    string
		user    urlUser
		want    string
		wantErr error
	}{
		{"completed by the server after the visit", urlUser{visit: true}, "linked: visited=true", nil},
		{"the user's Done", urlUser{answer: "accept"}, "linked: visited=false", nil},
		{"declined", urlUser{answer: "decline"}, "", router.ErrURLDeclined},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := tc.user
			u.seen = make(chan mcp.ElicitationParams, 4)
			m := New(Options{})
			m.SetRequestHandler(&u)
			m.Apply([]ServerConfig{{Name: "links", Command: bin}})
			t.Cleanup(func() { m.Close(context.Background()) })
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			m.WaitSettled(ctx)
			res, err := m.Router().Call(ctx, "links", "needs_link", nil, router.CallOptions{})
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
			} else if err != nil || mcptest.Text(res) != tc.want {
				t.Fatalf("needs_link = %v, %v; want %q", res, err, tc.want)
			}
			p := <-u.seen
			if p.Mode != mcp.ElicitationModeURL || p.ElicitationID != "err-1" || !strings.HasSuffix(p.URL, "/connect?id=err-1") ||
				p.Message != "Authorize Example to read your files." || p.Meta == nil || p.Meta.AdditionalFields[router.RetryMeta] != true {
				t.Errorf("elicitation shown: %+v", p)
			}
		})
	}
}
