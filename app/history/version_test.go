package history

import (
	"path/filepath"
	"testing"
	"time"
)

// TestDataVersionFollowsOtherProcessesOnly opens one database twice, as the
// window and 'switchboard chat' do: every kind of write through the first
// store leaves its DataVersion as it was, and every write through the
// second changes it.
func TestDataVersionFollowsOtherProcessesOnly(t *testing.T) {
	old := IndexDelay
	IndexDelay = time.Hour // no index pass of the other store's in between
	t.Cleanup(func() { IndexDelay = old })
	path := filepath.Join(t.TempDir(), "history.db")
	mine, other := openAt(t, path), openAt(t, path)

	writes := []struct {
		name  string
		write func(t *testing.T, s *Store) error
	}{
		{"create a chat", func(t *testing.T, s *Store) error {
			ctx := t.Context()
			_, err := s.CreateChat(ctx, Chat{Title: "new"})
			return err
		}},
		{"append a message with a call", func(t *testing.T, s *Store) error {
			ctx := t.Context()
			c, err := s.CreateChat(ctx, Chat{Title: "turn"})
			if err != nil {
				return err
			}
			m, err := s.AppendMessage(ctx, Message{ChatID: c.ID, Role: RoleAssistant, Status: StatusIncomplete,
				ToolCalls: []ToolCall{{ID: "c1", Server: "fs", Tool: "fs__read", Status: CallRunning}}})
			if err != nil {
				return err
			}
			m.Text, m.Status = "half an answer", StatusIncomplete
			if err := s.UpdateMessage(ctx, m); err != nil {
				return err
			}
			return s.SaveToolCall(ctx, ToolCall{ID: "c1", MessageID: m.ID, Server: "fs", Tool: "fs__read", Status: CallDone})
		}},
		{"rename, rewind and delete", func(t *testing.T, s *Store) error {
			ctx := t.Context()
			c, ms := rewindChat(t, s)
			if err := s.RenameChat(ctx, c.ID, "renamed"); err != nil {
				return err
			}
			if _, err := s.Rewind(ctx, c.ID, ms[0].ID, "again"); err != nil {
				return err
			}
			return s.DeleteChat(ctx, c.ID)
		}},
		{"a message and its index", func(t *testing.T, s *Store) error {
			ctx := t.Context()
			c, err := s.CreateChat(ctx, Chat{Title: "indexed"})
			if err != nil {
				return err
			}
			if _, err := s.AppendMessage(ctx, Message{ChatID: c.ID, Role: RoleUser, Text: "quince"}); err != nil {
				return err
			}
			_, err = s.Search(ctx, "quince", 1) // indexes the notes first, in a write of its own
			return err
		}},
	}
	version := func(s *Store) int64 {
		t.Helper()
		v, err := s.DataVersion(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, w := range writes {
		t.Run(w.name, func(t *testing.T) {
			before := version(mine)
			if err := w.write(t, mine); err != nil {
				t.Fatal(err)
			}
			if v := version(mine); v != before {
				t.Fatalf("our own write changed the data version (%d, was %d)", v, before)
			}
			if err := w.write(t, other); err != nil {
				t.Fatal(err)
			}
			if v := version(mine); v == before {
				t.Fatalf("another process's write left the data version at %d", v)
			}
		})
	}
}
