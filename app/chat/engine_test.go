package chat_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// source serves an in-process MCP server to the router.
type source struct {
	name string
	cl   *client.Client
}

func (s *source) Name() string                   { return s.name }
func (s *source) Client() (router.Client, error) { return s.cl, nil }
func (s *source) CallTimeout() time.Duration     { return 0 }

// testServer has tools: echo (read-only), write (destructive), slow (blocks
// until cancelled), big (a large result) and fail (an isError result).
func testServer(t *testing.T, slowStarted chan<- struct{}) *router.Router {
	t.Helper()
	s := server.NewMCPServer("files", "1.0.0")
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("echo text"), mcp.WithString("text"), mcp.WithReadOnlyHintAnnotation(true)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("echo: " + req.GetString("text", "")), nil
		})
	s.AddTool(mcp.NewTool("write", mcp.WithDescription("write a file"), mcp.WithString("path"), mcp.WithDestructiveHintAnnotation(true)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("wrote " + req.GetString("path", "")), nil
		})
	s.AddTool(mcp.NewTool("slow", mcp.WithReadOnlyHintAnnotation(true)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if slowStarted != nil {
				slowStarted <- struct{}{}
			}
			<-ctx.Done()
			return nil, ctx.Err()
		})
	s.AddTool(mcp.NewTool("big", mcp.WithReadOnlyHintAnnotation(true)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(strings.Repeat("line of output\n", 10_000)), nil
		})
	s.AddTool(mcp.NewTool("fail", mcp.WithReadOnlyHintAnnotation(true)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultError("disk on fire"), nil
		})
	reg := router.New(router.Options{})
	addInProcess(t, reg, "files", s)
	return reg
}

// addInProcess connects s to reg as the server called name.
func addInProcess(t *testing.T, reg *router.Router, name string, s *server.MCPServer) {
	t.Helper()
	reg.Add(&source{name: name, cl: mcptest.Connect(t, s)})
}

// approver answers approvals from a script and records them.
type approver struct {
	mu       sync.Mutex
	answer   chat.Decision
	requests []chat.ApprovalRequest
}

func (a *approver) Approve(_ context.Context, req chat.ApprovalRequest) (chat.Decision, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.requests = append(a.requests, req)
	return a.answer, nil
}

func (a *approver) asked() []chat.ApprovalRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]chat.ApprovalRequest(nil), a.requests...)
}

type fixture struct {
	eng  *chat.Engine
	hist *history.Store
	llm  *providertest.Server
	p    provider.Provider
	chat history.Chat
	appr *approver
	mu   sync.Mutex
	evs  []chat.Event
}

func newFixture(t *testing.T, kind provider.Kind, slowStarted chan<- struct{}) *fixture {
	t.Helper()
	f := &fixture{appr: &approver{answer: chat.ApproveOnce}}
	var err error
	f.hist, err = history.Open(t.Context(), filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.hist.Close() })
	f.llm = providertest.NewServer(t)
	f.p, err = provider.New(provider.Config{Kind: kind, Name: "fake", BaseURL: f.llm.URL(kind), APIKey: "sk-test"})
	if err != nil {
		t.Fatal(err)
	}
	f.eng = chat.New(chat.Options{Tools: testServer(t, slowStarted), History: f.hist, Approver: f.appr})
	f.chat, err = f.hist.CreateChat(t.Context(), history.Chat{Title: "t"})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) send(ctx context.Context, text string, mod ...func(*chat.Turn)) (chat.Result, error) {
	turn := chat.Turn{ChatID: f.chat.ID, Provider: f.p, Model: "m1", Text: text, OnEvent: func(ev chat.Event) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.evs = append(f.evs, ev)
	}}
	for _, m := range mod {
		m(&turn)
	}
	return f.eng.Send(ctx, turn)
}

