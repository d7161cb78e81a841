package chat_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// TestCollidingNamesKeepTheirServer: server "a" with tool "b__c" and server
// "a__b" with tool "c" would both be a__b__c. The model is offered two
// names, each call reaches the server it was offered for, and the approval
// policy checked is the one of that server.
func TestCollidingNamesKeepTheirServer(t *testing.T) {
	cases := []struct {
		name   string
		askFor string // the server whose wildcard policy is "ask"
	}{
		{"ask on the shorter server name", "a"},
		{"ask on the longer server name", "a__b"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reg := router.New(router.Options{})
			for _, s := range []struct{ server, tool string }{{"a", "b__c"}, {"a__b", "c"}} {
				srv := server.NewMCPServer(s.server, "1.0.0")
				srv.AddTool(mcp.NewTool(s.tool, mcp.WithReadOnlyHintAnnotation(true)), // runs unasked by default
					func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
						return mcp.NewToolResultText("ran on server " + s.server), nil
					})
				addInProcess(t, reg, s.server, srv)
			}
			tools, _ := reg.Tools(t.Context())
			exposed := map[string]string{} // server → exposed name
			for _, tl := range tools {
				exposed[tl.Server] = tl.Name
			}
			if len(exposed) != 2 || exposed["a"] == exposed["a__b"] {
				t.Fatalf("exposed names %v: want two distinct names", exposed)
			}

			hist, err := history.Open(t.Context(), filepath.Join(t.TempDir(), "history.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { hist.Close() })
			llm := providertest.NewServer(t)
			p, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "fake", BaseURL: llm.URL(provider.KindOpenAI), APIKey: "sk-test"})
			if err != nil {
				t.Fatal(err)
			}
			appr := &approver{answer: chat.Deny}
			eng := chat.New(chat.Options{Tools: reg, History: hist, Approver: appr})
			c, err := hist.CreateChat(t.Context(), history.Chat{Title: "t"})
			if err != nil {
				t.Fatal(err)
			}
			llm.Enqueue(
				providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", exposed["a"], `{}`), call("c2", exposed["a__b"], `{}`)}},
				providertest.Reply{Text: "done"},
			)
			turn := chat.Turn{ChatID: c.ID, Provider: p, Model: "m1", Text: "run both",
				Policies: chat.Policies{tc.askFor + "__*": chat.PolicyAsk}}
			if _, err := eng.Send(t.Context(), turn); err != nil {
				t.Fatal(err)
			}

			// The model was offered both names.
			first := string(llm.Requests()[0])
			for _, n := range exposed {
				if !strings.Contains(first, `"`+n+`"`) {
					t.Errorf("tool %s not offered to the model: %s", n, first)
				}
			}
			asked := appr.asked()
			if len(asked) != 1 || asked[0].Server != tc.askFor || asked[0].Tool != exposed[tc.askFor] {
				t.Fatalf("approvals asked = %+v, want one for server %s (%s)", asked, tc.askFor, exposed[tc.askFor])
			}
			other := "a__b"
			if tc.askFor == "a__b" {
				other = "a"
			}
			msgs, err := hist.Messages(t.Context(), c.ID)
			if err != nil {
				t.Fatal(err)
			}
			calls := msgs[1].ToolCalls
			i := slices.IndexFunc(calls, func(hc history.ToolCall) bool { return hc.Tool == exposed[other] })
			j := slices.IndexFunc(calls, func(hc history.ToolCall) bool { return hc.Tool == exposed[tc.askFor] })
			if i < 0 || j < 0 {
				t.Fatalf("stored calls = %+v", calls)
			}
			ran, denied := calls[i], calls[j]
			if ran.Status != chat.CallDone || ran.Server != other || !strings.Contains(string(ran.Result), "ran on server "+other+`"`) {
				t.Errorf("call of %s = %+v, want it run on server %s", exposed[other], ran, other)
			}
			if denied.Status != chat.CallDenied || denied.Server != tc.askFor {
				t.Errorf("call of %s = %+v, want it denied, on server %s", exposed[tc.askFor], denied, tc.askFor)
			}
		})
	}
}
