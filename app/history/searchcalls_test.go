package history

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// textResult is a CallToolResult JSON of text parts (and an image part,
// whose data is no words to find).
func textResult(texts ...string) json.RawMessage {
	content := []map[string]string{{"type": "image", "data": "aW1hZ2VzdHJpbmc=", "mimeType": "image/png"}}
	for _, t := range texts {
		content = append(content, map[string]string{"type": "text", "text": t})
	}
	b, _ := json.Marshal(map[string]any{"content": content})
	return b
}

// TestSearchFindsToolCalls: words in a call's arguments and in the text of
// its result are found, the result saved after its message (as the engine
// saves it, with the next step) and when the call is saved again; not
// words past the part of a call indexed, nor a result's image data; a
// result that is not JSON stops nothing else from being indexed.
func TestSearchFindsToolCalls(t *testing.T) {
	s := openAt(t, filepath.Join(t.TempDir(), "history.db"))
	c := mustChat(t, s, Chat{Title: "Files"})
	mustAppend(t, s, Message{ChatID: c.ID, Role: RoleUser, Text: "read my notes"})
	a := mustAppend(t, s, Message{ChatID: c.ID, Role: RoleAssistant, Text: "", ToolCalls: []ToolCall{
		{ID: "c1", Server: "fs", Tool: "fs__read_text_file", Arguments: json.RawMessage(`{"path":"/home/me/quarterly-report.txt"}`), Status: CallPending},
		{ID: "c2", Server: "fs", Tool: "fs__read_text_file", Arguments: json.RawMessage(`{"path":"/tmp/broken"}`), Status: CallPending},
	}})
	// The results come with the next step's write.
	long := strings.Repeat("filler ", indexedCallChars/7+10) + "beyondtheindex"
	if err := s.SaveToolCalls(t.Context(), []ToolCall{
		{ID: "c1", MessageID: a.ID, Server: "fs", Tool: "fs__read_text_file", Arguments: json.RawMessage(`{"path":"/home/me/quarterly-report.txt"}`),
			Result: textResult("revenue rose in zanzibar", long), Status: CallDone},
		{ID: "c2", MessageID: a.ID, Server: "fs", Tool: "fs__read_text_file", Arguments: json.RawMessage(`{"path":"/tmp/broken"}`),
			Result: json.RawMessage(`not json at all`), Status: CallDone},
	}); err != nil {
		t.Fatal(err)
	}
	later := mustAppend(t, s, Message{ChatID: c.ID, Role: RoleAssistant, Text: "the report says it rose"})
	for _, tc := range []struct {
		query, want string
	}{
		{"zanzibar", a.ID},           // a result's text
		{"quarterly report", a.ID},   // an argument
		{"revenue zanzibar", a.ID},   // words of one result
		{"broken", a.ID},             // the other call's argument: its result is not JSON
		{"report says", later.ID},    // a message after it
		{"beyondtheindex", ""},       // past the part indexed
		{"aW1hZ2VzdHJpbmc", ""},      // an image's data
		{"zanzibar report says", ""}, // words of two messages
	} {
		hits, err := s.Search(t.Context(), tc.query, 10)
		if err != nil {
			t.Fatalf("Search(%q): %v", tc.query, err)
		}
		got := ""
		if len(hits) > 0 {
			got = hits[0].MessageID
		}
		if got != tc.want || len(hits) > 1 {
			t.Errorf("Search(%q) = %+v; want message %q", tc.query, hits, tc.want)
			continue
		}
		if tc.want == a.ID && !strings.Contains(hits[0].Snippet, MarkStart) {
			t.Errorf("Search(%q) snippet %q marks no word", tc.query, hits[0].Snippet)
		}
	}

	// The call saved again with another result: found by its new words only.
	if err := s.SaveToolCall(t.Context(), ToolCall{ID: "c1", MessageID: a.ID, Server: "fs", Tool: "fs__read_text_file",
		Arguments: json.RawMessage(`{"path":"/home/me/quarterly-report.txt"}`), Result: textResult("costs fell in timbuktu"), Status: CallDone}); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]int{"timbuktu": 1, "zanzibar": 0} {
		if hits, err := s.Search(t.Context(), q, 10); err != nil || len(hits) != want {
			t.Errorf("after the call was saved again, Search(%q) = %+v, %v; want %d hits", q, hits, err, want)
		}
	}
}

// TestUpgradeFromV6IndexesToolCalls opens a database v6 left, whose index
// held no calls' arguments or results: after the upgrade its old calls are
// found by them, and its titles and messages as before.
func TestUpgradeFromV6IndexesToolCalls(t *testing.T) {
	slowIndex(t)
	path := filepath.Join(t.TempDir(), "history.db")
	old := openAtVersion(t, path, 6)
	for _, q := range []string{
		`INSERT INTO chats (id, title, created_at, updated_at) VALUES ('chat1', 'Orchard', 0, 0)`,
		`INSERT INTO messages (id, chat_id, seq, role, text, status, created_at) VALUES ('m1', 'chat1', 1, 'user', 'grapefruit please', 'complete', 0)`,
		`INSERT INTO messages (id, chat_id, seq, role, text, status, created_at) VALUES ('m2', 'chat1', 2, 'assistant', 'guava', 'complete', 0)`,
		`INSERT INTO tool_calls (message_id, call_id, ord, server, tool, arguments, result, status)
			VALUES ('m2', 'c1', 1, 'farm', 'farm__pick', '{"row":"eastfield"}', '{"content":[{"type":"text","text":"picked persimmons"}]}', 'done')`,
	} {
		if _, err := old.db.ExecContext(t.Context(), q); err != nil {
			t.Fatal(err)
		}
	}
	// As v6 indexed them: text and tool names.
	for _, q := range []string{
		`DELETE FROM search WHERE rowid IN (SELECT pk FROM search_pending)`,
		`INSERT INTO search (rowid, body, tools)
			SELECT m.pk, m.text, coalesce((SELECT group_concat(t.server || ' ' || t.tool, ' ') FROM tool_calls t WHERE t.message_id = m.id), '')
			FROM search_pending p JOIN messages m ON m.pk = p.pk`,
		`DELETE FROM search_pending`,
	} {
		if _, err := old.db.ExecContext(t.Context(), q); err != nil {
			t.Fatal(err)
		}
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	s := openAt(t, path)
	for q, want := range map[string]string{"grapefruit": "m1", "guava": "m2", "farm__pick": "m2", "persimmons": "m2", "eastfield": "m2", "orchard": ""} {
		if hits, err := s.Search(t.Context(), q, 5); err != nil || len(hits) != 1 || hits[0].MessageID != want {
			t.Errorf("Search(%q) = %+v, %v; want message %q", q, hits, err, want)
		}
	}
}