func (f *fixture) events(typ chat.EventType) []chat.Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []chat.Event
	for _, e := range f.evs {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

func call(id, name, args string) providertest.ToolCall {
	return providertest.ToolCall{ID: id, Name: name, Arguments: args}
}

func TestTextAnswerStreamsAndIsStored(t *testing.T) {
	for _, kind := range []provider.Kind{provider.KindOpenAI, provider.KindAnthropic} {
		t.Run(string(kind), func(t *testing.T) {
			f := newFixture(t, kind, nil)
			f.llm.Enqueue(providertest.Reply{Text: "Hello there, how can I help?"})
			res, err := f.send(t.Context(), "hi")
			if err != nil {
				t.Fatal(err)
			}
			if res.Message.Text != "Hello there, how can I help?" || res.Message.Status != "complete" {
				t.Fatalf("result %+v", res.Message)
			}
			var streamed strings.Builder
			deltas := f.events(chat.EventText)
			for _, e := range deltas {
				streamed.WriteString(e.Text)
			}
			if len(deltas) < 2 || streamed.String() != res.Message.Text {
				t.Fatalf("%d deltas, %q", len(deltas), streamed.String())
			}
			msgs, err := f.hist.Messages(t.Context(), f.chat.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(msgs) != 2 || msgs[0].Role != "user" || msgs[0].Text != "hi" || msgs[1].Text != res.Message.Text || msgs[1].Status != "complete" {
				t.Fatalf("stored %+v", msgs)
			}
			if len(f.events(chat.EventDone)) != 1 {
				t.Fatal("no done event")
			}
			f.mu.Lock()
			for i, ev := range f.evs {
				if ev.Seq != int64(i+1) {
					t.Errorf("event %d (%s) has seq %d", i, ev.Type, ev.Seq)
				}
			}
			f.mu.Unlock()
		})
	}
}

func TestToolLoopRunsParallelCallsAndFeedsResultsBack(t *testing.T) {
	for _, kind := range []provider.Kind{provider.KindOpenAI, provider.KindAnthropic} {
		t.Run(string(kind), func(t *testing.T) {
			f := newFixture(t, kind, nil)
			f.llm.Enqueue(
				providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", "files__echo", `{"text":"one"}`), call("c2", "files__echo", `{"text":"two"}`)}},
				providertest.Reply{Text: "Both echoed."},
			)
			res, err := f.send(t.Context(), "echo one and two")
			if err != nil {
				t.Fatal(err)
			}
			if res.Steps != 2 || res.Message.Text != "Both echoed." {
				t.Fatalf("steps %d, text %q", res.Steps, res.Message.Text)
			}
			// The second request carries both results, in order.
			reqs := f.llm.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests", len(reqs))
			}
			body := string(reqs[1])
			if !strings.Contains(body, "echo: one") || !strings.Contains(body, "echo: two") || strings.Index(body, "echo: one") > strings.Index(body, "echo: two") {
				t.Fatalf("second request lacks the results in order: %s", body)
			}
			// Read-only tools are not asked about.
			if n := len(f.appr.asked()); n != 0 {
				t.Fatalf("asked %d approvals for read-only tools", n)
			}
			msgs, _ := f.hist.Messages(t.Context(), f.chat.ID)
			if len(msgs) != 3 || len(msgs[1].ToolCalls) != 2 {
				t.Fatalf("stored %d messages, calls %+v", len(msgs), msgs)
			}
			for _, c := range msgs[1].ToolCalls {
				if c.Status != chat.CallDone || c.Server != "files" || !strings.Contains(string(c.Result), "echo: ") {
					t.Fatalf("stored call %+v", c)
				}
			}
		})
	}
}

func TestApprovals(t *testing.T) {
	tests := []struct {
		name      string
		answer    chat.Decision
		policies  chat.Policies
		wantAsked int
		wantState string
		wantSaid  string // in the tool message the model gets
	}{
		{"deny", chat.Deny, nil, 2, chat.CallDenied, "denied"},
		{"once", chat.ApproveOnce, nil, 2, chat.CallDone, "wrote a.txt"},
		{"always asks once", chat.ApproveAlways, nil, 1, chat.CallDone, "wrote b.txt"},
		{"policy allow", chat.Deny, chat.Policies{"files__write": chat.PolicyAllow}, 0, chat.CallDone, "wrote a.txt"},
		{"server wildcard deny hides the tool", chat.ApproveOnce, chat.Policies{"files__*": chat.PolicyDeny}, 0, chat.CallError, "no tool named"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, provider.KindOpenAI, nil)
			f.appr.answer = tt.answer
			f.llm.Enqueue(
				providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", "files__write", `{"path":"a.txt"}`)}},
				providertest.Reply{ToolCalls: []providertest.ToolCall{call("c2", "files__write", `{"path":"b.txt"}`)}},
				providertest.Reply{Text: "ok"},
			)
			if _, err := f.send(t.Context(), "write", func(tu *chat.Turn) { tu.Policies = tt.policies }); err != nil {
				t.Fatal(err)
			}
			asked := f.appr.asked()
			if len(asked) != tt.wantAsked {
				t.Fatalf("asked %d times, want %d", len(asked), tt.wantAsked)
			}
			if len(asked) > 0 && (string(asked[0].Arguments) != `{"path":"a.txt"}` || !asked[0].Destructive || asked[0].Tool != "files__write") {
				t.Fatalf("approval request %+v", asked[0])
			}
			msgs, _ := f.hist.Messages(t.Context(), f.chat.ID)
			last := msgs[len(msgs)-2].ToolCalls[0]
			if last.Status != tt.wantState {
				t.Fatalf("call state %q, want %q", last.Status, tt.wantState)
			}
			reqs := f.llm.Requests()
			if !strings.Contains(string(reqs[len(reqs)-1]), tt.wantSaid) {
				t.Fatalf("model was not told %q: %s", tt.wantSaid, reqs[len(reqs)-1])
			}
		})
	}
}

