package chat_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
)

// TestContextLengthErrorCompactsAndRetries: a model whose window the app
// does not know refuses a request as too long; the chat is summarised and
// the step asked again, once, and the answer arrives. The refused attempt
// is neither stored nor shown: the turn has one answer, no error.
func TestContextLengthErrorCompactsAndRetries(t *testing.T) {
	for _, kind := range []provider.Kind{provider.KindOpenAI, provider.KindAnthropic, provider.KindOllama} {
		t.Run(string(kind), func(t *testing.T) {
			f := newFixture(t, kind, nil)
			f.llm.SetModelList([]providertest.Model{{ID: "m1", ContextWindow: 3000}})
			f.llm.Enqueue(providertest.Reply{When: "Write the summary now.", Text: "Notes: earlier the user chatted at length."})
			long := strings.Repeat("words to fill the window ", 100) // ~650 tokens a turn
			for i := range 4 {
				f.llm.Enqueue(providertest.Reply{Text: "ok"})
				if res, err := f.send(t.Context(), fmt.Sprintf("%d %s", i, long)); err != nil || res.Message.Status != history.StatusComplete {
					t.Fatalf("turn %d: %v %s", i, err, res.Message.Error)
				}
			}
			f.llm.Enqueue(providertest.Reply{Text: "fits again"})
			res, err := f.send(t.Context(), "one more "+long)
			if err != nil || res.Message.Text != "fits again" {
				t.Fatalf("after the refusal: %v %q %s", err, res.Message.Text, res.Message.Error)
			}
			msgs, _ := f.hist.Messages(t.Context(), f.chat.ID)
			var refused, summaries int
			var answers []string // to the last message
			for _, m := range msgs {
				if m.Status != history.StatusComplete || m.Error != "" {
					refused++
				}
				switch m.Role {
				case history.RoleSummary:
					summaries++
				case history.RoleUser:
					answers = nil
				case history.RoleAssistant:
					answers = append(answers, m.Text)
				}
			}
			if refused != 0 || summaries != 1 || len(answers) != 1 || answers[0] != "fits again" {
				t.Fatalf("%d refused answers, %d summaries, answers %q to the last message; want 0, 1 and one", refused, summaries, answers)
			}
			for _, ev := range f.events(chat.EventMessageEnd) {
				if ev.Error != "" {
					t.Fatalf("an answer ended with an error shown: %s", ev.Error)
				}
			}
			last := string(f.llm.Requests()[len(f.llm.Requests())-1])
			if !strings.Contains(last, "Notes: earlier the user chatted") || strings.Contains(last, "0 words to fill") {
				t.Fatalf("the retry did not read the summary instead of the old turns:\n%.800s", last)
			}
			// The next turn reads the chat on from the summary: it holds
			// the summary once, then the answer asked again.
			f.llm.Enqueue(providertest.Reply{Text: "and on"})
			if res, err := f.send(t.Context(), "short"); err != nil || res.Message.Text != "and on" {
				t.Fatalf("the turn after: %v %q %s", err, res.Message.Text, res.Message.Error)
			}
			next := string(f.llm.Requests()[len(f.llm.Requests())-1])
			if n := strings.Count(next, "Notes: earlier the user chatted"); n != 1 || !strings.Contains(next, "fits again") {
				t.Fatalf("the turn after holds the summary %d times, want once, and the answer:\n%.2000s", n, next)
			}
		})
	}
}

// TestCompactionBeforeANewMessage: with a known window, the summary is
// written before the message that would go past the limit is stored, so
// the message follows the summary and reaches the model whole; no request
// is refused.
func TestCompactionBeforeANewMessage(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	f.llm.SetModelList([]providertest.Model{{ID: "m1", ContextWindow: 3000}})
	f.llm.Enqueue(providertest.Reply{When: "Write the summary now.", Text: "Notes: the user sent long messages."})
	long := strings.Repeat("words to fill the window ", 100)
	set := func(tu *chat.Turn) { tu.ContextWindow = 3000 }
	for i := range 6 {
		f.llm.Enqueue(providertest.Reply{Text: "ok"})
		if res, err := f.send(t.Context(), fmt.Sprintf("%d %s", i, long), set); err != nil || res.Message.Status != history.StatusComplete {
			t.Fatalf("turn %d: %v %s", i, err, res.Message.Error)
		}
	}
	msgs, _ := f.hist.Messages(t.Context(), f.chat.ID)
	for i, m := range msgs {
		if m.Status == history.StatusError {
			t.Fatalf("message %d refused: %s", i, m.Error)
		}
		if m.Role == history.RoleSummary && (i+1 >= len(msgs) || msgs[i+1].Role != history.RoleUser) {
			t.Fatalf("the summary (message %d) is not followed by the user's message", i)
		}
	}
	meters := f.events(chat.EventContext)
	if len(meters) == 0 || !hasCompacting(meters) {
		t.Fatalf("no meter showing the compaction: %d meter events", len(meters))
	}
}

