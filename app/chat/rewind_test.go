package chat_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
)

func from(id, text string) func(*chat.Turn) {
	return func(t *chat.Turn) { t.From, t.Text = id, text }
}

func storedTexts(t *testing.T, f *fixture) []string {
	t.Helper()
	ms, err := f.hist.Messages(t.Context(), f.chat.ID)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range ms {
		s := m.Role + ":" + m.Text
		for _, c := range m.ToolCalls {
			s += " [" + c.Tool + "]"
		}
		out = append(out, s)
	}
	return out
}

// TestRetryAndEdit: a retried or edited turn replaces what followed the
// user message, in history and in what the model is sent.
func TestRetryAndEdit(t *testing.T) {
	tests := []struct {
		name string
		turn func(first history.Message) func(*chat.Turn)
		// the last request must contain want and none of gone
		want       string
		gone       []string
		from       int // the message rewound to
		wantStored []string
	}{
		{
			name: "retry the last answer",
			turn: func(history.Message) func(*chat.Turn) { return from(chat.FromLast, "") },
			from: 3, want: "and bravo?", gone: []string{"bravo is wrong"},
			wantStored: []string{"user:echo alpha", "assistant: [files__echo]", "assistant:alpha echoed", "user:and bravo?", "assistant:bravo is right"},
		},
		{
			name: "edit the first message",
			turn: func(first history.Message) func(*chat.Turn) { return from(first.ID, "echo charlie") },
			from: 0, want: "echo charlie", gone: []string{"echo alpha", "echo: alpha", "and bravo?", "bravo is wrong"},
			wantStored: []string{"user:echo charlie", "assistant:bravo is right"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, provider.KindOpenAI, nil)
			f.llm.Enqueue(
				providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", "files__echo", `{"text":"alpha"}`)}},
				providertest.Reply{Text: "alpha echoed"},
				providertest.Reply{Text: "bravo is wrong"},
				providertest.Reply{Text: "bravo is right"},
			)
			if _, err := f.send(t.Context(), "echo alpha"); err != nil {
				t.Fatal(err)
			}
			if _, err := f.send(t.Context(), "and bravo?"); err != nil {
				t.Fatal(err)
			}
			before, _ := f.hist.Messages(t.Context(), f.chat.ID)
			res, err := f.send(t.Context(), "", tc.turn(before[0]))
			if err != nil {
				t.Fatal(err)
			}
			if res.Message.Text != "bravo is right" {
				t.Fatalf("answer %q", res.Message.Text)
			}
			if got := storedTexts(t, f); strings.Join(got, "|") != strings.Join(tc.wantStored, "|") {
				t.Fatalf("stored %q, want %q", got, tc.wantStored)
			}
			reqs := f.llm.Requests()
			body := string(reqs[len(reqs)-1])
			if !strings.Contains(body, tc.want) {
				t.Errorf("the retried step's request lacks %q: %s", tc.want, body)
			}
			for _, g := range tc.gone {
				if strings.Contains(body, g) {
					t.Errorf("the retried step's request still has %q: %s", g, body)
				}
			}
			// The UI learns which message the turn starts from: its id again.
			var users []chat.Event
			for _, ev := range f.events(chat.EventMessage) {
				if ev.Role == "user" {
					users = append(users, ev)
				}
			}
			if last, want := users[len(users)-1], before[tc.from]; last.MessageID != want.ID || last.Text != tc.want {
				t.Fatalf("the turn's user event is %+v, want message %q with %q", last, want.ID, tc.want)
			}
		})
	}
}

func TestRetryRefusesAnAnswer(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	f.llm.Enqueue(providertest.Reply{Text: "hello"})
	if _, err := f.send(t.Context(), "hi"); err != nil {
		t.Fatal(err)
	}
	ms, _ := f.hist.Messages(t.Context(), f.chat.ID)
	if _, err := f.send(t.Context(), "x", from(ms[1].ID, "x")); !errors.Is(err, history.ErrInvalid) {
		t.Fatalf("editing an answer: %v", err)
	}
	if got := storedTexts(t, f); len(got) != 2 {
		t.Fatalf("stored %q", got)
	}
	if n := len(f.llm.Requests()); n != 1 {
		t.Fatalf("the model was asked %d times", n)
	}
}