func TestStepLimitStopsAndSaysSo(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	for i := range 3 {
		f.llm.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{call("c"+string(rune('a'+i)), "files__echo", `{"text":"x"}`)}})
	}
	res, err := f.send(t.Context(), "loop", func(tu *chat.Turn) { tu.MaxSteps = 2 })
	if err != nil {
		t.Fatal(err)
	}
	if !res.StepLimit || res.Steps != 2 || len(f.llm.Requests()) != 2 {
		t.Fatalf("result %+v, %d requests", res, len(f.llm.Requests()))
	}
	ev := f.events(chat.EventStepLimit)
	if len(ev) != 1 || !strings.Contains(ev[0].Error, "Stopped after 2") {
		t.Fatalf("step limit events %+v", ev)
	}
	msgs, _ := f.hist.Messages(t.Context(), f.chat.ID)
	if !strings.Contains(msgs[len(msgs)-1].Error, "limit") {
		t.Fatalf("the note is not stored: %+v", msgs[len(msgs)-1])
	}
}

func TestStopCancelsToolCallsAndKeepsHistory(t *testing.T) {
	started := make(chan struct{}, 1)
	f := newFixture(t, provider.KindAnthropic, started)
	f.llm.Enqueue(providertest.Reply{Text: "Let me wait.", ToolCalls: []providertest.ToolCall{call("c1", "files__slow", `{}`)}})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := f.send(ctx, "wait")
		done <- err
	}()
	<-started
	cancel()
	if err := <-done; err == nil {
		t.Fatal("Send returned no error after Stop")
	}
	msgs, _ := f.hist.Messages(t.Context(), f.chat.ID)
	if len(msgs) != 2 || msgs[1].Text != "Let me wait." || msgs[1].ToolCalls[0].Status != chat.CallCancelled {
		t.Fatalf("stored %+v", msgs)
	}
	if f.eng.Running(f.chat.ID) {
		t.Fatal("chat still marked running")
	}
}

func TestLargeResultIsTruncatedForTheModel(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	f.llm.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", "files__big", `{}`)}}, providertest.Reply{Text: "ok"})
	if _, err := f.send(t.Context(), "big", func(tu *chat.Turn) { tu.ResultBudget = 1000 }); err != nil {
		t.Fatal(err)
	}
	body := string(f.llm.Requests()[1])
	if !strings.Contains(body, "[truncated: showing") || strings.Count(body, "line of output") > 100 {
		t.Fatalf("result not truncated: %d bytes", len(body))
	}
	// The full result stays in history.
	msgs, _ := f.hist.Messages(t.Context(), f.chat.ID)
	if n := strings.Count(string(msgs[1].ToolCalls[0].Result), "line of output"); n != 10_000 {
		t.Fatalf("history holds %d lines", n)
	}
}

func TestToolErrorsGoBackToTheModel(t *testing.T) {
	f := newFixture(t, provider.KindAnthropic, nil)
	f.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", "files__fail", `{}`), call("c2", "files__nope", `{}`), call("c3", "files__echo", `not json`)}},
		providertest.Reply{Text: "sorry"},
	)
	if _, err := f.send(t.Context(), "try"); err != nil {
		t.Fatal(err)
	}
	body := string(f.llm.Requests()[1])
	for _, want := range []string{"disk on fire", `no tool named \"files__nope\"`, "not a JSON object"} {
		if !strings.Contains(body, want) {
			t.Errorf("model not told %q: %s", want, body)
		}
	}
}

func TestDroppedStreamKeepsWhatArrived(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	f.llm.Enqueue(providertest.Reply{Text: "The first part of a long answer that will be cut", DropAfter: 3})
	_, err := f.send(t.Context(), "long")
	if err == nil {
		t.Fatal("no error for a dropped stream")
	}
	msgs, _ := f.hist.Messages(t.Context(), f.chat.ID)
	m := msgs[1]
	if m.Status != "incomplete" || m.Text == "" || !strings.HasPrefix("The first part of a long answer that will be cut", m.Text) {
		t.Fatalf("stored %+v", m)
	}
	end := f.events(chat.EventMessageEnd)
	if len(end) != 1 || end[0].Status != "incomplete" {
		t.Fatalf("end events %+v", end)
	}
}