func hasCompacting(evs []chat.Event) bool {
	for _, e := range evs {
		if e.Context != nil && e.Context.Compacting {
			return true
		}
	}
	return false
}

// TestSummaryFailureKeepsTheChatGoing: when the model cannot write the
// summary, a plain list of what the user asked stands in and the turn is
// answered.
func TestSummaryFailureKeepsTheChatGoing(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	f.llm.SetModelList([]providertest.Model{{ID: "m1", ContextWindow: 3000}})
	f.llm.Enqueue(providertest.Reply{When: "Write the summary now.", Status: 500, Error: "summariser down"})
	long := strings.Repeat("words to fill the window ", 100)
	set := func(tu *chat.Turn) { tu.ContextWindow = 3000 }
	for i := range 6 {
		f.llm.Enqueue(providertest.Reply{Text: "ok"})
		if res, err := f.send(t.Context(), fmt.Sprintf("question %d %s", i, long), set); err != nil || res.Message.Status != history.StatusComplete {
			t.Fatalf("turn %d: %v %s", i, err, res.Message.Error)
		}
	}
	msgs, _ := f.hist.Messages(t.Context(), f.chat.ID)
	for _, m := range msgs {
		if m.Role == history.RoleSummary {
			if !strings.Contains(m.Text, "could not summarise") || !strings.Contains(m.Text, "- question 0") {
				t.Fatalf("summary %q", m.Text)
			}
			return
		}
	}
	t.Fatal("no summary")
}

