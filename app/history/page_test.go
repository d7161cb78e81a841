package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
)

// seqs returns the seq numbers of ms.
func seqs(ms []Message) []int {
	out := make([]int, len(ms))
	for i, m := range ms {
		out[i] = m.Seq
	}
	return out
}

// span returns from, from+1, …, to.
func span(from, to int) []int {
	var out []int
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}

func TestMessagesPage(t *testing.T) {
	s := openTest(t)
	ctx := t.Context()
	chat := mustChat(t, s, Chat{Title: "long"})
	const n = 25
	for i := 1; i <= n; i++ {
		m := Message{ChatID: chat.ID, Role: RoleUser, Text: fmt.Sprintf("message %d", i)}
		if i%2 == 0 {
			m.Role = RoleAssistant
			// Every assistant message has two calls, so the join yields
			// several rows per message and a page limit must count messages.
			m.ToolCalls = []ToolCall{
				{ID: fmt.Sprintf("c%d-b", i), Tool: "fs__list", Arguments: json.RawMessage(`{}`), Status: CallDone},
				{ID: fmt.Sprintf("c%d-a", i), Tool: "fs__read", Status: CallError, IsError: true},
			}
		}
		mustAppend(t, s, m)
	}
	empty := mustChat(t, s, Chat{Title: "empty"})
	all, err := s.Messages(ctx, chat.ID)
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name          string
		chat          string
		before, limit int
		want          []int
		hasMore       bool
		hasNewer      bool // messages from seq before on remain
		err           error
	}{
		{name: "first page is the end", chat: chat.ID, limit: 10, want: span(16, 25), hasMore: true},
		{name: "next page", chat: chat.ID, before: 16, limit: 10, want: span(6, 15), hasMore: true, hasNewer: true},
		{name: "last page is short", chat: chat.ID, before: 6, limit: 10, want: span(1, 5), hasNewer: true},
		{name: "page ending exactly at the first message", chat: chat.ID, before: 11, limit: 10, want: span(1, 10), hasNewer: true},
		{name: "page one short of the first message", chat: chat.ID, before: 12, limit: 10, want: span(2, 11), hasMore: true, hasNewer: true},
		{name: "limit equal to the chat", chat: chat.ID, limit: n, want: span(1, n)},
		{name: "limit over the chat", chat: chat.ID, limit: 100, want: span(1, n)},
		{name: "one before the last", chat: chat.ID, before: n, limit: 1, want: []int{n - 1}, hasMore: true, hasNewer: true},
		{name: "before past the end", chat: chat.ID, before: 1000, limit: 3, want: span(23, 25), hasMore: true},
		{name: "before the first message", chat: chat.ID, before: 1, limit: 10, want: nil, hasNewer: true},
		{name: "empty chat", chat: empty.ID, limit: 10, want: nil},
		{name: "chat not found", chat: "nope", limit: 10, err: ErrNotFound},
		{name: "limit zero", chat: chat.ID, limit: 0, err: ErrInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			page, err := s.MessagesPage(t.Context(), tc.chat, tc.before, tc.limit)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("MessagesPage = %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := seqs(page.Messages); !slices.Equal(got, tc.want) || page.HasMore != tc.hasMore || page.HasNewer != tc.hasNewer {
				t.Fatalf("MessagesPage(before %d, limit %d) = seqs %v hasMore %v hasNewer %v; want %v, %v, %v",
					tc.before, tc.limit, got, page.HasMore, page.HasNewer, tc.want, tc.hasMore, tc.hasNewer)
			}
			// Each message is the one Messages returns, its tool calls with it in order.
			for _, m := range page.Messages {
				w := all[m.Seq-1]
				got, _ := json.Marshal(m)
				want, _ := json.Marshal(w)
				if string(got) != string(want) {
					t.Errorf("message %d = %s\nwant %s", m.Seq, got, want)
				}
				if m.Role == RoleAssistant && len(m.ToolCalls) != 2 {
					t.Errorf("message %d has %d tool calls, want 2", m.Seq, len(m.ToolCalls))
				}
			}
		})
	}

	// Walking back page by page from the end reads every message once.
	var walked []int
	for before := 0; ; {
		page, err := s.MessagesPage(ctx, chat.ID, before, 7)
		if err != nil {
			t.Fatal(err)
		}
		walked = append(seqs(page.Messages), walked...)
		if !page.HasMore {
			break
		}
		before = page.Messages[0].Seq
	}
	if !slices.Equal(walked, span(1, n)) {
		t.Errorf("walking pages of 7 read %v, want 1…%d", walked, n)
	}
}

func TestMessageSeq(t *testing.T) {
	s := openTest(t)
	chat := mustChat(t, s, Chat{Title: "one"})
	other := mustChat(t, s, Chat{Title: "two"})
	var ids []string
	for i := 1; i <= 3; i++ {
		ids = append(ids, mustAppend(t, s, Message{ChatID: chat.ID, Role: RoleUser, Text: fmt.Sprintf("m%d", i)}).ID)
	}
	tests := []struct {
		name, chat, id string
		want           int
		err            error
	}{
		{name: "first", chat: chat.ID, id: ids[0], want: 1},
		{name: "last", chat: chat.ID, id: ids[2], want: 3},
		{name: "message of another chat", chat: other.ID, id: ids[1], err: ErrNotFound},
		{name: "no such message", chat: chat.ID, id: "nope", err: ErrNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.MessageSeq(t.Context(), tc.chat, tc.id)
			if !errors.Is(err, tc.err) || got != tc.want {
				t.Fatalf("MessageSeq = %d, %v; want %d, %v", got, err, tc.want, tc.err)
			}
		})
	}
}
