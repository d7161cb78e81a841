package chat_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
)

// What a request sends again of the stored chat: the calls' ids, the
// answers' texts, the results of calls the app stopped in.

// sent is what a request body (OpenAI's or Anthropic's wire) holds of the
// conversation: its tool calls' ids, its results' ids, in order, and the
// text of each message (or content block).
type sent struct {
	calls, results []string
	texts          []string // role: text
}

func sentOf(t *testing.T, body []byte) sent {
	t.Helper()
	var req struct {
		Messages []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
			ToolCalls  []struct {
				ID string `json:"id"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("request %s: %v", body, err)
	}
	var s sent
	for _, m := range req.Messages {
		for _, c := range m.ToolCalls {
			s.calls = append(s.calls, c.ID)
		}
		if m.Role == "tool" {
			s.results = append(s.results, m.ToolCallID)
		}
		var text string
		if json.Unmarshal(m.Content, &text) == nil {
			s.texts = append(s.texts, m.Role+": "+text)
			continue
		}
		var blocks []struct {
			Type, Text, ID string
			ToolUseID      string          `json:"tool_use_id"`
			Content        json.RawMessage `json:"content"`
		}
		_ = json.Unmarshal(m.Content, &blocks)
		if len(blocks) == 0 && m.Content != nil && string(m.Content) != "null" {
			s.texts = append(s.texts, m.Role+": (no content)")
		}
		for _, b := range blocks {
			switch b.Type {
			case "text":
				s.texts = append(s.texts, m.Role+": "+b.Text)
			case "tool_use":
				s.calls = append(s.calls, b.ID)
			case "tool_result":
				s.results = append(s.results, b.ToolUseID)
				s.texts = append(s.texts, "result: "+string(b.Content))
			}
		}
	}
	return s
}

// check fails when s repeats a call id or has a result of no call: the
// APIs refuse such requests.
func (s sent) check(t *testing.T, what string) {
	t.Helper()
	seen := map[string]bool{}
	for _, id := range s.calls {
		if seen[id] {
			t.Fatalf("%s: the call id %q is sent twice: calls %q", what, id, s.calls)
		}
		seen[id] = true
	}
	for _, id := range s.results {
		if !seen[id] {
			t.Fatalf("%s: a result for %q, which no call has: calls %q, results %q", what, id, s.calls, s.results)
		}
	}
	if len(s.results) != len(s.calls) {
		t.Fatalf("%s: %d calls, %d results: %q, %q", what, len(s.calls), len(s.results), s.calls, s.results)
	}
}

// TestRepeatedCallIDsInOneStep: a model gives two calls of one step the
// same id. Both run, both are stored with their results under ids of their
// own (the first keeps the model's), and the next request holds two calls
// and two results that match.
func TestRepeatedCallIDsInOneStep(t *testing.T) {
	for _, kind := range []provider.Kind{provider.KindOpenAI, provider.KindAnthropic} {
		t.Run(string(kind), func(t *testing.T) {
			f := newFixture(t, kind, nil)
			f.llm.Enqueue(
				providertest.Reply{ToolCalls: []providertest.ToolCall{call("dup1", "files__echo", `{"text":"a"}`), call("dup1", "files__echo", `{"text":"b"}`)}},
				providertest.Reply{Text: "both echoed"},
			)
			res, err := f.send(t.Context(), "echo a and b")
			if err != nil || res.Message.Text != "both echoed" {
				t.Fatalf("%v %+v", err, res.Message)
			}
			msgs, err := f.hist.Messages(t.Context(), f.chat.ID)
			if err != nil {
				t.Fatal(err)
			}
			calls := msgs[1].ToolCalls
			if len(calls) != 2 || calls[0].ID != "dup1" || calls[1].ID == "dup1" {
				t.Fatalf("stored calls %+v, want two, the first dup1 and the second another id", calls)
			}
			for _, c := range calls {
				if c.Status != chat.CallDone || !strings.Contains(string(c.Result), "echo: ") {
					t.Fatalf("call %s stored as %s with %s", c.ID, c.Status, c.Result)
				}
			}
			s := sentOf(t, f.llm.Requests()[1])
			s.check(t, "the step after")
			if len(s.calls) != 2 {
				t.Fatalf("the step after sends %d calls, want 2", len(s.calls))
			}
		})
	}
}

// TestCallIDsReusedAcrossSteps: a model on a local OpenAI-compatible
// server gives "call_0" to the call of every step; the chat continued on
// Anthropic sends every tool_use under an id of its own, each result
// after its own call.
func TestCallIDsReusedAcrossSteps(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	f.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("call_0", "files__echo", `{"text":"one"}`)}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("call_0", "files__echo", `{"text":"two"}`)}},
		providertest.Reply{Text: "done"},
	)
	if _, err := f.send(t.Context(), "echo twice"); err != nil {
		t.Fatal(err)
	}
	anth, err := provider.New(provider.Config{Kind: provider.KindAnthropic, Name: "claude", BaseURL: f.llm.URL(provider.KindAnthropic), APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	// A fresh engine reads the chat from the history, as another run would.
	f.eng = chat.New(chat.Options{Tools: testServer(t, nil), History: f.hist, Approver: f.appr})
	f.llm.Enqueue(providertest.Reply{Text: "on Claude now"})
	if res, err := f.send(t.Context(), "and now?", func(tu *chat.Turn) { tu.Provider = anth }); err != nil || res.Message.Text != "on Claude now" {
		t.Fatalf("%v %+v", err, res.Message)
	}
	s := sentOf(t, f.llm.Requests()[len(f.llm.Requests())-1])
	s.check(t, "the Anthropic request")
	if len(s.calls) != 2 || s.calls[0] != "call_0" {
		t.Fatalf("calls %q, want call_0 and another", s.calls)
	}
	// Each result goes with its own call: "one" after the first, "two" after the second.
	var order []string
	for _, x := range s.texts {
		if strings.HasPrefix(x, "result: ") {
			order = append(order, x)
		}
	}
	if len(order) != 2 || !strings.Contains(order[0], "echo: one") || !strings.Contains(order[1], "echo: two") {
		t.Fatalf("results %q", order)
	}
}

// TestWhitespaceAnswersAreNotSentBack: a model's answer of whitespace only
// ("   \n  "), alone or beside a tool call, is stored as it came, and the
// next requests carry no text of whitespace (Anthropic refuses a request
// with one, so every later turn of the chat failed) and no empty message.
func TestWhitespaceAnswersAreNotSentBack(t *testing.T) {
	blank := "   \n  "
	for _, tc := range []struct {
		name    string
		replies []providertest.Reply
	}{
		{"alone", []providertest.Reply{{Text: blank}}},
		{"beside a call", []providertest.Reply{{Text: blank, ToolCalls: []providertest.ToolCall{call("c1", "files__echo", `{"text":"x"}`)}}, {Text: blank}}},
	} {
		for _, kind := range []provider.Kind{provider.KindOpenAI, provider.KindAnthropic} {
			t.Run(tc.name+"/"+string(kind), func(t *testing.T) {
				f := newFixture(t, kind, nil)
				f.llm.Enqueue(tc.replies...)
				if _, err := f.send(t.Context(), "say nothing"); err != nil {
					t.Fatal(err)
				}
				f.llm.Enqueue(providertest.Reply{Text: "now something"})
				if res, err := f.send(t.Context(), "and now?"); err != nil || res.Message.Text != "now something" {
					t.Fatalf("%v %+v", err, res.Message)
				}
				msgs, _ := f.hist.Messages(t.Context(), f.chat.ID)
				if msgs[1].Text != blank {
					t.Fatalf("the answer is stored as %q, want it as it came", msgs[1].Text)
				}
				for i, body := range f.llm.Requests()[len(tc.replies):] {
					s := sentOf(t, body)
					s.check(t, "request")
					for _, x := range s.texts {
						if _, text, _ := strings.Cut(x, ": "); strings.TrimSpace(text) == "" {
							t.Fatalf("request %d sends %q: %q", i, x, s.texts)
						}
					}
				}
			})
		}
	}
}

// TestACallTheAppStoppedInMayHaveRun: a call stored without its result
// (the app was killed before the step's results were written, as a kill
// -9 leaves it) is told to the model as possibly done, to check before
// calling it again: not as not done, which invites the model to repeat a
// side effect.
func TestACallTheAppStoppedInMayHaveRun(t *testing.T) {
	for _, status := range []string{chat.CallPending, chat.CallRunning} {
		for _, kind := range []provider.Kind{provider.KindOpenAI, provider.KindAnthropic} {
			t.Run(status+"/"+string(kind), func(t *testing.T) {
				f := newFixture(t, kind, nil)
				ctx := t.Context()
				if _, err := f.hist.AppendMessage(ctx, history.Message{ChatID: f.chat.ID, Role: history.RoleUser, Text: "write a.txt"}); err != nil {
					t.Fatal(err)
				}
				m, err := f.hist.AppendMessage(ctx, history.Message{ChatID: f.chat.ID, Role: history.RoleAssistant, Status: history.StatusComplete})
				if err != nil {
					t.Fatal(err)
				}
				if err := f.hist.SaveToolCalls(ctx, []history.ToolCall{{ID: "w1", MessageID: m.ID, Server: "files", Tool: "files__write", Arguments: json.RawMessage(`{"path":"a.txt"}`), Status: status}}); err != nil {
					t.Fatal(err)
				}
				f.llm.Enqueue(providertest.Reply{Text: "checking"})
				if _, err := f.send(ctx, "did it work?"); err != nil {
					t.Fatal(err)
				}
				body := string(f.llm.Requests()[0])
				for _, want := range []string{"may have run and taken effect", "check before calling it again"} {
					if !strings.Contains(body, want) {
						t.Fatalf("the model is not told %q:\n%s", want, body)
					}
				}
				if s := sentOf(t, f.llm.Requests()[0]); !slices.Equal(s.results, []string{"w1"}) {
					t.Fatalf("results %q", s.results)
				}
			})
		}
	}
}