// TestCompactionMidTurnKeepsTheTurn: a turn whose tool results take the
// chat past its limit (known: before the request; unknown: after the
// provider refused it) is compacted in the middle: the summary replaces
// the earlier turns only, and the next request still holds the user's
// question and the result the model just fetched, verbatim.
func TestCompactionMidTurnKeepsTheTurn(t *testing.T) {
	for _, tc := range []struct {
		name  string
		known bool
		size  int // an echo's repeats: its arguments and its result
		old   int // an earlier turn's repeats
	}{{"known window", true, 150, 40}, {"refused", false, 150, 100}} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, provider.KindOpenAI, nil)
			f.llm.SetModelList([]providertest.Model{{ID: "m1", ContextWindow: 3000}})
			f.llm.Enqueue(providertest.Reply{When: "Write the summary now.", Text: "Notes: earlier the user pasted long texts."})
			set := func(tu *chat.Turn) {
				if tc.known {
					tu.ContextWindow = 3000
				}
			}
			long := strings.Repeat("words to fill the window ", tc.old) // ~250 or ~625 tokens a turn
			for i := range 3 {
				f.llm.Enqueue(providertest.Reply{Text: "ok"})
				if res, err := f.send(t.Context(), fmt.Sprintf("old %d %s", i, long), set); err != nil || res.Message.Status != history.StatusComplete {
					t.Fatalf("turn %d: %v %s", i, err, res.Message.Error)
				}
			}
			echo := func(mark string) string {
				return fmt.Sprintf(`{"text":%q}`, mark+" "+strings.Repeat("result text ", tc.size)) // ~450 tokens, as arguments and as result
			}
			f.llm.Enqueue(
				providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", "files__echo", echo("FIRST-RESULT"))}},
				providertest.Reply{ToolCalls: []providertest.ToolCall{call("c2", "files__echo", echo("LATEST-RESULT"))}},
				providertest.Reply{Text: "answered"},
			)
			const question = "QUESTION: what do the two echoes say?"
			res, err := f.send(t.Context(), question, set)
			if err != nil || res.Message.Text != "answered" {
				t.Fatalf("the turn: %v %q %s", err, res.Message.Text, res.Message.Error)
			}
			reqs := f.llm.Requests()
			sum := -1
			for i, b := range reqs {
				if strings.Contains(string(b), "Write the summary now.") {
					sum = i
					if strings.Contains(string(b), "QUESTION:") || strings.Contains(string(b), "LATEST-RESULT") {
						t.Fatalf("the summary was asked to fold in the turn in progress:\n%.600s", b)
					}
				}
			}
			if sum < 0 || sum+1 >= len(reqs) {
				t.Fatalf("no compaction in the middle of the turn (%d requests)", len(reqs))
			}
			// The turn's latest result before the compaction.
			latest := ""
			for _, b := range reqs[:sum] {
				for _, m := range []string{"FIRST-RESULT", "LATEST-RESULT"} {
					if strings.Contains(string(b), "echo: "+m) {
						latest = "echo: " + m
					}
				}
			}
			after := string(reqs[sum+1])
			for _, want := range []string{question, latest, "Notes: earlier the user pasted"} {
				if !strings.Contains(after, want) {
					t.Fatalf("the request after the compaction lacks %q:\n%.1500s", want, after)
				}
			}
			if strings.Contains(after, "old 0 words") {
				t.Fatalf("the request after the compaction still holds the earlier turns")
			}
			// A run reading the chat afresh (another CLI run) sees the same.
			msgs, err := f.hist.Recent(t.Context(), f.chat.ID)
			if err != nil || len(msgs) == 0 || msgs[0].Role != history.RoleUser || msgs[0].Text != question {
				t.Fatalf("the chat's recent messages start %+v (%v); want the turn's question, kept after its summary", msgs[0], err)
			}
			refused := 0
			for i, b := range reqs {
				if len(b)/4 > 3000 {
					refused++
					if tc.known {
						t.Fatalf("request %d over the known window: %d tokens", i, len(b)/4)
					}
				}
			}
			if !tc.known && refused != 1 {
				t.Fatalf("%d requests refused; want the one that told the window", refused)
			}
		})
	}
}

// TestATurnTooBigAloneIsStubbedAndSaysSo: when the turn in progress
// alone is over the limit, its own earlier results reach the model as
// stubs (with their handles), the latest stays whole, and the meter says
// so.
func TestATurnTooBigAloneIsStubbedAndSaysSo(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	f.llm.SetModelList([]providertest.Model{{ID: "m1", ContextWindow: 3000}})
	set := func(tu *chat.Turn) { tu.ContextWindow = 3000 }
	echo := func(mark string) string {
		return fmt.Sprintf(`{"text":%q}`, mark+" "+strings.Repeat("result text ", 150))
	}
	f.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", "files__echo", echo("R1"))}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("c2", "files__echo", echo("R2"))}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("c3", "files__echo", echo("R3"))}},
		providertest.Reply{Text: "answered"},
	)
	res, err := f.send(t.Context(), "QUESTION: echo three times", set)
	if err != nil || res.Message.Text != "answered" {
		t.Fatalf("%v %q %s", err, res.Message.Text, res.Message.Error)
	}
	reqs := f.llm.Requests()
	last := string(reqs[len(reqs)-1])
	if !strings.Contains(last, "QUESTION: echo three times") || !strings.Contains(last, "echo: R3 result") || !strings.Contains(last, "left out to save context") {
		t.Fatalf("the last request:\n%.2000s", last)
	}
	told := false
	for _, ev := range f.events(chat.EventContext) {
		told = told || ev.Context.TurnStubbed > 0
	}
	if !told {
		t.Fatal("the meter never said this turn's results were stubbed")
	}
	for i, b := range reqs {
		if len(b)/4 > 3000 {
			t.Fatalf("request %d over the window: %d tokens", i, len(b)/4)
		}
	}
}

