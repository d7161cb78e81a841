package chat_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// serverOf is an MCP server whose tools answer with their own name and
// have description desc.
func serverOf(name, desc string, tools ...string) *server.MCPServer {
	s := server.NewMCPServer(name, "1.0.0")
	for _, tl := range tools {
		s.AddTool(mcp.NewTool(tl, mcp.WithDescription(desc), mcp.WithString("text"), mcp.WithReadOnlyHintAnnotation(true)),
			func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText("ran " + name + "/" + tl), nil
			})
	}
	return s
}

// offeredTools is the tool names an OpenAI request offers, and their
// descriptions.
func offeredTools(t *testing.T, body []byte) (names []string, descs map[string]string) {
	t.Helper()
	var req struct {
		Tools []struct {
			Function struct {
				Name        string `json:"name"`
				Description string `json:"description"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	descs = map[string]string{}
	for _, tl := range req.Tools {
		names = append(names, tl.Function.Name)
		descs[tl.Function.Name] = tl.Function.Description
	}
	slices.Sort(names)
	return names, descs
}

// TestToolSetFollowsTheListingAndTheTurn: the engine keeps the tools it
// derives from the router's listing from turn to turn, and never offers a
// kept set that is no longer so: a server added, replaced (a changed
// description) or removed, a policy that denies a tool, a turn's Active
// choice, and find_tools' index all reach the very next turn.
func TestToolSetFollowsTheListingAndTheTurn(t *testing.T) {
	f := newFixture(t, "openai", nil)
	reg := router.New(router.Options{})
	addInProcess(t, reg, "a", serverOf("a", "the first tool", "one"))
	f.eng.SetTools(reg)

	turn := func(want string, mod ...func(*chat.Turn)) map[string]string {
		t.Helper()
		f.llm.Reset()
		f.llm.Enqueue(providertest.Reply{Text: "ok"})
		if _, err := f.send(t.Context(), "go", mod...); err != nil {
			t.Fatal(err)
		}
		names, descs := offeredTools(t, f.llm.Requests()[0])
		if got := strings.Join(names, ","); got != want {
			t.Fatalf("offered %s, want %s", got, want)
		}
		return descs
	}
	turn("a__one")
	turn("a__one") // kept
	addInProcess(t, reg, "b", serverOf("b", "the second tool", "two"))
	turn("a__one,b__two")
	addInProcess(t, reg, "b", serverOf("b", "the second tool, described anew", "two"))
	if d := turn("a__one,b__two"); d["b__two"] != "the second tool, described anew" {
		t.Fatalf("a replaced server's description: %q", d["b__two"])
	}
	turn("b__two", func(tn *chat.Turn) { tn.Policies = chat.Policies{"a__one": chat.PolicyDeny} })
	turn("a__one", func(tn *chat.Turn) { tn.Active = func(tl router.Tool) bool { return tl.Server == "a" } })
	turn("a__one,b__two")

	// find_tools searches the tools of the turn's listing.
	find := func(query, want string) {
		t.Helper()
		f.llm.Reset()
		f.llm.Enqueue(
			providertest.Reply{ToolCalls: []providertest.ToolCall{call("f1", chat.FindToolsName, `{"query":"`+query+`"}`)}},
			providertest.Reply{Text: "found"},
		)
		res, err := f.send(t.Context(), "find", func(tn *chat.Turn) { tn.SearchAbove = 1 })
		if err != nil {
			t.Fatal(err)
		}
		if len(res.ToolCalls) != 1 || !strings.Contains(string(res.ToolCalls[0].Result), want) {
			t.Fatalf("find_tools %q: %+v, want %s", query, res.ToolCalls, want)
		}
	}
	find("second", "b__two")
	addInProcess(t, reg, "b", serverOf("b", "a third kind of tool", "three"))
	find("third", "b__three")
	reg.Remove("b")
	turn("a__one")

	// A tool no longer listed is not called, though the model names it.
	f.llm.Reset()
	f.llm.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", "b__three", `{}`)}}, providertest.Reply{Text: "ok"})
	res, err := f.send(t.Context(), "call it")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ToolCalls) != 1 || !strings.Contains(string(res.ToolCalls[0].Result), "There is no tool named") {
		t.Fatalf("a removed server's tool was called: %+v", res.ToolCalls)
	}
}

// TestToolSetsOfConcurrentTurns: turns of two chats that choose different
// tools from one listing, at the same time, each get their own (run with
// -race: the kept set is shared).
func TestToolSetsOfConcurrentTurns(t *testing.T) {
	f := newFixture(t, "openai", nil)
	reg := router.New(router.Options{})
	addInProcess(t, reg, "a", serverOf("a", "the first tool", "one"))
	addInProcess(t, reg, "b", serverOf("b", "the second tool", "two"))
	f.eng.SetTools(reg)
	const turns = 8
	for range 2 * turns {
		f.llm.Enqueue(providertest.Reply{Text: "ok"})
	}
	var wg sync.WaitGroup
	for _, server := range []string{"a", "b"} {
		c, err := f.hist.CreateChat(t.Context(), history.Chat{Title: server})
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			for range turns {
				if _, err := f.eng.Send(t.Context(), chat.Turn{ChatID: c.ID, Provider: f.p, Model: "m1", Text: "go",
					Active: func(tl router.Tool) bool { return tl.Server == server }}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	count := map[string]int{}
	for _, body := range f.llm.Requests() {
		names, _ := offeredTools(t, body)
		count[strings.Join(names, ",")]++
	}
	if count["a__one"] != turns || count["b__two"] != turns || len(count) != 2 {
		t.Fatalf("requests by the tools they offered: %v", count)
	}
}

// toolsetServer is server a with changetools, which enables a toolset the
// way GitHub's dynamic toolsets do: it adds added_later and added_off,
// removes the tools named in drop, and tells the router
// notifications/tools/list_changed, as a server's session does, before it
// answers. Its other tools are keep.
func toolsetServer(t *testing.T, reg *router.Router, keep, drop []string) {
	t.Helper()
	s := serverOf("a", "a tool", keep...)
	s.AddTool(mcp.NewTool("changetools", mcp.WithDescription("enable the extra toolset")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			for _, name := range []string{"added_later", "added_off"} {
				s.AddTool(mcp.NewTool(name, mcp.WithDescription("a tool added later"), mcp.WithReadOnlyHintAnnotation(true)),
					func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
						return mcp.NewToolResultText("ran a/" + name), nil
					})
			}
			s.DeleteTools(drop...)
			reg.HandleNotification("a", mcp.JSONRPCNotification{Notification: mcp.Notification{Method: string(mcp.MethodNotificationToolsListChanged)}})
			return mcp.NewToolResultText("toolset enabled"), nil
		})
	addInProcess(t, reg, "a", s)
}

// TestToolsAddedDuringATurnAreOfferedAtItsNextStep: the model enables a
// toolset (its call makes the server add tools and send
// notifications/tools/list_changed), then calls a tool of it in the same
// turn. The tool is offered from the next step and its call runs; a tool
// the turn's policies deny stays off though it came with the toolset.
func TestToolsAddedDuringATurnAreOfferedAtItsNextStep(t *testing.T) {
	f := newFixture(t, "openai", nil)
	reg := router.New(router.Options{})
	toolsetServer(t, reg, []string{"one"}, nil)
	f.eng.SetTools(reg)
	f.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", "a__changetools", `{}`)}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("c2", "a__added_later", `{}`), call("c3", "a__added_off", `{}`)}},
		providertest.Reply{Text: "done"},
	)
	res, err := f.send(t.Context(), "enable the toolset, then use it", func(tn *chat.Turn) {
		tn.Policies = chat.Policies{"a__added_off": chat.PolicyDeny}
	})
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.llm.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	for i, want := range []string{"a__changetools,a__one", "a__added_later,a__changetools,a__one", "a__added_later,a__changetools,a__one"} {
		if names, _ := offeredTools(t, reqs[i]); strings.Join(names, ",") != want {
			t.Errorf("request %d offered %s, want %s", i+1, strings.Join(names, ","), want)
		}
	}
	if len(res.ToolCalls) != 3 || !strings.Contains(string(res.ToolCalls[1].Result), "ran a/added_later") {
		t.Fatalf("the added tool's call: %s", callResults(res.ToolCalls))
	}
	if strings.Contains(string(res.ToolCalls[2].Result), "ran a/") {
		t.Fatalf("a denied tool of the toolset ran: %s", res.ToolCalls[2].Result)
	}
}

// TestToolsAddedDuringASearchingTurnAreFound: in a turn where the model
// finds its tools with find_tools, tools a call added are in the index at
// the next step, and the turn goes on searching though the tools left are
// now few enough to be offered all at once (the model was told to search;
// what it found stays attached).
func TestToolsAddedDuringASearchingTurnAreFound(t *testing.T) {
	f := newFixture(t, "openai", nil)
	reg := router.New(router.Options{})
	old := []string{"one", "two", "three"}
	toolsetServer(t, reg, old, old)
	f.eng.SetTools(reg)
	f.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", "a__changetools", `{}`)}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("c2", chat.FindToolsName, `{"query":"added later"}`)}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("c3", "a__added_later", `{}`)}},
		providertest.Reply{Text: "done"},
	)
	res, err := f.send(t.Context(), "enable the toolset, then find and use it", func(tn *chat.Turn) {
		tn.SearchAbove = 3 // a, changetools and three old ones: searched; changetools and added_later: would not be
		tn.Pinned = []string{"a__changetools"}
		tn.Policies = chat.Policies{"a__added_off": chat.PolicyDeny}
	})
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.llm.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d model requests, want 4", len(reqs))
	}
	for i, want := range []string{"a__changetools,find_tools", "a__changetools,find_tools", "a__added_later,a__changetools,find_tools"} {
		if names, _ := offeredTools(t, reqs[i]); strings.Join(names, ",") != want {
			t.Errorf("request %d offered %s, want %s", i+1, strings.Join(names, ","), want)
		}
	}
	if len(res.ToolCalls) != 3 || !strings.Contains(string(res.ToolCalls[1].Result), "a__added_later") ||
		strings.Contains(string(res.ToolCalls[1].Result), "a__added_off") {
		t.Fatalf("find_tools after the toolset came: %s", callResults(res.ToolCalls))
	}
	if !strings.Contains(string(res.ToolCalls[2].Result), "ran a/added_later") {
		t.Fatalf("the found tool's call: %s", res.ToolCalls[2].Result)
	}
}

// callResults is each call's tool and result, to read in a failure.
func callResults(calls []history.ToolCall) string {
	var b strings.Builder
	for _, c := range calls {
		fmt.Fprintf(&b, "\n%s: %s", c.Tool, c.Result)
	}
	return b.String()
}
