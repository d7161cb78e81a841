package chat_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// addServer connects one more in-process server with n tools named
// tool0..tool<n-1> plus "save", which records what it was given.
func addServer(t *testing.T, reg *router.Router, name string, n int, saved *[]string) {
	t.Helper()
	s := server.NewMCPServer(name, "1.0.0")
	for i := range n {
		s.AddTool(mcp.NewTool(fmt.Sprintf("tool%d", i), mcp.WithDescription(fmt.Sprintf("generic operation number %d", i)), mcp.WithReadOnlyHintAnnotation(true)),
			func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText("ok"), nil
			})
	}
	s.AddTool(mcp.NewTool("save", mcp.WithDescription("save a note for later"), mcp.WithString("note"), mcp.WithReadOnlyHintAnnotation(true)),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			*saved = append(*saved, req.GetString("note", ""))
			return mcp.NewToolResultText("saved " + req.GetString("note", "")), nil
		})
	addInProcess(t, reg, name, s)
}

// offered returns the tool names of a recorded OpenAI request, and its
// system prompt.
func offered(t *testing.T, raw json.RawMessage) (names []string, system string) {
	t.Helper()
	var req struct {
		Tools []struct {
			Function struct{ Name string } `json:"function"`
		} `json:"tools"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		t.Fatal(err)
	}
	for _, tl := range req.Tools {
		names = append(names, tl.Function.Name)
	}
	for _, m := range req.Messages {
		if m.Role == "system" {
			_ = json.Unmarshal(m.Content, &system)
		}
	}
	return names, system
}

func TestDelegatedAgentTwoServers(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	var saved []string
	reg := testServer(t, nil) // "files": echo, write, ...
	addServer(t, reg, "notes", 0, &saved)
	f.eng.SetTools(reg)

	f.llm.Enqueue(
		// main: ask the files specialist
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("a1", "ask_files", `{"query":"echo the word kiwi","context":"the user likes fruit"}`)}},
		// files sub-agent: one call, then its answer
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("s1", "files__echo", `{"text":"kiwi"}`)}},
		providertest.Reply{Text: "The echo tool said: echo: kiwi"},
		// main: ask the notes specialist with what it learned
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("a2", "ask_notes", `{"query":"save the note 'echo: kiwi'"}`)}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("s2", "notes__save", `{"note":"echo: kiwi"}`)}},
		providertest.Reply{Text: "Saved."},
		providertest.Reply{Text: "Done: I echoed kiwi and saved the result as a note."},
	)
	res, err := f.send(t.Context(), "echo kiwi, then save what came back as a note", func(tn *chat.Turn) { tn.Delegate = true })
	if err != nil {
		t.Fatal(err)
	}
	if res.Message.Text != "Done: I echoed kiwi and saved the result as a note." {
		t.Fatalf("final answer %q", res.Message.Text)
	}
	if !slices.Equal(saved, []string{"echo: kiwi"}) {
		t.Fatalf("notes server saved %v", saved)
	}

	reqs := f.llm.Requests()
	if len(reqs) != 7 {
		t.Fatalf("%d model requests, want 7", len(reqs))
	}
	// The main model sees one tool per server, never the servers' own tools.
	mainTools, _ := offered(t, reqs[0])
	if !slices.Equal(mainTools, []string{"ask_files", "ask_notes"}) {
		t.Fatalf("main model offered %v", mainTools)
	}
	// Each sub-agent sees only its server's tools and a prompt listing them,
	// and gets the query with its context.
	subTools, system := offered(t, reqs[1])
	for _, n := range subTools {
		if !strings.HasPrefix(n, "files__") {
			t.Fatalf("files sub-agent offered %v", subTools)
		}
	}
	if !strings.Contains(system, `"files"`) || !strings.Contains(system, "files__echo") || strings.Contains(system, "notes__save") {
		t.Fatalf("files sub-agent system prompt: %s", system)
	}
	if !strings.Contains(string(reqs[1]), "echo the word kiwi") || !strings.Contains(string(reqs[1]), "the user likes fruit") {
		t.Fatalf("the sub-agent did not get query and context: %s", reqs[1])
	}
	notesTools, _ := offered(t, reqs[4])
	if !slices.Equal(notesTools, []string{"notes__save"}) {
		t.Fatalf("notes sub-agent offered %v", notesTools)
	}

	// Nested steps reach the UI under their parent card…
	var nested []string
	for _, ev := range f.events(chat.EventToolCall) {
		if ev.Call.Parent != "" && ev.Call.Status == chat.CallDone {
			nested = append(nested, ev.Call.Parent+">"+ev.Call.Name)
		}
	}
	if !slices.Equal(nested, []string{"a1>files__echo", "a2>notes__save"}) {
		t.Fatalf("nested steps %v", nested)
	}
	// …and are kept in the parent's stored result; the sub-agents' calls
	// are not stored as the chat's own.
	msgs, err := f.hist.Messages(t.Context(), f.chat.ID)
	if err != nil {
		t.Fatal(err)
	}
	var stored []string
	var steps []chat.Step
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			stored = append(stored, c.Tool)
			var r struct {
				StructuredContent struct {
					Answer string      `json:"answer"`
					Steps  []chat.Step `json:"steps"`
				} `json:"structuredContent"`
			}
			if err := json.Unmarshal(c.Result, &r); err != nil {
				t.Fatal(err)
			}
			steps = append(steps, r.StructuredContent.Steps...)
			if c.Tool == "ask_files" && r.StructuredContent.Answer != "The echo tool said: echo: kiwi" {
				t.Fatalf("ask_files answer %q", r.StructuredContent.Answer)
			}
		}
	}
	if !slices.Equal(stored, []string{"ask_files", "ask_notes"}) {
		t.Fatalf("stored calls %v", stored)
	}
	if len(steps) != 2 || steps[0].Tool != "files__echo" || steps[0].Result != "echo: kiwi" || steps[1].Server != "notes" {
		t.Fatalf("steps %+v", steps)
	}
}

func TestDelegatedSubAgentAsksBeforeRiskyTools(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	f.appr.answer = chat.Deny
	f.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("a1", "ask_files", `{"query":"write x"}`)}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("s1", "files__write", `{"path":"x"}`)}},
		providertest.Reply{Text: "The user did not allow writing."},
		providertest.Reply{Text: "I could not write x."},
	)
	if _, err := f.send(t.Context(), "write x", func(tn *chat.Turn) { tn.Delegate = true }); err != nil {
		t.Fatal(err)
	}
	asked := f.appr.asked()
	if len(asked) != 1 || asked[0].Tool != "files__write" {
		t.Fatalf("approvals %+v", asked)
	}
	if !strings.Contains(string(f.llm.Requests()[2]), "denied") {
		t.Fatal("the sub-agent was not told the call was denied")
	}
}

func TestFindToolsAttachesWhatItFinds(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	var saved []string
	reg := testServer(t, nil)
	addServer(t, reg, "notes", 50, &saved) // 5 + 51 tools ≈ 1.5k tokens: more than a quarter of a 4k window
	f.eng.SetTools(reg)
	f.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("f1", chat.FindToolsName, `{"query":"save a note"}`)}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", "notes__save", `{"note":"hi"}`)}},
		providertest.Reply{Text: "Saved your note."},
	)
	if _, err := f.send(t.Context(), "save the note hi", func(tn *chat.Turn) { tn.Pinned, tn.ContextWindow = []string{"files__echo"}, 4_000 }); err != nil {
		t.Fatal(err)
	}
	reqs := f.llm.Requests()
	first, _ := offered(t, reqs[0])
	if !slices.Equal(first, []string{chat.FindToolsName, "files__echo"}) {
		t.Fatalf("first step offered %v, want find_tools and the pinned tool", first)
	}
	second, _ := offered(t, reqs[1])
	if !slices.Contains(second, "notes__save") || len(second) > 7 {
		t.Fatalf("after find_tools the model was offered %v", second)
	}
	if !strings.Contains(string(reqs[1]), "notes__save: save a note for later") {
		t.Fatalf("find_tools result: %s", reqs[1])
	}
	if !slices.Equal(saved, []string{"hi"}) {
		t.Fatalf("saved %v", saved)
	}
	// Below the threshold, every tool is offered as before: by count, and
	// by size in an unknown model's window (the 56 short definitions take
	// less than a quarter of it).
	for i, setup := range []func(*chat.Turn){func(tn *chat.Turn) { tn.SearchAbove = 1000 }, func(*chat.Turn) {}} {
		f.llm.Enqueue(providertest.Reply{Text: "ok"})
		if _, err := f.send(t.Context(), "again", setup); err != nil {
			t.Fatal(err)
		}
		all, _ := offered(t, f.llm.Requests()[3+i])
		if len(all) != 56 || slices.Contains(all, chat.FindToolsName) {
			t.Fatalf("under the threshold (%d): %d tools offered", i, len(all))
		}
	}
}

func TestDelegateNamesStayDistinct(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	var saved []string
	reg := testServer(t, nil)
	addServer(t, reg, "my.notes", 0, &saved)
	addServer(t, reg, "my notes", 0, &saved)
	f.eng.SetTools(reg)
	f.llm.Enqueue(providertest.Reply{Text: "ok"})
	if _, err := f.send(t.Context(), "hi", func(tn *chat.Turn) { tn.Delegate = true }); err != nil {
		t.Fatal(err)
	}
	names, _ := offered(t, f.llm.Requests()[0])
	slices.Sort(names)
	if strings.Join(names, ",") != "ask_files,ask_my_notes,ask_my_notes_2" {
		t.Fatalf("delegate tools %v", names)
	}
}

func TestDelegatedStepKeepsAFailedResult(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	f.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("a1", "ask_files", `{"query":"try it"}`)}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("s1", "files__fail", `{}`)}},
		providertest.Reply{Text: "It failed."},
		providertest.Reply{Text: "The tool failed."},
	)
	if _, err := f.send(t.Context(), "try", func(tn *chat.Turn) { tn.Delegate = true }); err != nil {
		t.Fatal(err)
	}
	msgs, err := f.hist.Messages(t.Context(), f.chat.ID)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		StructuredContent struct {
			Steps []chat.Step `json:"steps"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(msgs[1].ToolCalls[0].Result, &r); err != nil {
		t.Fatal(err)
	}
	if s := r.StructuredContent.Steps; len(s) != 1 || !s[0].IsError || s[0].Result != "disk on fire" || s[0].Server != "files" {
		t.Fatalf("steps %+v", s)
	}
}

// storedDelegation is the ask_<server> call the chat stored, its result's
// text and its structured delegation.
func storedDelegation(t *testing.T, f *fixture) (history.ToolCall, string, chat.Delegation) {
	t.Helper()
	msgs, err := f.hist.Messages(t.Context(), f.chat.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			if !strings.HasPrefix(c.Tool, "ask_") {
				continue
			}
			var r struct {
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
				StructuredContent chat.Delegation `json:"structuredContent"`
			}
			if err := json.Unmarshal(c.Result, &r); err != nil {
				t.Fatal(err)
			}
			if len(r.Content) != 1 {
				t.Fatalf("result content %+v", r.Content)
			}
			return c, r.Content[0].Text, r.StructuredContent
		}
	}
	t.Fatal("no ask_ call stored")
	return history.ToolCall{}, "", chat.Delegation{}
}