// TestCalibrationIsTheChats: the estimate's calibration, learned from what
// the provider reported, is kept with the chat's answers: an engine that
// opens the chat afresh (another CLI run, a restarted window) measures it
// calibrated, at what the provider counted, not at the conservative
// scale of a model it has no report of.
func TestCalibrationIsTheChats(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	set := func(tu *chat.Turn) { tu.ContextWindow = 100_000 }
	for i := range 2 {
		f.llm.Enqueue(providertest.Reply{Text: "ok"})
		if _, err := f.send(t.Context(), fmt.Sprintf("question %d %s", i, strings.Repeat("text ", 200)), set); err != nil {
			t.Fatal(err)
		}
	}
	turn := chat.Turn{ChatID: f.chat.ID, Provider: f.p, Model: "m1", ContextWindow: 100_000}
	fresh := chat.New(chat.Options{Tools: testServer(t, nil), History: f.hist})
	v, err := fresh.Measure(t.Context(), turn)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Calibrated {
		t.Fatalf("a fresh engine measures the chat uncalibrated: %+v", v)
	}
	msgs, _ := f.hist.Messages(t.Context(), f.chat.ID)
	last := msgs[len(msgs)-1]
	if last.EstimatedTokens <= 0 || last.InputTokens <= 0 {
		t.Fatalf("the answer keeps estimate %d and usage %d", last.EstimatedTokens, last.InputTokens)
	}
	// The next request is the last one and the answer: what the fake
	// counted, and the answer since (an uncalibrated estimate is 40% over).
	want := float64(last.InputTokens)
	if got := float64(v.Used); got < want || got > want*1.25 {
		t.Fatalf("a fresh engine measures %d tokens; the provider counted %d for the request before", v.Used, last.InputTokens)
	}
}

// counting is a provider with its own tokenizer: it counts a request at
// twice its text's characters / 4 (denser than the estimate).
type counting struct {
	provider.Provider
	calls int
}

func (c *counting) CountTokens(_ context.Context, req provider.Request) (int, error) {
	c.calls++
	n := len(req.System)
	for _, m := range req.Messages {
		n += len(m.Text) + 20
	}
	return n / 2, nil
}

// TestExactCountNearTheLimit: with a provider that counts tokens itself
// (the local model's llama-server), a request near the limit is measured
// by its count, not the estimate: a chat the estimate would let through is
// compacted.
func TestExactCountNearTheLimit(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	cp := &counting{Provider: f.p}
	f.llm.Enqueue(providertest.Reply{When: "Write the summary now.", Text: "Notes: long texts."})
	set := func(tu *chat.Turn) { tu.ContextWindow, tu.Provider = 4000, cp }
	long := strings.Repeat("words to fill the window ", 60) // ~375 tokens estimated, ~750 counted
	for i := range 6 {                                      // ~2,400 tokens estimated: under the 3,200 limit, twice that counted
		f.llm.Enqueue(providertest.Reply{Text: "ok"})
		if res, err := f.send(t.Context(), fmt.Sprintf("%d %s", i, long), set); err != nil || res.Message.Status != history.StatusComplete {
			t.Fatalf("turn %d: %v %s", i, err, res.Message.Error)
		}
	}
	if cp.calls == 0 {
		t.Fatal("the provider's count was never asked")
	}
	msgs, _ := f.hist.Messages(t.Context(), f.chat.ID)
	if firstRole(msgs, history.RoleSummary) < 0 {
		t.Fatal("the chat, over the limit by the provider's count, was not summarised")
	}
}

func firstRole(msgs []history.Message, role string) int {
	for i, m := range msgs {
		if m.Role == role {
			return i
		}
	}
	return -1
}

