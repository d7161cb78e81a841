package chat_test

import (
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
// stays in the history as an error the chat shows.
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
			for _, m := range msgs {
				if m.Status == history.StatusError && strings.Contains(m.Error, "context window") {
					refused++
				}
				if m.Role == history.RoleSummary {
					summaries++
				}
			}
			if refused != 1 || summaries != 1 {
				t.Fatalf("%d refused answers, %d summaries; want 1 and 1", refused, summaries)
			}
			last := string(f.llm.Requests()[len(f.llm.Requests())-1])
			if !strings.Contains(last, "Notes: earlier the user chatted") || strings.Contains(last, "0 words to fill") {
				t.Fatalf("the retry did not read the summary instead of the old turns:\n%.800s", last)
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