// A delegation that ends early keeps the specialist's calls so far: Stop
// while one runs, or the specialist's model failing after one ran. The
// parent model is told which calls ran, so it does not do them again.
func TestDelegationEndedEarlyKeepsItsSteps(t *testing.T) {
	for _, tt := range []struct {
		name       string
		stop       bool // Stop while files__slow runs; else the model fails after files__echo
		status     string
		text       []string
		stepStatus []string
	}{
		{name: "stop", stop: true, status: chat.CallCancelled,
			text:       []string{"The user stopped the chat", "made 2 tool calls", `files__echo {"text":"SIDE"}: done`, "files__slow {}: cancelled"},
			stepStatus: []string{chat.CallDone, chat.CallCancelled}},
		{name: "model error", status: chat.CallError,
			text:       []string{"the files specialist's model request failed", "made 1 tool call:", `files__echo {"text":"SIDE"}: done`, "check its effect"},
			stepStatus: []string{chat.CallDone}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			started := make(chan struct{}, 1)
			f := newFixture(t, provider.KindOpenAI, started)
			sub := []providertest.ToolCall{call("s1", "files__echo", `{"text":"SIDE"}`)}
			if tt.stop {
				sub = append(sub, call("s2", "files__slow", `{}`))
			}
			f.llm.Enqueue(
				providertest.Reply{ToolCalls: []providertest.ToolCall{call("a1", "ask_files", `{"query":"echo SIDE"}`)}},
				providertest.Reply{ToolCalls: sub},
				providertest.Reply{Status: 400, Error: "bad request from provider"}, // the specialist's next step
				providertest.Reply{Text: "The specialist failed."},                  // the parent goes on after an error
			)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			if tt.stop {
				go func() { <-started; cancel() }()
			}
			_, _ = f.send(ctx, "echo SIDE", func(tn *chat.Turn) { tn.Delegate = true })

			c, text, d := storedDelegation(t, f)
			if c.Status != tt.status || !c.IsError {
				t.Fatalf("ask_files stored %s (error %v), want %s", c.Status, c.IsError, tt.status)
			}
			for _, want := range tt.text {
				if !strings.Contains(text, want) {
					t.Errorf("result text lacks %q:\n%s", want, text)
				}
			}
			var got []string
			for _, s := range d.Steps {
				got = append(got, s.Status)
			}
			if !slices.Equal(got, tt.stepStatus) || d.Steps[0].Result != "echo: SIDE" || d.Server != "files" || d.Error == "" {
				t.Fatalf("stored delegation %+v", d)
			}
			if !tt.stop {
				// The parent model read the same text.
				reqs := f.llm.Requests()
				if last := string(reqs[len(reqs)-1]); !strings.Contains(last, `files__echo {\"text\":\"SIDE\"}: done`) {
					t.Fatalf("the parent model was not told what ran: %s", last)
				}
			}
		})
	}
}