// TestAnthropicCountsNearTheLimit: for an Anthropic model the engine asks
// the API's /v1/messages/count_tokens near the limit (the fake speaks its
// wire format and counts as it reports usage), the meter says the count
// is exact, and no request goes over the window; a server that refuses
// the endpoint is asked once and the chat goes on with its estimate.
func TestAnthropicCountsNearTheLimit(t *testing.T) {
	for _, refuse := range []bool{false, true} {
		t.Run(fmt.Sprintf("refused=%v", refuse), func(t *testing.T) {
			f := newFixture(t, provider.KindAnthropic, nil)
			f.llm.SetModelList([]providertest.Model{{ID: "m1", ContextWindow: 4000}})
			f.llm.RefuseCountTokens(refuse)
			f.llm.Enqueue(providertest.Reply{When: "Write the summary now.", Text: "Notes: long texts."})
			set := func(tu *chat.Turn) { tu.ContextWindow = 4000 }
			long := strings.Repeat("words to fill the window ", 60)
			for i := range 8 {
				f.llm.Enqueue(providertest.Reply{Text: "ok"})
				if res, err := f.send(t.Context(), fmt.Sprintf("%d %s", i, long), set); err != nil || res.Message.Status != history.StatusComplete {
					t.Fatalf("turn %d: %v %s", i, err, res.Message.Error)
				}
			}
			counts := 0
			for _, c := range f.llm.Calls() {
				if c.Path == "/v1/messages/count_tokens" {
					counts++
				}
			}
			exact := false
			for _, ev := range f.events(chat.EventContext) {
				exact = exact || ev.Context.Exact
			}
			switch {
			case !refuse && (counts == 0 || !exact):
				t.Fatalf("count_tokens asked %d times, meter exact %v: want the API's count near the limit", counts, exact)
			case refuse && (counts != 1 || exact):
				t.Fatalf("refused count_tokens asked %d times (want 1), meter exact %v (want false)", counts, exact)
			}
			msgs, _ := f.hist.Messages(t.Context(), f.chat.ID)
			if firstRole(msgs, history.RoleSummary) < 0 {
				t.Fatal("a chat twice its window was never summarised")
			}
		})
	}
}

// TestRequestsKeepTheirPrefix: a prompt cache (llama-server's, the
// built-in local model's) reuses only a byte-identical prefix, so each
// request of a 10-turn chat with tools must begin with the previous
// request as sent: the same tools, the same system prompt, the same
// earlier messages byte for byte, only new messages after them.
func TestRequestsKeepTheirPrefix(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	set := func(tu *chat.Turn) { tu.ContextWindow = 32_768 }
	for i := range 10 {
		f.llm.Enqueue(
			providertest.Reply{ToolCalls: []providertest.ToolCall{call(fmt.Sprintf("c%d", i), "files__echo", fmt.Sprintf(`{"text":"turn %d"}`, i))}},
			providertest.Reply{Text: fmt.Sprintf("done %d", i)},
		)
		if res, err := f.send(t.Context(), fmt.Sprintf("question %d", i), set); err != nil || res.Message.Status != history.StatusComplete {
			t.Fatalf("turn %d: %v %s", i, err, res.Message.Error)
		}
	}
	reqs := f.llm.Requests()
	if len(reqs) != 20 {
		t.Fatalf("%d requests, want 20 (a call and an answer a turn)", len(reqs))
	}
	type body struct {
		Tools    json.RawMessage   `json:"tools"`
		Messages []json.RawMessage `json:"messages"`
	}
	var prev body
	for k, raw := range reqs {
		var b body
		if err := json.Unmarshal(raw, &b); err != nil {
			t.Fatal(err)
		}
		if k > 0 {
			if !bytes.Equal(b.Tools, prev.Tools) {
				t.Fatalf("request %d: the tools changed:\n%s\nwas\n%s", k+1, b.Tools, prev.Tools)
			}
			if len(b.Messages) <= len(prev.Messages) {
				t.Fatalf("request %d has %d messages, the one before %d", k+1, len(b.Messages), len(prev.Messages))
			}
			for j, m := range prev.Messages {
				if !bytes.Equal(b.Messages[j], m) {
					t.Fatalf("request %d: message %d changed:\n%s\nwas\n%s", k+1, j, b.Messages[j], m)
				}
			}
		}
		prev = b
	}
}

