package history

import (
	"database/sql"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// indexed reports whether the search index itself (not Search, which
// indexes what is noted first) has a message row matching word.
func indexed(t *testing.T, db *sql.DB, word string) bool {
	t.Helper()
	var n int
	if err := db.QueryRowContext(t.Context(), `SELECT count(*) FROM search WHERE search MATCH ? AND rowid > 0`, matchExpr(word)).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n > 0
}

func noted(t *testing.T, db *sql.DB) int {
	t.Helper()
	var n int
	if err := db.QueryRowContext(t.Context(), `SELECT count(*) FROM search_pending`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// slowIndex keeps the store's own indexing pass from running during a test.
func slowIndex(t *testing.T) {
	old := IndexDelay
	IndexDelay = time.Hour
	t.Cleanup(func() { IndexDelay = old })
}

// TestWritesNoteAndSearchIndexes checks each kind of write leaves the index
// alone and only notes its message, and that Search then finds every
// message as it is stored now.
func TestWritesNoteAndSearchIndexes(t *testing.T) {
	slowIndex(t)
	ctx := t.Context()
	tests := []struct {
		name  string
		write func(t *testing.T, s *Store, chat string, m Message) error
		found []string // words Search must find in m afterwards
		gone  []string // and must not
	}{
		{"append", func(*testing.T, *Store, string, Message) error { return nil }, []string{"apricot"}, nil},
		{"update text", func(t *testing.T, s *Store, _ string, m Message) error {
			m.Text = "blueberry"
			return s.UpdateMessage(ctx, m)
		}, []string{"blueberry"}, []string{"apricot"}},
		{"tool call saved, then saved again with its server known", func(t *testing.T, s *Store, _ string, m Message) error {
			if err := s.SaveToolCall(ctx, ToolCall{ID: "c1", MessageID: m.ID, Tool: "fetch_page"}); err != nil {
				return err
			}
			return s.SaveToolCall(ctx, ToolCall{ID: "c1", MessageID: m.ID, Server: "web", Tool: "web__fetch_page"})
		}, []string{"apricot", "fetch_page", "web"}, nil},
		{"calls saved with the next message", func(t *testing.T, s *Store, chat string, m Message) error {
			_, err := s.AppendMessageAfter(ctx, Message{ChatID: chat, Role: RoleAssistant, Text: "cherry"},
				[]ToolCall{{ID: "c2", MessageID: m.ID, Server: "files", Tool: "files__read_file"}})
			return err
		}, []string{"read_file"}, nil},
		{"rewound away", func(t *testing.T, s *Store, chat string, m Message) error {
			_, err := s.Rewind(ctx, chat, "", "")
			return err
		}, nil, []string{"apricot"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openTest(t)
			c := mustChat(t, s, Chat{Title: "Fruit"})
			mustAppend(t, s, Message{ChatID: c.ID, Role: RoleUser, Text: "which fruit"})
			if _, err := s.Search(ctx, "which", 5); err != nil { // indexes the user's message
				t.Fatal(err)
			}
			m := mustAppend(t, s, Message{ChatID: c.ID, Role: RoleAssistant, Text: "apricot"})
			if err := tt.write(t, s, c.ID, m); err != nil {
				t.Fatal(err)
			}
			if indexed(t, s.db, "apricot") || indexed(t, s.db, "blueberry") || indexed(t, s.db, "cherry") {
				t.Error("a write indexed its message itself; it should only note it")
			}
			if noted(t, s.db) == 0 && tt.name != "rewound away" {
				t.Error("nothing noted for the index")
			}
			for _, w := range tt.found {
				hits, err := s.Search(ctx, w, 5)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.ContainsFunc(hits, func(h Hit) bool { return h.MessageID == m.ID }) {
					t.Errorf("Search(%q) = %+v, want message %s", w, hits, m.ID)
				}
			}
			for _, w := range tt.gone {
				if hits, err := s.Search(ctx, w, 5); err != nil || len(hits) != 0 {
					t.Errorf("Search(%q) = %+v, %v; want nothing", w, hits, err)
				}
			}
			if n := noted(t, s.db); n != 0 {
				t.Errorf("%d notes left after Search", n)
			}
			if _, err := s.db.ExecContext(ctx, `INSERT INTO search (search) VALUES ('integrity-check')`); err != nil {
				t.Errorf("search index integrity check: %v", err)
			}
		})
	}
}

// TestIndexFollowsWithoutSearch checks the store indexes noted messages by
// itself IndexDelay after a write, and when it closes.
func TestIndexFollowsWithoutSearch(t *testing.T) {
	passes := make(chan error, 10)
	oldDelay, oldHook := IndexDelay, indexPassed
	IndexDelay, indexPassed = time.Millisecond, func(err error) { passes <- err }
	t.Cleanup(func() { IndexDelay, indexPassed = oldDelay, oldHook })

	s := openTest(t)
	c := mustChat(t, s, Chat{Title: "Fruit"})
	mustAppend(t, s, Message{ChatID: c.ID, Role: RoleUser, Text: "damson"})
	for !indexed(t, s.db, "damson") {
		select {
		case err := <-passes:
			if err != nil {
				t.Fatalf("index pass: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the message was not indexed 10 s after it was written")
		}
	}
	if n := noted(t, s.db); n != 0 {
		t.Errorf("%d notes left after a pass", n)
	}
}

func TestCloseAndOpenIndexWhatIsNoted(t *testing.T) {
	slowIndex(t)
	path := filepath.Join(t.TempDir(), "history.db")
	s, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	c := mustChat(t, s, Chat{Title: "Fruit"})
	mustAppend(t, s, Message{ChatID: c.ID, Role: RoleUser, Text: "elderberry"})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	raw := openAtVersion(t, path, SchemaVersion) // no indexing of its own
	if !indexed(t, raw.db, "elderberry") || noted(t, raw.db) != 0 {
		t.Errorf("Close left the message unindexed (%d notes)", noted(t, raw.db))
	}

	// Notes a crash left are indexed by the next Open's pass.
	if _, err := raw.db.ExecContext(t.Context(), `UPDATE messages SET text = 'fig'`); err != nil {
		t.Fatal(err)
	}
	if err := raw.Close(); err != nil {
		t.Fatal(err)
	}
	passes := make(chan error, 10)
	oldHook := indexPassed
	IndexDelay, indexPassed = time.Millisecond, func(err error) { passes <- err }
	t.Cleanup(func() { indexPassed = oldHook })
	s2 := openAt(t, path)
	select {
	case err := <-passes:
		if err != nil || !indexed(t, s2.db, "fig") || indexed(t, s2.db, "elderberry") {
			t.Errorf("Open's pass: %v; fig indexed %v, elderberry %v", err, indexed(t, s2.db, "fig"), indexed(t, s2.db, "elderberry"))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no index pass 10 s after Open")
	}
}

// TestUpgradeFromV5KeepsTheIndex opens a database whose index v5's
// triggers kept: what they indexed is still found, and a message changed
// after the upgrade is found by its new words only.
func TestUpgradeFromV5KeepsTheIndex(t *testing.T) {
	slowIndex(t)
	path := filepath.Join(t.TempDir(), "history.db")
	old := openAtVersion(t, path, 5)
	ms := t0.UnixMilli()
	for _, q := range []string{
		`INSERT INTO chats (id, title, created_at, updated_at) VALUES ('chat1', 'Orchard', 0, 0)`,
		`INSERT INTO messages (id, chat_id, seq, role, text, status, created_at) VALUES ('m1', 'chat1', 1, 'user', 'grapefruit please', 'complete', ?)`,
		`INSERT INTO messages (id, chat_id, seq, role, text, status, created_at) VALUES ('m2', 'chat1', 2, 'assistant', 'guava', 'complete', ?)`,
		`INSERT INTO tool_calls (message_id, call_id, ord, server, tool, status) VALUES ('m2', 'c1', 1, 'farm', 'farm__pick', 'done')`,
	} {
		if _, err := old.db.ExecContext(t.Context(), q, ms); err != nil {
			t.Fatal(err)
		}
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	s := openAt(t, path)
	for q, want := range map[string]string{"grapefruit": "m1", "guava": "m2", "farm__pick": "m2", "orchard": ""} {
		if hits, err := s.Search(t.Context(), q, 5); err != nil || len(hits) != 1 || hits[0].MessageID != want {
			t.Errorf("Search(%q) = %+v, %v; want message %q", q, hits, err, want)
		}
	}
	if err := s.UpdateMessage(t.Context(), Message{ID: "m2", Text: "huckleberry"}); err != nil {
		t.Fatal(err)
	}
	if hits, err := s.Search(t.Context(), "guava", 5); err != nil || len(hits) != 0 {
		t.Errorf("Search(guava) after the update = %+v, %v; want nothing", hits, err)
	}
	if hits, err := s.Search(t.Context(), "huckleberry farm", 5); err != nil || len(hits) != 1 || hits[0].MessageID != "m2" {
		t.Errorf("Search(huckleberry farm) = %+v, %v; want m2", hits, err)
	}
}
