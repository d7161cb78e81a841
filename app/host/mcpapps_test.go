package host

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/mcpmanager/apps"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// answer gives one decision to every approval and counts them.
type answer struct {
	d chat.Decision
	n int
}

func (a *answer) Approve(context.Context, chat.ApprovalRequest) (chat.Decision, error) {
	a.n++
	return a.d, nil
}

// denyAll records approvals and denies them.
type denyAll struct{ asked []chat.ApprovalRequest }

func (d *denyAll) Approve(_ context.Context, req chat.ApprovalRequest) (chat.Decision, error) {
	d.asked = append(d.asked, req)
	return chat.Deny, nil
}

// An app's calls go only to its own server's tools whose visibility
// includes "app", under the chat's policy; its resource opens behind a
// proxy page that carries the CSP.
func TestAppsCallsAndOpen(t *testing.T) {
	bin := proctest.Server(t, "hostileapp")
	h := open(t)
	if err := h.Servers.Add(config.Server{Name: "hostile", Transport: config.Stdio, Command: bin}); err != nil {
		t.Fatal(err)
	}
	if err := h.Servers.Load(); err != nil {
		t.Fatal(err)
	}
	a := h.MCPApps
	err := a.Start()
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	for {
		if _, ui, err := a.Tool(ctx, "hostile__show"); err == nil && ui.ResourceURI == "ui://hostile/app.html" {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("hostile__show never listed with its app")
		case <-time.After(100 * time.Millisecond):
		}
	}

	for _, tc := range []struct {
		name, tool string
		wantErr    error
		want       string
	}{
		{"app-only tool runs", "app_only", nil, "app-only ok"},
		{"model-only tool refused", "secret", apps.ErrNotForApps, ""},
		{"not a tool of the app's server", "hostile__show", ErrNoAppTool, ""},
		{"unknown tool", "nope", ErrNoAppTool, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := a.Call(ctx, AppCall{ChatID: "chat1", Server: "hostile", Tool: tc.tool})
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil || res.Content[0].(mcp.TextContent).Text != tc.want {
				t.Fatalf("res %+v, err %v", res, err)
			}
		})
	}
	hits, err := a.Call(ctx, AppCall{ChatID: "chat1", Server: "hostile", Tool: "hits"})
	if err != nil || !strings.Contains(hits.Content[0].(mcp.TextContent).Text, `"secret":0`) {
		t.Fatalf("the refused tool ran: %+v %v", hits, err)
	}

	// A tool the policy says to ask about asks in the chat; denied, it does not run.
	if err := h.Settings.EditChat(func(s *chat.Settings) error {
		s.Policies = chat.Policies{"hostile__app_only": chat.PolicyAsk}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	d := &denyAll{}
	eng := chat.New(chat.Options{}) // where "allow for this chat" is kept
	if _, err := a.Call(ctx, AppCall{ChatID: "chat1", Server: "hostile", Tool: "app_only", Args: map[string]any{"x": 1}, Ask: d, Always: eng}); err == nil || !strings.Contains(err.Error(), "denied") {
		t.Fatalf("denied call: %v", err)
	}
	if len(d.asked) != 1 || d.asked[0].ChatID != "chat1" || d.asked[0].Tool != "hostile__app_only" || string(d.asked[0].Arguments) != `{"x":1}` {
		t.Fatalf("asked %+v", d.asked)
	}
	// "Allow for this chat" holds for the app's later calls in that chat only.
	always := &answer{d: chat.ApproveAlways}
	for _, chatID := range []string{"chat1", "chat1", "chat2"} {
		if _, err := a.Call(ctx, AppCall{ChatID: chatID, Server: "hostile", Tool: "app_only", Ask: always, Always: eng}); err != nil {
			t.Fatalf("%s: %v", chatID, err)
		}
	}
	if always.n != 2 {
		t.Fatalf("asked %d times for chat1, chat1, chat2; want 2 (once per chat)", always.n)
	}
	// A deny rule on the arguments wins over the policy and the chat's "allow".
	if err := h.Settings.EditChat(func(s *chat.Settings) error {
		s.Policies = chat.Policies{"hostile__app_only": chat.PolicyAllow}
		s.Rules = chat.Rules{{ID: "r1", Tool: "hostile__app_only", Effect: chat.PolicyDeny, Match: []chat.Match{{Path: "x", Glob: "1"}}}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Call(ctx, AppCall{ChatID: "chat1", Server: "hostile", Tool: "app_only", Args: map[string]any{"x": 1}, Ask: always, Always: eng}); err == nil || !strings.Contains(err.Error(), "approval rule denies") {
		t.Fatalf("a call a deny rule matches: %v", err)
	}
	if _, err := a.Call(ctx, AppCall{ChatID: "chat1", Server: "hostile", Tool: "app_only", Args: map[string]any{"x": 2}, Ask: always, Always: eng}); err != nil {
		t.Fatalf("a call the rule does not match: %v", err)
	}
	// In an agent's chat the agent's policies win over the global ones.
	strict := &chat.Agent{ID: "ag", Name: "Strict", Servers: []string{"hostile"}, Policies: chat.Policies{"hostile__app_only": chat.PolicyDeny}}
	if _, err := a.Call(ctx, AppCall{ChatID: "chat3", Server: "hostile", Tool: "app_only", Args: map[string]any{"x": 2}, Ask: always, Always: eng, Agent: strict}); err == nil || !strings.Contains(err.Error(), "do not allow") {
		t.Fatalf("a call the agent's policy denies: %v", err)
	}

	o, err := a.Open(ctx, "hostile", "ui://hostile/app.html")
	if err != nil || !strings.Contains(o.HTML, "Hostile app") {
		t.Fatalf("open: %v", err)
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, o.ProxyURL, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Content-Security-Policy"); got != apps.DefaultCSP {
		t.Errorf("proxy CSP %q, want the spec's default", got)
	}
}
