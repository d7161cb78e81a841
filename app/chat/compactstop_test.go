package chat_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
)

// TestStopWhileSummarising: Stop pressed while the earlier messages are
// being summarised (before a new message, in the middle of a turn, or for
// Compact now) stores no summary — not the plain list that stands in when
// the model fails, which would replace the earlier messages for the rest
// of the chat — and keeps the user's message, its turn ending as stopped.
// The next turn then summarises with the model.
func TestStopWhileSummarising(t *testing.T) {
	long := strings.Repeat("words to fill the window ", 100)
	for _, tc := range []struct {
		name string
		// stop runs the stopped work; the turn's ctx is cancelled as the
		// meter says a summary is being written.
		stop func(ctx context.Context, f *fixture, on func(chat.Event)) error
		// asked: the user's message of the stopped work, stored.
		asked string
		// earlier turns before it; called: a tool ran before the summary.
		earlier int
		called  bool
	}{
		{"before a new message", func(ctx context.Context, f *fixture, on func(chat.Event)) error {
			_, err := f.send(ctx, "STOPPED-QUESTION "+long, small, func(tu *chat.Turn) { tu.OnEvent = on })
			return err
		}, "STOPPED-QUESTION", 4, false},
		{"mid-turn", func(ctx context.Context, f *fixture, on func(chat.Event)) error {
			// The message fits; its tool's result takes the chat past the limit.
			f.llm.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", "files__echo", fmt.Sprintf(`{"text":%q}`, long+long))}})
			_, err := f.send(ctx, "STOPPED-QUESTION echo it", small, func(tu *chat.Turn) { tu.OnEvent = on })
			return err
		}, "STOPPED-QUESTION", 1, true},
		{"compact now", func(ctx context.Context, f *fixture, on func(chat.Event)) error {
			return f.eng.Compact(ctx, chat.Turn{ChatID: f.chat.ID, Provider: f.p, Model: "m1", ContextWindow: 3000, OnEvent: on})
		}, "", 4, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, provider.KindOpenAI, nil)
			f.llm.SetModelList([]providertest.Model{{ID: "m1", ContextWindow: 3000}})
			f.llm.Enqueue(providertest.Reply{When: "Write the summary now.", Text: "MODEL-SUMMARY: the user sent long messages."})
			// Earlier turns, under a window they fit.
			for i := range tc.earlier {
				f.llm.Enqueue(providertest.Reply{Text: "ok"})
				if _, err := f.send(t.Context(), fmt.Sprintf("%d %s", i, long), func(tu *chat.Turn) { tu.ContextWindow = 100_000 }); err != nil {
					t.Fatal(err)
				}
			}
			before, _ := f.hist.Messages(t.Context(), f.chat.ID)

			ctx, stop := context.WithCancel(t.Context())
			defer stop()
			err := tc.stop(ctx, f, func(ev chat.Event) {
				if ev.Type == chat.EventContext && ev.Context != nil && ev.Context.Compacting {
					stop() // Stop, as the window's meter says "Summarising…"
				}
			})
			if ctx.Err() == nil {
				t.Fatalf("the chat was not summarised (err %v)", err)
			}
			msgs, _ := f.hist.Messages(t.Context(), f.chat.ID)
			ran := false
			for _, m := range msgs[len(before):] {
				ran = ran || len(m.ToolCalls) > 0 && m.ToolCalls[0].Status == history.CallDone
			}
			if ran != tc.called {
				t.Fatalf("a tool ran before the summary: %v, want %v", ran, tc.called)
			}
			for _, m := range msgs {
				if m.Role == history.RoleSummary {
					t.Fatalf("a summary was stored though Stop was pressed: %q", m.Text)
				}
				if m.Role == history.RoleAssistant && m.Status == history.StatusError {
					t.Fatalf("the stopped turn stored an error: %q", m.Error)
				}
			}
			if tc.asked != "" {
				asked := -1
				for i, m := range msgs {
					if m.Role == history.RoleUser && strings.HasPrefix(m.Text, tc.asked) {
						asked = i
					}
				}
				last := msgs[len(msgs)-1]
				if asked < len(before) || last.Role != history.RoleAssistant || last.Status != history.StatusCancelled {
					t.Fatalf("after Stop: the message at %d (of %d before), the last message %s %s", asked, len(before), last.Role, last.Status)
				}
			} else if len(msgs) != len(before) {
				t.Fatalf("Compact now stopped left %d messages, had %d", len(msgs), len(before))
			}

			// The next turn summarises with the model.
			f.llm.Enqueue(providertest.Reply{Text: "answered"})
			res, err := f.send(t.Context(), "next "+long, small)
			if err != nil || res.Message.Status != history.StatusComplete {
				t.Fatalf("next turn: %v %s", err, res.Message.Error)
			}
			msgs, _ = f.hist.Messages(t.Context(), f.chat.ID)
			if i := firstRole(msgs, history.RoleSummary); i < 0 || !strings.HasPrefix(msgs[i].Text, "MODEL-SUMMARY") {
				t.Fatalf("the next turn's summary: %d", i)
			}
		})
	}
}

// small gives a turn the model's small window.
func small(tu *chat.Turn) { tu.ContextWindow = 3000 }
