package history

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// A summary the user asked for (Compact now) says so when read back, one
// the context window made does not; the chat's first user message is found.
func TestSummaryAskedAndFirstUserMessage(t *testing.T) {
	s := openTest(t)
	ctx := t.Context()
	c, err := s.CreateChat(ctx, Chat{Title: "t"})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Message{
		{Role: RoleUser, Text: "first"}, {Role: RoleSummary, Text: "auto"},
		{Role: RoleUser, Text: "second"}, {Role: RoleSummary, Text: "asked", Asked: true},
	} {
		m.ChatID = c.ID
		if _, err := s.AppendMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	ms, err := s.Messages(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if ms[1].Asked || !ms[3].Asked {
		t.Errorf("asked = %v, %v; want false, true", ms[1].Asked, ms[3].Asked)
	}
	first, err := s.FirstUserMessage(ctx, c.ID)
	if err != nil || first.Text != "first" {
		t.Errorf("first user message = %q, %v", first.Text, err)
	}
}

// The Markdown export keeps the partial text of a stopped answer, as the
// JSON export and the chat do.
func TestExportKeepsStoppedAnswer(t *testing.T) {
	s := openTest(t)
	ctx := t.Context()
	c, err := s.CreateChat(ctx, Chat{Title: "t"})
	if err != nil {
		t.Fatal(err)
	}
	const partial = "The first three steps are: mix, knead"
	for _, m := range []Message{
		{Role: RoleUser, Text: "How is bread made?"},
		{Role: RoleAssistant, Text: partial, Status: StatusCancelled, Error: "Stopped."},
	} {
		m.ChatID = c.ID
		if _, err := s.AppendMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []Format{FormatMarkdown, FormatJSON} {
		var b bytes.Buffer
		if err := s.Export(ctx, c.ID, f, &b); err != nil {
			t.Fatal(err)
		}
		text := b.String()
		if f == FormatJSON {
			var doc ExportDoc
			if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			text = doc.Messages[1].Text
		}
		if !strings.Contains(text, partial) {
			t.Errorf("%s export lacks the stopped answer's text:\n%s", f, b.String())
		}
	}
}
