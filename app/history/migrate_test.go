package history

import (
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// openAtVersion creates a database migrated only up to version, as an older
// Switchboard would have left it, and returns its handle (closed by the test).
func openAtVersion(t *testing.T, path string, version int) *Store {
	t.Helper()
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	s := &Store{db: db, path: path, now: time.Now, loc: time.UTC}
	t.Cleanup(func() { s.Close() })
	if _, err := db.ExecContext(t.Context(), "PRAGMA journal_mode = WAL"); err != nil {
		t.Fatal(err)
	}
	if err := s.migrate(t.Context(), migrations, version); err != nil {
		t.Fatalf("migrate to v%d: %v", version, err)
	}
	return s
}

func userVersion(t *testing.T, db *sql.DB) int {
	t.Helper()
	var v int
	if err := db.QueryRowContext(t.Context(), "PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestMigrationFilesAreNumbered(t *testing.T) {
	if len(migrations) < 2 || SchemaVersion != len(migrations) {
		t.Fatalf("%d migrations, SchemaVersion %d", len(migrations), SchemaVersion)
	}
	for i, m := range migrations {
		if m.version != i+1 || strings.TrimSpace(m.sql) == "" {
			t.Errorf("migration %d = v%d %q (%d bytes)", i, m.version, m.name, len(m.sql))
		}
	}
	bad := []fstest.MapFS{
		{"migrations/0001_a.sql": {Data: []byte("x")}, "migrations/0003_c.sql": {Data: []byte("x")}},
		{"migrations/1_a.sql": {Data: []byte("x")}, "migrations/0002_b.sql": {Data: []byte("x")}},
		{"migrations/first.sql": {Data: []byte("x")}},
	}
	for _, fsys := range bad {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("mustLoadMigrations accepted %v", fsys)
				}
			}()
			mustLoadMigrations(fsys)
		}()
	}
}

// TestUpgradeFromV1 fills a v1 database the way v1 code wrote it, then opens
// it with this build: the data must survive and be searchable (v2 indexes
// what was already there).
func TestUpgradeFromV1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	old := openAtVersion(t, path, 1)
	if v := userVersion(t, old.db); v != 1 {
		t.Fatalf("user_version = %d, want 1", v)
	}
	ms := t0.UnixMilli()
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO chats (id, title, provider, model, agent, settings, created_at, updated_at)
		  VALUES ('chat1', 'Old kumquat chat', 'openai', 'gpt-4', '', '{"a":1}', ?, ?)`, []any{ms, ms + 2000}},
		{`INSERT INTO messages (id, chat_id, seq, role, text, status, created_at)
		  VALUES ('m1', 'chat1', 1, 'user', 'tell me about persimmons', 'complete', ?)`, []any{ms}},
		{`INSERT INTO messages (id, chat_id, seq, role, text, status, model, input_tokens, output_tokens, created_at)
		  VALUES ('m2', 'chat1', 2, 'assistant', 'They are orange.', 'complete', 'gpt-4', 5, 7, ?)`, []any{ms + 1000}},
		{`INSERT INTO tool_calls (message_id, call_id, ord, server, tool, arguments, result, status)
		  VALUES ('m2', 'c1', 1, 'web', 'web__lookup_fruit', '{"q":"persimmon"}', '{"content":[]}', 'done')`, nil},
	} {
		if _, err := old.db.ExecContext(t.Context(), q.sql, q.args...); err != nil {
			t.Fatal(err)
		}
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}

	s := openAt(t, path)
	if v := userVersion(t, s.db); v != SchemaVersion {
		t.Errorf("user_version after Open = %d, want %d", v, SchemaVersion)
	}
	c, err := s.Chat(t.Context(), "chat1")
	if err != nil {
		t.Fatal(err)
	}
	if c.Title != "Old kumquat chat" || string(c.Settings) != `{"a":1}` || c.MessageCount != 2 || !c.UpdatedAt.Equal(t0.Add(2*time.Second)) {
		t.Errorf("chat after upgrade = %+v", c)
	}
	msgs, err := s.Messages(t.Context(), "chat1")
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2 || msgs[1].OutputTokens != 7 || len(msgs[1].ToolCalls) != 1 || msgs[1].ToolCalls[0].Tool != "web__lookup_fruit" {
		t.Errorf("messages after upgrade = %+v", msgs)
	}
	for q, want := range map[string]string{"persimmons": "m1", "kumquat": "", "lookup_fruit": "m2"} {
		hits, err := s.Search(t.Context(), q, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 1 || hits[0].MessageID != want || hits[0].ChatID != "chat1" {
			t.Errorf("Search(%q) = %+v, want message %q of chat1", q, hits, want)
		}
	}
	// And the upgraded database keeps working.
	m := mustAppend(t, s, Message{ChatID: "chat1", Role: RoleUser, Text: "more"})
	if m.Seq != 3 {
		t.Errorf("next seq = %d, want 3", m.Seq)
	}
}

// TestFailedMigrationLeavesVersion checks a step that fails halfway leaves
// nothing of itself behind and the version where it was.
func TestFailedMigrationLeavesVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	s := openAtVersion(t, path, 1)
	broken := append(migrations[:1:1], migration{version: 2, name: "0002_broken",
		sql: `CREATE TABLE half (x INTEGER); INSERT INTO no_such_table VALUES (1);`})
	err := s.migrate(t.Context(), broken, 2)
	var e *Error
	if !errors.As(err, &e) || e.Op != "migrate" || !strings.Contains(err.Error(), "schema v2 (0002_broken)") || !strings.Contains(err.Error(), "no_such_table") {
		t.Fatalf("err = %v, want a migrate *Error naming the step and the cause", err)
	}
	if v := userVersion(t, s.db); v != 1 {
		t.Errorf("user_version = %d, want 1", v)
	}
	var n int
	if err := s.db.QueryRowContext(t.Context(), `SELECT count(*) FROM sqlite_schema WHERE name = 'half'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("table of the failed step exists (%d, %v)", n, err)
	}
}