func TestBusyChatRefusesASecondTurn(t *testing.T) {
	started := make(chan struct{}, 1)
	f := newFixture(t, provider.KindOpenAI, started)
	f.llm.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", "files__slow", `{}`)}})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = f.send(ctx, "first")
	}()
	<-started
	if _, err := f.send(t.Context(), "second"); err != chat.ErrBusy {
		t.Fatalf("second turn: %v", err)
	}
	cancel()
	<-done
}

// TestContextReachesTheNextStep: what Turn.Context says (an MCP App's model
// context) reaches each step as it is at that step — a context set while a
// tool ran is in the very next request — in the user's turn before what the
// user wrote, never in the system prompt.
func TestContextReachesTheNextStep(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	f.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", "files__echo", `{"text":"one"}`)}},
		providertest.Reply{Text: "Done."},
	)
	var mu sync.Mutex
	context := "the app shows nothing yet"
	_, err := f.send(t.Context(), "go", func(turn *chat.Turn) {
		turn.System = "Be brief."
		turn.Context = func() string {
			mu.Lock()
			defer mu.Unlock()
			now := context
			context = "the user picked Lisbon in the app" // as if the app said so during the step
			return now
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, want := range []string{"the app shows nothing yet", "the user picked Lisbon in the app"} {
		var body struct {
			Messages []struct {
				Role    string `json:"role"`
				Content any    `json:"content"`
			} `json:"messages"`
		}
		mustJSON(t, reqs[i], &body)
		var got []string
		for _, m := range body.Messages {
			text, _ := m.Content.(string)
			got = append(got, m.Role+": "+text)
		}
		if len(got) < 2 || got[0] != "system: Be brief." || got[1] != "user: "+want+"\n\ngo" {
			t.Errorf("request %d: messages %q; want the system prompt alone, then %q before the user's text", i+1, got, want)
		}
	}
	if msgs, _ := f.hist.Messages(t.Context(), f.chat.ID); len(msgs) != 3 || strings.Contains(msgs[0].Text, "app") {
		t.Errorf("the context was stored: %+v", msgs)
	}
}

// A step's call results are stored with the next step's message (one
// durable write), or when the turn ends after calls: whichever way the
// turn ends, none is lost.
func TestToolResultsAreStoredHoweverTheTurnEnds(t *testing.T) {
	echoes := providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", "files__echo", `{"text":"one"}`), call("c2", "files__echo", `{"text":"two"}`)}}
	cases := []struct {
		name    string
		replies []providertest.Reply
		turn    func(*chat.Turn, context.CancelFunc)
		wantErr bool
		want    string // the status of the turn's last message
	}{
		{name: "the next step carries them", replies: []providertest.Reply{echoes, {Text: "Both echoed."}}, want: history.StatusComplete},
		{name: "the step limit", replies: []providertest.Reply{echoes}, turn: func(tu *chat.Turn, _ context.CancelFunc) { tu.MaxSteps = 1 }, want: history.StatusComplete},
		{
			// Stopped while the model answers the results: the message that
			// carried them is stored (cancelled), and so are they.
			name:    "stopped during the next request",
			replies: []providertest.Reply{echoes, {Text: "Both echoed, and more and more.", ChunkSize: 4, Delay: time.Second}},
			turn: func(tu *chat.Turn, cancel context.CancelFunc) {
				on := tu.OnEvent
				tu.OnEvent = func(ev chat.Event) {
					on(ev)
					if ev.Type == chat.EventText {
						cancel()
					}
				}
			},
			wantErr: true, want: "cancelled",
		},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, provider.KindOpenAI, nil)
			f.llm.Enqueue(tt.replies...)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			_, err := f.send(ctx, "echo both", func(tu *chat.Turn) {
				if tt.turn != nil {
					tt.turn(tu, cancel)
				}
			})
			if (err != nil) != tt.wantErr {
				t.Fatalf("Send = %v, want an error: %v", err, tt.wantErr)
			}
			msgs, err := f.hist.Messages(t.Context(), f.chat.ID)
			if err != nil {
				t.Fatal(err)
			}
			calls := msgs[1].ToolCalls
			if len(calls) != 2 {
				t.Fatalf("stored calls %+v", calls)
			}
			for i, want := range []string{"echo: one", "echo: two"} {
				if calls[i].Status != chat.CallDone || !strings.Contains(string(calls[i].Result), want) {
					t.Errorf("call %d stored as %s %s, want done with %q", i, calls[i].Status, calls[i].Result, want)
				}
			}
			if last := msgs[len(msgs)-1]; last.Status != tt.want {
				t.Errorf("last message %s, want %s", last.Status, tt.want)
			}
		})
	}
}
