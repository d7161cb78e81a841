package history

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// exportFixture stores a chat with every kind of content an export shows:
// markdown text, a failed message, tool calls with text, image, error and
// backtick-laden results, broken arguments and a call that never finished.
func exportFixture(t *testing.T) (*Store, Chat) {
	t.Helper()
	s := openTest(t)
	ctx := t.Context()
	c := mustChat(t, s, Chat{ID: "chat-1", Title: "Tidy the <notes> folder", Provider: "openai", Model: "gpt-4o",
		Settings: json.RawMessage(`{"offServers":["web"]}`), CreatedAt: t0})
	at := func(sec int) time.Time { return t0.Add(time.Duration(sec) * time.Second) }
	mustAppend(t, s, Message{ID: "m-1", ChatID: c.ID, Role: RoleUser, Text: "List my notes and show the first one.", CreatedAt: at(10)})
	a := mustAppend(t, s, Message{ID: "m-2", ChatID: c.ID, Role: RoleAssistant, Status: StatusIncomplete, Model: "gpt-4o", CreatedAt: at(11)})
	calls := []ToolCall{
		{ID: "call_1", Server: "workspace", Tool: "workspace__list_files", Arguments: json.RawMessage(`{"path":"notes","recursive":false}`),
			Result: json.RawMessage(`{"content":[{"type":"text","text":"a.md\nb.md"}]}`), Status: CallDone, StartedAt: at(12), DurationMs: 41},
		{ID: "call_2", Server: "workspace", Tool: "workspace__read_file", Arguments: json.RawMessage(`{"path":"notes/a.md"}`),
			Result: json.RawMessage(`{"content":[{"type":"text","text":"# A\n` + "```go\\nfmt.Println(1)\\n```" + `"},{"type":"image","mimeType":"image/png","data":"iVBORw0KGgo="}]}`),
			Status: CallDone, StartedAt: at(13), DurationMs: 7},
		{ID: "call_3", Server: "workspace", Tool: "workspace__delete_file", Arguments: json.RawMessage(`{"path":`),
			Result:  json.RawMessage(`{"content":[{"type":"text","text":"The user denied this tool call."}],"isError":true}`),
			IsError: true, Status: CallDenied, StartedAt: at(14)},
		{ID: "call_4", Server: "web", Tool: "web__fetch", Arguments: json.RawMessage(`{"url":"https://example.com"}`), Status: CallRunning, StartedAt: at(15)},
	}
	for _, tc := range calls {
		tc.MessageID = a.ID
		if err := s.SaveToolCall(ctx, tc); err != nil {
			t.Fatal(err)
		}
	}
	a.Text, a.Status, a.InputTokens, a.OutputTokens = "You have **two** notes:\n\n- a.md\n- b.md\n", StatusComplete, 120, 35
	if err := s.UpdateMessage(ctx, a); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, Message{ID: "m-3", ChatID: c.ID, Role: RoleAssistant, Model: "gpt-4o", Status: StatusError,
		Error: "provider returned 429: rate limited", CreatedAt: at(20)})
	return s, c
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the export (go test -update rewrites it after review)\n--- got\n%s", path, got)
	}
}

func TestExportGolden(t *testing.T) {
	tests := []struct {
		format Format
		file   string
	}{
		{FormatMarkdown, "export.md"},
		{FormatJSON, "export.json"},
	}
	for _, tt := range tests {
		t.Run(string(tt.format), func(t *testing.T) {
			s, c := exportFixture(t)
			var b bytes.Buffer
			if err := s.Export(t.Context(), c.ID, tt.format, &b); err != nil {
				t.Fatal(err)
			}
			golden(t, tt.file, b.Bytes())
		})
	}
}

// TestExportJSONRoundTrip checks the JSON export against the store itself,
// so the golden file cannot enshrine a wrong value.
func TestExportJSONRoundTrip(t *testing.T) {
	s, c := exportFixture(t)
	var b bytes.Buffer
	if err := s.Export(t.Context(), c.ID, FormatJSON, &b); err != nil {
		t.Fatal(err)
	}
	var doc ExportDoc
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("export is not JSON: %v", err)
	}
	msgs, err := s.Messages(t.Context(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := s.Chat(t.Context(), c.ID)
	if doc.Format != "switchboard.chat" || doc.Version != ExportVersion || doc.Chat.ID != c.ID || doc.Chat.Title != c.Title ||
		!doc.Chat.UpdatedAt.Equal(stored.UpdatedAt) || compact(t, doc.Chat.Settings) != string(stored.Settings) {
		t.Errorf("chat = %+v, want %+v", doc.Chat, stored)
	}
	if len(doc.Messages) != len(msgs) {
		t.Fatalf("%d messages, want %d", len(doc.Messages), len(msgs))
	}
	for i, m := range msgs {
		em := doc.Messages[i]
		if em.ID != m.ID || em.Seq != m.Seq || em.Text != m.Text || em.Status != m.Status || em.Error != m.Error ||
			!em.CreatedAt.Equal(m.CreatedAt) || len(em.ToolCalls) != len(m.ToolCalls) || em.ToolCalls == nil {
			t.Errorf("message %d = %+v, want %+v", i, em, m)
			continue
		}
		for j, tc := range m.ToolCalls {
			et := em.ToolCalls[j]
			if et.ID != tc.ID || et.Tool != tc.Tool || compact(t, et.Arguments) != string(tc.Arguments) || compact(t, et.Result) != string(tc.Result) ||
				et.IsError != tc.IsError || et.Status != tc.Status || et.StartedAt == nil || !et.StartedAt.Equal(tc.StartedAt) {
				t.Errorf("call %s = %+v, want %+v", tc.ID, et, tc)
			}
		}
	}
}

// compact undoes the export's indentation; null is how an unset value exports.
func compact(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	if string(raw) == "null" {
		return ""
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestExportMarkdownShows(t *testing.T) {
	s, c := exportFixture(t)
	var b strings.Builder
	if err := s.Export(t.Context(), c.ID, FormatMarkdown, &b); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"# Tidy the &lt;notes&gt; folder\n", // not an HTML tag
		"## User · 2025-03-14 09:27:03 UTC\n\nList my notes",
		"## Assistant (gpt-4o) · 2025-03-14 09:27:04 UTC",
		"<summary>Tool call: workspace__list_files — done, 41 ms</summary>",
		"\"recursive\": false",
		"````\n# A\n```go\nfmt.Println(1)\n```\n[image image/png, 12 bytes base64]\n````", // a longer fence around backticks
		"Result (error):",
		"No result.",
		"> **error:** provider returned 429: rate limited",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	if strings.Count(md, "<details>") != 4 || strings.Count(md, "</details>") != 4 {
		t.Errorf("want 4 balanced <details> blocks")
	}
}

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]Format{"markdown": FormatMarkdown, "MD": FormatMarkdown, " json ": FormatJSON} {
		if got, err := ParseFormat(in); err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseFormat("pdf"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParseFormat(pdf) = %v, want ErrInvalid", err)
	}
}