// TestAWindowSetLargerThanTheModels: the turn's context window (a
// --context-window, a setting) is larger than the model's, whose refusal
// states its own. The stated one is taken for the retry and the rest of
// the chat, and said once; no request is refused again, no refusal is
// stored or shown, and every turn is answered.
func TestAWindowSetLargerThanTheModels(t *testing.T) {
	for _, kind := range []provider.Kind{provider.KindOpenAI, provider.KindAnthropic} {
		t.Run(string(kind), func(t *testing.T) {
			f := newFixture(t, kind, nil)
			f.llm.SetModelList([]providertest.Model{{ID: "m1", ContextWindow: 3000}})
			f.llm.Enqueue(providertest.Reply{When: "Write the summary now.", Text: "Notes: the user sent long messages."})
			long := strings.Repeat("words to fill the window ", 100) // ~650 tokens a turn
			set := func(tu *chat.Turn) { tu.ContextWindow = 12_000 }
			for i := range 10 {
				f.llm.Enqueue(providertest.Reply{Text: "ok"})
				if res, err := f.send(t.Context(), fmt.Sprintf("%d %s", i, long), set); err != nil || res.Message.Status != history.StatusComplete {
					t.Fatalf("turn %d: %v %s", i, err, res.Message.Error)
				}
			}
			refused := 0
			for _, b := range f.llm.Requests() {
				if len(b)/4 > 3000 {
					refused++
				}
			}
			var notes []string
			for _, ev := range f.events(chat.EventContext) {
				if ev.Error != "" {
					notes = append(notes, ev.Error)
				}
			}
			if refused != 1 || len(notes) != 1 || !strings.Contains(notes[0], "3000 tokens") || !strings.Contains(notes[0], "not the 12000") {
				t.Fatalf("%d requests refused, notes %q; want 1 and one naming both windows", refused, notes)
			}
			meters := f.events(chat.EventContext)
			if last := meters[len(meters)-1].Context; last.Window != 3000 {
				t.Fatalf("the meter shows a window of %d, want the model's 3000", last.Window)
			}
			msgs, _ := f.hist.Messages(t.Context(), f.chat.ID)
			for _, m := range msgs {
				if m.Status != history.StatusComplete || m.Error != "" {
					t.Fatalf("message %d stored as %s: %s", m.Seq, m.Status, m.Error)
				}
			}
			for _, ev := range f.events(chat.EventMessageEnd) {
				if ev.Error != "" {
					t.Fatalf("an answer ended with an error shown: %s", ev.Error)
				}
			}
		})
	}
}

// TestARefusalTheRetryDoesNotMendIsStoredOnce: the model refuses the
// request as too long, and the retry too. The turn ends with one answer
// stored and shown as failed, whose error says what was tried — the
// earlier messages summarised only when there were some — and where the
// model's real window is set, in the window and on the command line.
func TestARefusalTheRetryDoesNotMendIsStoredOnce(t *testing.T) {
	tests := []struct {
		name    string
		earlier int
		want    string
	}{
		{"with earlier turns", 2, "also when asked again after the earlier messages were summarised"},
		{"first turn", 0, "there were no earlier messages to summarise"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, provider.KindAnthropic, nil)
			f.llm.Enqueue(providertest.Reply{When: "Write the summary now.", Text: "Notes: earlier turns."})
			set := func(tu *chat.Turn) { tu.ContextWindow = 100_000 }
			for i := range tc.earlier {
				f.llm.Enqueue(providertest.Reply{Text: "ok"})
				if _, err := f.send(t.Context(), fmt.Sprintf("turn %d", i), set); err != nil {
					t.Fatal(err)
				}
			}
			tooLong := providertest.Reply{Status: 400, Error: "prompt is too long"}
			f.llm.Enqueue(tooLong, tooLong)
			res, err := f.send(t.Context(), "the long one", set)
			if !errors.Is(err, provider.ErrContextLength) {
				t.Fatalf("err %v, want the context-length refusal", err)
			}
			msgs, _ := f.hist.Messages(t.Context(), f.chat.ID)
			var failed []history.Message
			for _, m := range msgs {
				if m.Status != history.StatusComplete {
					failed = append(failed, m)
				}
			}
			if len(failed) != 1 || failed[0].ID != res.Message.ID || failed[0].Status != history.StatusError {
				t.Fatalf("failed messages %+v, want the turn's answer alone", failed)
			}
			text := failed[0].Error
			for _, w := range []string{tc.want, "--context-window N", "Settings → Chat → Long chats → Context windows"} {
				if !strings.Contains(text, w) {
					t.Errorf("the stored error lacks %q:\n%s", w, text)
				}
			}
			if strings.Contains(text, "even after") || tc.earlier == 0 && strings.Contains(text, "were summarised") {
				t.Errorf("the stored error says more was tried than was:\n%s", text)
			}
			var shown []string
			for _, ev := range f.events(chat.EventMessageEnd) {
				if ev.Error != "" {
					shown = append(shown, ev.Error)
				}
			}
			if len(shown) != 1 || shown[0] != text {
				t.Fatalf("errors shown %q, want the stored one once", shown)
			}
		})
	}
}
