package chat

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/history"
)

// oneStore keeps results in memory, for one chat.
type oneStore map[string]string

func (s oneStore) Keep(_ context.Context, chatID, callID, _, text string) (Kept, error) {
	id := chatID + ":" + callID
	s[id] = text
	return Kept{ID: id}, nil
}

func (s oneStore) Read(context.Context, string, string, int, int) (KeptLines, error) {
	return KeptLines{}, ErrNotKept
}

func (s oneStore) Search(context.Context, string, string, string) ([]KeptHit, error) {
	return nil, nil
}

// TestSetAsideRecordsAStoredResult: a result the model never saw that is
// already in the history (its step's turn ended after it: a stop, the
// step limit, a failed request) is set aside there, in the stored result:
// another engine reading the chat (the next run of switchboard chat) stubs
// it as set aside too, not as one to call again. With no store it is not
// kept, and its stub still says the tool ran.
func TestSetAsideRecordsAStoredResult(t *testing.T) {
	for _, tc := range []struct {
		name  string
		store ResultStore
		id    bool
	}{
		{"kept", oneStore{}, true},
		{"no store", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			hist, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { hist.Close() })
			c, err := hist.CreateChat(ctx, history.Chat{Title: "t"})
			if err != nil {
				t.Fatal(err)
			}
			res, _ := json.Marshal(mcp.NewToolResultText("FILE " + strings.Repeat("file text ", 100)))
			for _, m := range []history.Message{
				{ChatID: c.ID, Role: history.RoleUser, Text: "read it", Status: history.StatusComplete},
				{ChatID: c.ID, Role: history.RoleAssistant, Status: history.StatusComplete, ToolCalls: []history.ToolCall{
					{ID: "c1", Tool: "fs__read", Arguments: json.RawMessage(`{}`), Status: CallDone, Result: res},
				}},
				{ChatID: c.ID, Role: history.RoleUser, Text: "go on", Status: history.StatusComplete},
			} {
				if _, err := hist.AppendMessage(ctx, m); err != nil {
					t.Fatal(err)
				}
			}
			stubOf := func() (string, *run) {
				e := New(Options{History: hist, Results: tc.store})
				r := e.runFor(Turn{ChatID: c.ID, ContextWindow: 3000}, e.convo(c.ID, false))
				r.set = &toolSet{}
				if err := r.sync(ctx); err != nil {
					t.Fatal(err)
				}
				return r.conv.parts[1].stubbed[1].Text, r
			}
			if s, r := stubOf(); !strings.Contains(s, "call the tool again") {
				t.Fatalf("before: %s", s)
			} else if changed, err := setAside(ctx, ctx, r, measureCut(r, nil, 2, 0, 0)); err != nil || !changed {
				t.Fatalf("set aside: %v %v", changed, err)
			}
			s, r := stubOf() // another engine, from the history
			want := "left out to save context before you saw it; the tool ran already: do not call it again"
			if tc.id {
				want += `, read_result with id "` + c.ID + `:c1" reads it]`
			}
			if !strings.Contains(s, want) || len(r.conv.parts[1].kept) > 0 != tc.id {
				t.Fatalf("read again: %s (kept %v); want %s", s, r.conv.parts[1].kept, want)
			}
			if r.conv.parts[1].msgs[1].Text != "FILE "+strings.Repeat("file text ", 100) {
				t.Errorf("the result whole changed: %s", r.conv.parts[1].msgs[1].Text)
			}
		})
	}
}
