package history

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// t0 is the fake clock's start; the clock moves one second per reading.
var t0 = time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)

func steppingClock(start time.Time) func() time.Time {
	var mu sync.Mutex
	now := start
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Second)
		return now
	}
}

// openTest opens a store in a fresh directory with a stepping clock and
// UTC exports; it is closed when the test ends.
func openTest(t *testing.T) *Store {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), "history.db"))
}

func openAt(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(t.Context(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	s.now, s.loc = steppingClock(t0), time.UTC
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

func mustChat(t *testing.T, s *Store, c Chat) Chat {
	t.Helper()
	c, err := s.CreateChat(t.Context(), c)
	if err != nil {
		t.Fatalf("CreateChat: %v", err)
	}
	return c
}

func mustAppend(t *testing.T, s *Store, m Message) Message {
	t.Helper()
	m, err := s.AppendMessage(t.Context(), m)
	if err != nil {
		t.Fatalf("AppendMessage: %v", err)
	}
	return m
}

func chatIDs(cs []Chat) []string {
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	return ids
}

func TestOpenCreatesPrivateFileAndParents(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "history.db")
	s := openAt(t, path)
	if s.Path() != path {
		t.Errorf("Path() = %q, want %q", s.Path(), path)
	}
	for p, want := range map[string]os.FileMode{path: 0o600, filepath.Dir(path): 0o700} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if runtime.GOOS != "windows" && fi.Mode().Perm() != want {
			t.Errorf("%s mode = %v, want %v", p, fi.Mode().Perm(), want)
		}
	}
	pragmas := map[string]string{"journal_mode": "wal", "busy_timeout": fmt.Sprint(BusyTimeout.Milliseconds()), "foreign_keys": "1", "synchronous": "2", "user_version": fmt.Sprint(SchemaVersion), "cache_size": fmt.Sprint(-CacheKiB)}
	for name, want := range pragmas {
		var got string
		if err := s.db.QueryRowContext(t.Context(), "PRAGMA "+name).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("PRAGMA %s = %q, want %q", name, got, want)
		}
	}
}

