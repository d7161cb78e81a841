package gui

import (
	"errors"
	"fmt"
	"testing"

	"github.com/switchboard-app/switchboard/app/history"
)

func TestChatMessagesPage(t *testing.T) {
	a := newChatApp(t)
	c, err := a.ChatPage.NewChat("", "")
	if err != nil {
		t.Fatal(err)
	}
	h, err := history.Open(t.Context(), a.dir.History()) // beside the host's
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	for i := 1; i <= 7; i++ {
		m := history.Message{ChatID: c.ID, Role: history.RoleUser, Text: fmt.Sprintf("m%d", i)}
		if i == 6 {
			m.Role = history.RoleAssistant
			m.ToolCalls = []history.ToolCall{{ID: "call-1", Tool: "fs__list", Status: history.CallDone}}
		}
		if _, err := h.AppendMessage(t.Context(), m); err != nil {
			t.Fatal(err)
		}
	}
	old := MaxMessagePage
	MaxMessagePage = 4
	t.Cleanup(func() { MaxMessagePage = old })

	tests := []struct {
		name          string
		before, limit int
		want          []string
		hasMore       bool
	}{
		{name: "last page", limit: 3, want: []string{"m5", "m6", "m7"}, hasMore: true},
		{name: "older page", before: 5, limit: 3, want: []string{"m2", "m3", "m4"}, hasMore: true},
		{name: "first messages", before: 2, limit: 3, want: []string{"m1"}},
		{name: "limit capped", limit: 100, want: []string{"m4", "m5", "m6", "m7"}, hasMore: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := a.ChatPage.ChatMessagesPage(c.ID, tc.before, tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range p.Messages {
				got = append(got, m.Text)
				if m.Text == "m6" && (len(m.ToolCalls) != 1 || m.ToolCalls[0].ID != "call-1") {
					t.Errorf("m6 tool calls = %+v, want call-1", m.ToolCalls)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) || p.HasMore != tc.hasMore {
				t.Errorf("page = %v hasMore %v, want %v %v", got, p.HasMore, tc.want, tc.hasMore)
			}
		})
	}
	if _, err := a.ChatPage.ChatMessagesPage("no-such-chat", 0, 10); !errors.Is(err, history.ErrNotFound) {
		t.Errorf("unknown chat: %v, want ErrNotFound", err)
	}
}
