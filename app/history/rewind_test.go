package history

import (
	"errors"
	"slices"
	"testing"
)

// rewindChat is a chat of two exchanges, the first answer with a tool
// call: user "find a", assistant (call), assistant "found a", user "and
// b?", assistant "b too". It returns the chat and its messages.
func rewindChat(t *testing.T, s *Store) (Chat, []Message) {
	t.Helper()
	c := mustChat(t, s, Chat{Title: "rewind"})
	ms := []Message{
		mustAppend(t, s, Message{ChatID: c.ID, Role: RoleUser, Text: "find alpha"}),
		mustAppend(t, s, Message{ChatID: c.ID, Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Server: "web", Tool: "web__search", Status: CallDone}}}),
		mustAppend(t, s, Message{ChatID: c.ID, Role: RoleAssistant, Text: "found alpha"}),
		mustAppend(t, s, Message{ChatID: c.ID, Role: RoleUser, Text: "and bravo?"}),
		mustAppend(t, s, Message{ChatID: c.ID, Role: RoleAssistant, Text: "bravo too"}),
	}
	return c, ms
}

func texts(ms []Message) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Role+":"+m.Text)
	}
	return out
}

func TestRewind(t *testing.T) {
	tests := []struct {
		name      string
		message   int // index into the chat's messages; -1 = "" (the last user message)
		text      string
		wantTexts []string
		wantHits  map[string]int // search query → hits after the rewind
	}{
		{"retry the last answer", -1, "", []string{"user:find alpha", "assistant:", "assistant:found alpha", "user:and bravo?"},
			map[string]int{"bravo": 1, "alpha": 2}},
		{"edit the first message", 0, "find charlie", []string{"user:find charlie"},
			map[string]int{"charlie": 1, "alpha": 0, "bravo": 0, "web__search": 0}},
		{"same text keeps it", 3, "and bravo?", []string{"user:find alpha", "assistant:", "assistant:found alpha", "user:and bravo?"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := openTest(t)
			c, ms := rewindChat(t, s)
			id := ""
			if tc.message >= 0 {
				id = ms[tc.message].ID
			}
			got, err := s.Rewind(t.Context(), c.ID, id, tc.text)
			if err != nil {
				t.Fatal(err)
			}
			stored, err := s.Messages(t.Context(), c.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(texts(stored), tc.wantTexts) {
				t.Fatalf("stored %q, want %q", texts(stored), tc.wantTexts)
			}
			last := stored[len(stored)-1]
			if got.ID != last.ID || got.Text != last.Text || got.Seq != last.Seq || got.Role != RoleUser {
				t.Fatalf("returned %+v, stored last %+v", got, last)
			}
			// The next message continues the numbering from the rewound one.
			next := mustAppend(t, s, Message{ChatID: c.ID, Role: RoleAssistant, Text: "again"})
			if next.Seq != got.Seq+1 {
				t.Fatalf("next seq %d after %d", next.Seq, got.Seq)
			}
			for q, n := range tc.wantHits {
				hits, err := s.Search(t.Context(), q, 10)
				if err != nil {
					t.Fatal(err)
				}
				if len(hits) != n {
					t.Errorf("search %q: %d hits %+v, want %d", q, len(hits), hits, n)
				}
			}
		})
	}
}

func TestRewindRefuses(t *testing.T) {
	s := openTest(t)
	c, ms := rewindChat(t, s)
	empty := mustChat(t, s, Chat{Title: "empty"})
	tests := []struct {
		name, chat, message string
		want                error
	}{
		{"an answer", c.ID, ms[2].ID, ErrInvalid},
		{"another chat's message", empty.ID, ms[0].ID, ErrNotFound},
		{"no user message", empty.ID, "", ErrNotFound},
		{"unknown message", c.ID, "nope", ErrNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := s.Rewind(t.Context(), tc.chat, tc.message, "x"); !errors.Is(err, tc.want) {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
		})
	}
	stored, _ := s.Messages(t.Context(), c.ID)
	if len(stored) != len(ms) {
		t.Fatalf("a refused rewind changed the chat: %q", texts(stored))
	}
}

// TestRewindIsOneTransaction makes the delete of the last message fail
// (a trigger aborts it) after the edit and the earlier deletes ran: the
// chat must be exactly as it was, text and every message.
func TestRewindIsOneTransaction(t *testing.T) {
	s := openTest(t)
	c, ms := rewindChat(t, s)
	// A TEMP trigger lives on one connection: the one writes run on.
	if _, err := s.wc.ExecContext(t.Context(), `CREATE TEMP TRIGGER fail_last BEFORE DELETE ON main.messages
		WHEN old.seq = 5 BEGIN SELECT RAISE(ABORT, 'disk gone'); END`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Rewind(t.Context(), c.ID, ms[0].ID, "find charlie"); err == nil {
		t.Fatal("the rewind succeeded through a failing delete")
	}
	stored, err := s.Messages(t.Context(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(texts(stored), texts(ms)) {
		t.Fatalf("after a failed rewind the chat is %q, was %q", texts(stored), texts(ms))
	}
	if len(stored[1].ToolCalls) != 1 {
		t.Fatalf("the tool call was deleted: %+v", stored[1])
	}
}