func TestChatCRUDAndOrder(t *testing.T) {
	s := openTest(t)
	ctx := t.Context()
	a := mustChat(t, s, Chat{Title: "A", Provider: "openai", Model: "gpt-4o", Agent: "helper", Settings: json.RawMessage(`{"offTools":["x"]}`)})
	b := mustChat(t, s, Chat{Title: "B"})
	c := mustChat(t, s, Chat{ID: "chosen-id", Title: "C"})
	if a.ID == "" || a.ID == b.ID || c.ID != "chosen-id" {
		t.Fatalf("ids: %q %q %q; want generated, distinct, and the given one kept", a.ID, b.ID, c.ID)
	}

	got, err := s.Chat(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "A" || got.Provider != "openai" || got.Model != "gpt-4o" || got.Agent != "helper" ||
		string(got.Settings) != `{"offTools":["x"]}` || !got.CreatedAt.Equal(a.CreatedAt) || got.MessageCount != 0 {
		t.Errorf("Chat = %+v, want what CreateChat returned (%+v)", got, a)
	}

	list := func(o ListOptions) []string {
		t.Helper()
		cs, err := s.ListChats(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		return chatIDs(cs)
	}
	tests := []struct {
		name string
		act  func()
		opts ListOptions
		want []string
	}{
		{"newest first", func() {}, ListOptions{}, []string{c.ID, b.ID, a.ID}},
		{"a message moves a chat up", func() { mustAppend(t, s, Message{ChatID: a.ID, Role: RoleUser, Text: "hi"}) }, ListOptions{}, []string{a.ID, c.ID, b.ID}},
		{"rename moves it up", func() {
			if err := s.RenameChat(ctx, b.ID, "B2"); err != nil {
				t.Fatal(err)
			}
		}, ListOptions{}, []string{b.ID, a.ID, c.ID}},
		{"limit", func() {}, ListOptions{Limit: 2}, []string{b.ID, a.ID}},
		{"offset", func() {}, ListOptions{Limit: 2, Offset: 2}, []string{c.ID}},
		{"offset past the end", func() {}, ListOptions{Limit: 2, Offset: 5}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.act()
			if got := list(tt.opts); !slices.Equal(got, tt.want) {
				t.Errorf("ListChats(%+v) = %v, want %v", tt.opts, got, tt.want)
			}
		})
	}

	if got, _ := s.Chat(ctx, b.ID); got.Title != "B2" || !got.UpdatedAt.After(got.CreatedAt) {
		t.Errorf("after rename: %+v, want title B2 and UpdatedAt after CreatedAt", got)
	}
	if got, _ := s.Chat(ctx, a.ID); got.MessageCount != 1 {
		t.Errorf("MessageCount = %d, want 1", got.MessageCount)
	}
	if err := s.UpdateChatSettings(ctx, c.ID, "anthropic", "claude", json.RawMessage(`{"offServers":["fs"]}`)); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Chat(ctx, c.ID); got.Provider != "anthropic" || got.Model != "claude" || string(got.Settings) != `{"offServers":["fs"]}` {
		t.Errorf("after UpdateChatSettings: %+v", got)
	}
	if err := s.UpdateChatSettings(ctx, c.ID, "anthropic", "claude", nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Chat(ctx, c.ID); got.Settings != nil {
		t.Errorf("Settings = %s, want nil after clearing", got.Settings)
	}
	// The model and the options change apart: neither loses the other
	// (the window saves both at once when the Model field loses focus to
	// the Tools menu).
	if err := s.UpdateChatOptions(ctx, c.ID, json.RawMessage(`{"offServers":["git"]}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateChatModel(ctx, c.ID, "On this computer", "qwen3-1.7b"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Chat(ctx, c.ID); got.Provider != "On this computer" || got.Model != "qwen3-1.7b" || string(got.Settings) != `{"offServers":["git"]}` {
		t.Errorf("after UpdateChatOptions then UpdateChatModel: %+v", got)
	}
	if err := s.UpdateChatOptions(ctx, c.ID, json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Chat(ctx, c.ID); got.Model != "qwen3-1.7b" || string(got.Settings) != `{}` {
		t.Errorf("after UpdateChatOptions: %+v", got)
	}
	if err := s.UpdateChatOptions(ctx, c.ID, json.RawMessage(`{`)); !errors.Is(err, ErrInvalid) {
		t.Errorf("invalid options: %v", err)
	}
}

func TestNotFoundAndInvalid(t *testing.T) {
	s := openTest(t)
	ctx := t.Context()
	chat := mustChat(t, s, Chat{Title: "x"})
	msg := mustAppend(t, s, Message{ChatID: chat.ID, Role: RoleAssistant})
	tests := []struct {
		name   string
		call   func() error
		target error
		saying string // the id or value the message must name
	}{
		{"Chat", func() error { _, err := s.Chat(ctx, "nope"); return err }, ErrNotFound, "nope"},
		{"Messages", func() error { _, err := s.Messages(ctx, "nope"); return err }, ErrNotFound, "nope"},
		{"RenameChat", func() error { return s.RenameChat(ctx, "nope", "t") }, ErrNotFound, "nope"},
		{"UpdateChatSettings", func() error { return s.UpdateChatSettings(ctx, "nope", "", "", nil) }, ErrNotFound, "nope"},
		{"DeleteChat", func() error { return s.DeleteChat(ctx, "nope") }, ErrNotFound, "nope"},
		{"AppendMessage", func() error {
			_, err := s.AppendMessage(ctx, Message{ChatID: "nope", Role: RoleUser})
			return err
		}, ErrNotFound, "nope"},
		{"UpdateMessage", func() error { return s.UpdateMessage(ctx, Message{ID: "nope"}) }, ErrNotFound, "nope"},
		{"SaveToolCall", func() error { return s.SaveToolCall(ctx, ToolCall{ID: "c1", MessageID: "nope"}) }, ErrNotFound, "nope"},
		{"Export", func() error { return s.Export(ctx, "nope", FormatJSON, &strings.Builder{}) }, ErrNotFound, "nope"},
		{"bad role", func() error {
			_, err := s.AppendMessage(ctx, Message{ChatID: chat.ID, Role: "tool"})
			return err
		}, ErrInvalid, "tool"},
		{"bad status", func() error {
			_, err := s.AppendMessage(ctx, Message{ChatID: chat.ID, Role: RoleUser, Status: "done"})
			return err
		}, ErrInvalid, "done"},
		{"bad call status", func() error { return s.SaveToolCall(ctx, ToolCall{ID: "c", MessageID: msg.ID, Status: "streaming"}) }, ErrInvalid, "streaming"},
		{"call without id", func() error { return s.SaveToolCall(ctx, ToolCall{MessageID: msg.ID}) }, ErrInvalid, msg.ID},
		{"settings not JSON", func() error {
			_, err := s.CreateChat(ctx, Chat{Settings: json.RawMessage(`{`)})
			return err
		}, ErrInvalid, "settings"},
		{"bad format", func() error { return s.Export(ctx, chat.ID, "pdf", &strings.Builder{}) }, ErrInvalid, "pdf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if !errors.Is(err, tt.target) {
				t.Fatalf("err = %v, want %v", err, tt.target)
			}
			if !strings.Contains(err.Error(), tt.saying) {
				t.Errorf("err = %q, want it to name %q", err, tt.saying)
			}
		})
	}
}

func TestMessagesAndToolCalls(t *testing.T) {
	s := openTest(t)
	ctx := t.Context()
	chat := mustChat(t, s, Chat{Title: "tools"})
	u := mustAppend(t, s, Message{ChatID: chat.ID, Role: RoleUser, Text: "list files"})
	a := mustAppend(t, s, Message{ChatID: chat.ID, Role: RoleAssistant, Status: StatusIncomplete, Model: "m1"})
	if u.Seq != 1 || a.Seq != 2 || u.ID == "" || u.Status != StatusComplete || u.CreatedAt.IsZero() {
		t.Fatalf("appended %+v and %+v; want seq 1 and 2, an id, status complete and a time", u, a)
	}

	started := t0.Add(time.Minute)
	calls := []ToolCall{
		{ID: "call_b", MessageID: a.ID, Server: "fs", Tool: "fs__list", Arguments: json.RawMessage(`{"path":"."}`), Status: CallRunning, StartedAt: started},
		{ID: "call_a", MessageID: a.ID, Server: "fs", Tool: "fs__read", Arguments: json.RawMessage(`{"path":`), Status: CallPending},
	}
	for _, c := range calls {
		if err := s.SaveToolCall(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	// Finishing call_b replaces it in place: order stays by first save.
	done := calls[0]
	done.Status, done.Result, done.DurationMs = CallDone, json.RawMessage(`{"content":[{"type":"text","text":"a.txt"}]}`), 12
	done.Task = &Task{ID: "t-1", Status: "cancelled", Message: "stopped by the user"} // it ran as an MCP task
	if err := s.SaveToolCall(ctx, done); err != nil {
		t.Fatal(err)
	}
	a.Text, a.Status, a.InputTokens, a.OutputTokens = "Here they are.", StatusComplete, 10, 20
	a.ToolCalls = []ToolCall{{ID: "call_c", Server: "fs", Tool: "fs__stat", Status: CallDenied, IsError: true}}
	if err := s.UpdateMessage(ctx, a); err != nil {
		t.Fatal(err)
	}

	msgs, err := s.Messages(ctx, chat.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2 {
		t.Fatalf("got %d messages, want 2", len(msgs))
	}
	if m := msgs[0]; m.ID != u.ID || m.Text != "list files" || m.Role != RoleUser || m.ToolCalls != nil || !m.CreatedAt.Equal(u.CreatedAt) {
		t.Errorf("message 1 = %+v, want the user message %+v", m, u)
	}
	m := msgs[1]
	if m.Text != "Here they are." || m.Status != StatusComplete || m.Model != "m1" || m.InputTokens != 10 || m.OutputTokens != 20 || m.ChatID != chat.ID {
		t.Errorf("message 2 = %+v, want the updated assistant message", m)
	}
	var order []string
	for _, c := range m.ToolCalls {
		order = append(order, c.ID+":"+c.Status)
	}
	if want := []string{"call_b:done", "call_a:pending", "call_c:denied"}; !slices.Equal(order, want) {
		t.Errorf("tool calls = %v, want %v", order, want)
	}
	b := m.ToolCalls[0]
	if b.MessageID != a.ID || b.Server != "fs" || b.Tool != "fs__list" || string(b.Arguments) != `{"path":"."}` ||
		string(b.Result) != string(done.Result) || b.DurationMs != 12 || !b.StartedAt.Equal(started) || b.Task == nil || *b.Task != *done.Task {
		t.Errorf("call_b = %+v, want what was saved (%+v)", b, done)
	}
	// Broken arguments are kept, as a JSON string, so the message still marshals.
	if got := string(m.ToolCalls[1].Arguments); got != `"{\"path\":"` {
		t.Errorf("broken arguments stored as %s, want them as a JSON string", got)
	}
	if !m.ToolCalls[2].IsError {
		t.Errorf("call_c lost IsError")
	}
	if m.ToolCalls[1].Task != nil || m.ToolCalls[2].Task != nil {
		t.Errorf("plain calls came back with a task: %+v, %+v", m.ToolCalls[1].Task, m.ToolCalls[2].Task)
	}
	if _, err := json.Marshal(msgs); err != nil {
		t.Errorf("messages do not marshal: %v", err)
	}

	empty := mustChat(t, s, Chat{})
	if got, err := s.Messages(ctx, empty.ID); err != nil || len(got) != 0 {
		t.Errorf("Messages of an empty chat = %v, %v; want none, no error", got, err)
	}
}

func TestDeleteChatCascades(t *testing.T) {
	s := openTest(t)
	ctx := t.Context()
	keep := mustChat(t, s, Chat{Title: "keep"})
	gone := mustChat(t, s, Chat{Title: "gone"})
	for _, c := range []Chat{keep, gone} {
		m := mustAppend(t, s, Message{ChatID: c.ID, Role: RoleAssistant, Text: "shared word zebra"})
		if err := s.SaveToolCall(ctx, ToolCall{ID: "c1", MessageID: m.ID, Tool: "t"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.DeleteChat(ctx, gone.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Chat(ctx, gone.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleted chat: err = %v, want ErrNotFound", err)
	}
	queries := map[string]string{
		"messages":   `SELECT count(*) FROM messages WHERE chat_id = ?`,
		"tool_calls": `SELECT count(*) FROM tool_calls t JOIN messages m ON m.id = t.message_id WHERE m.chat_id = ?`,
	}
	for table, q := range queries {
		for chatID, want := range map[string]int{gone.ID: 0, keep.ID: 1} {
			var n int
			if err := s.db.QueryRowContext(ctx, q, chatID).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != want {
				t.Errorf("%s of chat %s: %d rows, want %d", table, chatID, n, want)
			}
		}
	}
	var calls int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM tool_calls`).Scan(&calls); err != nil || calls != 1 {
		t.Errorf("tool_calls left: %d (%v), want 1 (orphans must go)", calls, err)
	}
	// The search index forgets the chat's title and messages.
	hits, err := s.Search(ctx, "zebra", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].ChatID != keep.ID {
		t.Errorf("search after delete = %+v, want only the kept chat's message", hits)
	}
	if hits, _ := s.Search(ctx, "gone", 10); len(hits) != 0 {
		t.Errorf("deleted title still found: %+v", hits)
	}
}

// TestConcurrentAppends appends from many goroutines, through two stores on
// one file (as the GUI and the CLI would), and checks every chat's messages
// are numbered 1..n with none lost.
func TestConcurrentAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	stores := []*Store{openAt(t, path), openAt(t, path)}
	ctx := t.Context()
	chats := []Chat{mustChat(t, stores[0], Chat{Title: "one"}), mustChat(t, stores[0], Chat{Title: "two"})}
	const workers, each = 8, 15
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		acks = map[string][]string{} // chat id -> message ids appended
	)
	errs := make(chan error, workers*each)
	for w := range workers {
		wg.Go(func() {
			s, chat := stores[w%2], chats[(w/2)%2]
			for i := range each {
				m, err := s.AppendMessage(ctx, Message{ChatID: chat.ID, Role: RoleUser, Text: fmt.Sprintf("w%d m%d", w, i)})
				if err != nil {
					errs <- err
					return
				}
				if err := s.SaveToolCall(ctx, ToolCall{ID: "c", MessageID: m.ID, Tool: "t", Status: CallDone}); err != nil {
					errs <- err
					return
				}
				mu.Lock()
				acks[chat.ID] = append(acks[chat.ID], m.ID)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, chat := range chats {
		msgs, err := stores[1].Messages(ctx, chat.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(msgs) != len(acks[chat.ID]) || len(msgs) != workers/2*each {
			t.Errorf("chat %s: %d messages, want %d", chat.Title, len(msgs), workers/2*each)
		}
		have := map[string]bool{}
		for i, m := range msgs {
			if m.Seq != i+1 {
				t.Errorf("chat %s: message %d has seq %d", chat.Title, i+1, m.Seq)
			}
			if len(m.ToolCalls) != 1 {
				t.Errorf("message %s has %d tool calls, want 1", m.ID, len(m.ToolCalls))
			}
			have[m.ID] = true
		}
		for _, id := range acks[chat.ID] {
			if !have[id] {
				t.Errorf("acknowledged message %s missing", id)
			}
		}
	}
}

func TestOpenRefuses(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(t *testing.T, path string)
		target error
		saying []string
	}{
		{
			name: "not a database",
			setup: func(t *testing.T, path string) {
				if err := os.WriteFile(path, []byte(strings.Repeat("this is a text file, not SQLite\n", 200)), 0o600); err != nil {
					t.Fatal(err)
				}
			},
			target: ErrNotDatabase,
			saying: []string{"move it aside"},
		},
		{
			name: "another program's database",
			setup: func(t *testing.T, path string) {
				db, err := sql.Open("sqlite", path)
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				if _, err := db.ExecContext(t.Context(), `CREATE TABLE notes (body TEXT)`); err != nil {
					t.Fatal(err)
				}
			},
			target: ErrNotDatabase,
			saying: []string{"another program", "move it aside"},
		},
		{
			name: "newer schema",
			setup: func(t *testing.T, path string) {
				s, err := Open(t.Context(), path)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := s.db.ExecContext(t.Context(), `PRAGMA user_version = 99`); err != nil {
					t.Fatal(err)
				}
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
			},
			target: ErrTooNew,
			saying: []string{"is newer than this Switchboard", fmt.Sprintf("(schema v99, this build knows v%d)", SchemaVersion), "update Switchboard"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "history.db")
			tt.setup(t, path)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Open(t.Context(), path)
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
			if !errors.Is(err, tt.target) {
				t.Errorf("err = %v, want %v", err, tt.target)
			}
			var e *Error
			if !errors.As(err, &e) || e.Path != path {
				t.Errorf("err = %#v, want *Error with Path %s", err, path)
			}
			msg := err.Error()
			for _, want := range append([]string{"history database " + path + " "}, tt.saying...) {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q lacks %q", msg, want)
				}
			}
			after, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(after) != string(before) {
				t.Errorf("Open changed a file it refused")
			}
		})
	}
}

func TestCloseTwice(t *testing.T) {
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close = %v, want the first's nil", err)
	}
	if _, err := s.ListChats(t.Context(), ListOptions{}); err == nil {
		t.Errorf("ListChats after Close succeeded")
	}
}

// A step's message carries the results of the previous step's calls in its
// own transaction; a call that is not of the message's chat fails the
// whole write. SaveToolCalls saves several in one.
func TestAppendMessageAfterCalls(t *testing.T) {
	s := openTest(t)
	ctx := t.Context()
	chat := mustChat(t, s, Chat{Title: "steps"})
	other := mustChat(t, s, Chat{Title: "other"})
	mustAppend(t, s, Message{ChatID: chat.ID, Role: RoleUser, Text: "go"})
	a := mustAppend(t, s, Message{ChatID: chat.ID, Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Tool: "t"}, {ID: "c2", Tool: "t"}}})
	foreign := mustAppend(t, s, Message{ChatID: other.ID, Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "x", Tool: "t"}}})
	done := func(id, msg string) ToolCall {
		return ToolCall{ID: id, MessageID: msg, Tool: "t", Status: CallDone, Result: json.RawMessage(`{"content":[]}`)}
	}

	_, err := s.AppendMessageAfter(ctx, Message{ChatID: chat.ID, Role: RoleAssistant, Text: "next"}, []ToolCall{done("c1", a.ID), done("x", foreign.ID)})
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("a call of another chat's message: %v, want ErrNotFound", err)
	}
	next, err := s.AppendMessageAfter(ctx, Message{ChatID: chat.ID, Role: RoleAssistant, Text: "next"}, []ToolCall{done("c1", a.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SaveToolCalls(ctx, []ToolCall{done("c2", a.ID)}); err != nil {
		t.Fatal(err)
	}
	msgs, err := s.Messages(ctx, chat.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 3 || msgs[2].ID != next.ID || msgs[2].Seq != 3 {
		t.Fatalf("messages %+v: want the failed append left out, then next", msgs)
	}
	for _, c := range msgs[1].ToolCalls {
		if c.Status != CallDone || string(c.Result) != `{"content":[]}` {
			t.Errorf("call %s = %s %s, want done with its result", c.ID, c.Status, c.Result)
		}
	}
	if got, _ := s.Messages(ctx, other.ID); got[0].ToolCalls[0].Status != CallPending {
		t.Errorf("the other chat's call became %s", got[0].ToolCalls[0].Status)
	}
	if err := s.SaveToolCalls(ctx, []ToolCall{done("c1", "nope")}); !errors.Is(err, ErrNotFound) {
		t.Errorf("SaveToolCalls of no message: %v, want ErrNotFound", err)
	}
}