// A specialist gets the agent's prompt, marked as the assistant's
// instructions from the user: it does the work those instructions are
// about.
func TestSpecialistGetsTheAgentsInstructions(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	f.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("a1", "ask_files", `{"query":"echo hi"}`)}},
		providertest.Reply{Text: "done"},
		providertest.Reply{Text: "ok"},
	)
	if _, err := f.send(t.Context(), "hi", func(tn *chat.Turn) { tn.Delegate, tn.System = true, "Never write outside /tmp. Answer in French." }); err != nil {
		t.Fatal(err)
	}
	_, system := offered(t, f.llm.Requests()[1])
	if !strings.Contains(system, "<instructions>\nNever write outside /tmp. Answer in French.\n</instructions>") || !strings.Contains(system, `"files"`) {
		t.Fatalf("specialist's system prompt: %s", system)
	}
}

// approverWaiting answers after a while, as a person does.
type approverWaiting struct{ wait time.Duration }

func (a approverWaiting) Approve(ctx context.Context, _ chat.ApprovalRequest) (chat.Decision, error) {
	select {
	case <-time.After(a.wait): // the user's time to answer, not a synchronisation
		return chat.ApproveOnce, nil
	case <-ctx.Done():
		return chat.Deny, ctx.Err()
	}
}

// An ask_<server> call's duration is the specialist's work: the time its
// calls waited for the user's approval is left out.
func TestDelegationDurationLeavesOutApprovals(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	const wait = 700 * time.Millisecond
	f.eng = chat.New(chat.Options{Tools: testServer(t, nil), History: f.hist, Approver: approverWaiting{wait}})
	f.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("a1", "ask_files", `{"query":"write x"}`)}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("s1", "files__write", `{"path":"x"}`)}}, // destructive: asks
		providertest.Reply{Text: "wrote x"},
		providertest.Reply{Text: "done"},
	)
	start := time.Now()
	if _, err := f.send(t.Context(), "write x", func(tn *chat.Turn) { tn.Delegate = true }); err != nil {
		t.Fatal(err)
	}
	if time.Since(start) < wait {
		t.Fatal("the approval was not asked")
	}
	c, _, _ := storedDelegation(t, f)
	if c.DurationMs >= wait.Milliseconds() {
		t.Fatalf("ask_files took %d ms, counting the %v the approval waited", c.DurationMs, wait)
	}
}

// A specialist's call that needs the user's approval says whose it is: the
// card names the specialist's server, not the model the user talks to.
func TestASpecialistsApprovalNamesTheSpecialist(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	f.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("a1", "ask_files", `{"query":"write x"}`)}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("s1", "files__write", `{"path":"x"}`)}}, // destructive: asks
		providertest.Reply{Text: "wrote x"},
		providertest.Reply{Text: "done"},
	)
	if _, err := f.send(t.Context(), "write x", func(tn *chat.Turn) { tn.Delegate = true }); err != nil {
		t.Fatal(err)
	}
	asked := f.appr.asked()
	if len(asked) != 1 || asked[0].Tool != "files__write" || asked[0].Specialist != "files" || asked[0].Parent != "a1" || asked[0].Script != "" {
		t.Fatalf("approvals %+v", asked)
	}
}
