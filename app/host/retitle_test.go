package host

import (
	"path/filepath"
	"testing"

	"github.com/switchboard-app/switchboard/app/history"
)

// Editing the first message retitles a chat titled by it; a title the user
// gave, or an edit of a later message, keeps the title.
func TestRetitledOnEdit(t *testing.T) {
	ctx := t.Context()
	h, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	chatWith := func(title string) (string, []history.Message) {
		c, err := h.CreateChat(ctx, history.Chat{Title: title})
		if err != nil {
			t.Fatal(err)
		}
		var ms []history.Message
		for _, m := range []history.Message{
			{Role: history.RoleUser, Text: "Write hello.txt"}, {Role: history.RoleAssistant, Text: "Done."},
			{Role: history.RoleUser, Text: "Now bye.txt"},
		} {
			m.ChatID = c.ID
			got, err := h.AppendMessage(ctx, m)
			if err != nil {
				t.Fatal(err)
			}
			ms = append(ms, got)
		}
		return c.ID, ms
	}
	tests := []struct {
		name, title string
		edit        int // index of the edited message
		want        string
	}{
		{"first message titled it", "Write hello.txt", 0, "Write notes.md"},
		{"the user renamed it", "My files", 0, "My files"},
		{"a later message", "Write hello.txt", 2, "Write hello.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, ms := chatWith(tt.title)
			s := storedHistory{c: &Chats{hist: h}}
			if _, err := s.Rewind(ctx, id, ms[tt.edit].ID, "Write notes.md"); err != nil {
				t.Fatal(err)
			}
			c, err := h.Chat(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if c.Title != tt.want {
				t.Errorf("title = %q, want %q", c.Title, tt.want)
			}
		})
	}
}
