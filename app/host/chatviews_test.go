package host

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/history"
)

func TestStoredCallView(t *testing.T) {
	delegated := `{"content":[{"type":"text","text":"answer"}],"structuredContent":{"answer":"answer","steps":[` +
		`{"tool":"files__echo","server":"files","arguments":{"text":"x"},"result":"echo: x","durationMs":2},` +
		`{"tool":"files__fail","server":"files","arguments":{},"result":"no such file","isError":true,"durationMs":1}]}}`
	for _, tt := range []struct {
		name string
		call history.ToolCall
		want ToolCallView
	}{
		{
			name: "the server's own name, arguments as text, the result typed",
			call: history.ToolCall{ID: "c", Server: "everything", Tool: "everything__echo", Arguments: json.RawMessage(`{"message":"hi"}`),
				Result: json.RawMessage(`{"content":[{"type":"text","text":"Echo: hi"}]}`), Status: "done", DurationMs: 3},
			want: ToolCallView{ID: "c", Name: "everything__echo", Server: "everything", Tool: "echo", Args: `{"message":"hi"}`, Status: "done", DurationMs: 3,
				Result: &CallResult{Content: []ContentView{{Type: "text", Text: "Echo: hi"}}, DurationMs: 3}},
		},
		{
			name: "arguments that were not JSON come back as the text the model sent",
			call: history.ToolCall{ID: "c", Server: "s", Tool: "s__t", Arguments: json.RawMessage(`"{\"broken"`), Status: "pending"},
			want: ToolCallView{ID: "c", Name: "s__t", Server: "s", Tool: "t", Args: `{"broken`, Status: "pending"},
		},
		{
			name: "a failed call's error is its result text",
			call: history.ToolCall{ID: "c", Server: "s", Tool: "s__t", Arguments: json.RawMessage(`{}`), IsError: true, Status: "error",
				Result: json.RawMessage(`{"isError":true,"content":[{"type":"text","text":"boom"}]}`)},
			want: ToolCallView{ID: "c", Name: "s__t", Server: "s", Tool: "t", Args: `{}`, Status: "error", IsError: true, Error: "boom",
				Result: &CallResult{IsError: true, Content: []ContentView{{Type: "text", Text: "boom"}}}},
		},
		{
			name: "a call run as an MCP task keeps how its task ended",
			call: history.ToolCall{ID: "c", Server: "everything", Tool: "everything__research", Arguments: json.RawMessage(`{}`), IsError: true, Status: "error",
				Result: json.RawMessage(`{"isError":true,"content":[{"type":"text","text":"cancelled"}]}`), Task: &history.Task{ID: "t1", Status: "cancelled", Message: "stopped"}},
			want: ToolCallView{ID: "c", Name: "everything__research", Server: "everything", Tool: "research", Args: `{}`, Status: "error", IsError: true, Error: "cancelled",
				Task:   &TaskView{ID: "t1", Status: "cancelled", Message: "stopped"},
				Result: &CallResult{IsError: true, Content: []ContentView{{Type: "text", Text: "cancelled"}}}},
		},
		{
			name: "a delegated call's steps come back from its structured result",
			call: history.ToolCall{ID: "a1", Server: "files", Tool: "ask_files", Arguments: json.RawMessage(`{"query":"q"}`), Status: "done", DurationMs: 9,
				Result: json.RawMessage(delegated)},
			want: ToolCallView{ID: "a1", Name: "ask_files", Server: "files", Tool: "ask_files", Args: `{"query":"q"}`, Status: "done", DurationMs: 9,
				Steps: []ToolCallView{
					{ID: "a1/0", Index: 0, Name: "files__echo", Server: "files", Tool: "echo", Args: `{"text":"x"}`, Status: "done", DurationMs: 2, Parent: "a1",
						Result: &CallResult{Content: []ContentView{{Type: "text", Text: "echo: x"}}, DurationMs: 2}},
					{ID: "a1/1", Index: 1, Name: "files__fail", Server: "files", Tool: "fail", Args: `{}`, Status: "error", IsError: true, Error: "no such file",
						DurationMs: 1, Parent: "a1", Result: &CallResult{IsError: true, Content: []ContentView{{Type: "text", Text: "no such file"}}, DurationMs: 1}},
				}},
		},
		{
			name: "a delegation stopped midway keeps its steps, each as it ended",
			call: history.ToolCall{ID: "a1", Server: "files", Tool: "ask_files", Arguments: json.RawMessage(`{}`), Status: "cancelled", IsError: true,
				Result: json.RawMessage(`{"isError":true,"content":[{"type":"text","text":"stopped"}],"structuredContent":{"server":"files","error":"stopped","steps":[` +
					`{"tool":"files__echo","server":"files","arguments":{},"result":"ok","durationMs":2,"status":"done"},` +
					`{"tool":"files__slow","server":"files","arguments":{},"result":"stopped","isError":true,"durationMs":5,"status":"cancelled"}]}}`)},
			want: ToolCallView{ID: "a1", Name: "ask_files", Server: "files", Tool: "ask_files", Args: `{}`, Status: "cancelled", IsError: true, Error: "stopped",
				Steps: []ToolCallView{
					{ID: "a1/0", Index: 0, Name: "files__echo", Server: "files", Tool: "echo", Args: `{}`, Status: "done", DurationMs: 2, Parent: "a1",
						Result: &CallResult{Content: []ContentView{{Type: "text", Text: "ok"}}, DurationMs: 2}},
					{ID: "a1/1", Index: 1, Name: "files__slow", Server: "files", Tool: "slow", Args: `{}`, Status: "cancelled", IsError: true, Error: "stopped",
						DurationMs: 5, Parent: "a1", Result: &CallResult{IsError: true, Content: []ContentView{{Type: "text", Text: "stopped"}}, DurationMs: 5}},
				}},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := storedCallView(0, tt.call)
			if tt.want.Steps != nil { // the parent's result is checked by the steps it yields
				got.Result = nil
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// The stored chats' views carry times as RFC 3339 text and a message's
// calls as [], never null (TestChatViewsAreTyped in app/gui checks they
// hold no raw JSON bytes or time.Time).
func TestChatViewsOfStoredChats(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	c := chatView(history.Chat{ID: "c", Settings: json.RawMessage(`{"offServers":["git"]}`), CreatedAt: at, UpdatedAt: at.Add(time.Second)})
	if c.CreatedAt != "2026-03-04T05:06:07Z" || c.UpdatedAt != "2026-03-04T05:06:08Z" || !reflect.DeepEqual(c.Options.OffServers, []string{"git"}) {
		t.Fatalf("chat %+v", c)
	}
	m := messageViews([]history.Message{{ID: "m", CreatedAt: at, ToolCalls: []history.ToolCall{{ID: "x"}, {ID: "y"}}}}, false)
	if m[0].CreatedAt != "2026-03-04T05:06:07Z" || m[0].ToolCalls[1].Index != 1 {
		t.Fatalf("message %+v", m[0])
	}
	if m := messageViews([]history.Message{{ID: "m"}}, false); m[0].CreatedAt != "" || m[0].ToolCalls == nil {
		t.Fatalf("a message without calls or time: %+v", m[0]) // toolCalls is [], never null
	}
}

// A call stored without its result is, when no turn of the chat runs, one
// whose result the app lost as it stopped: the card says so (as the model
// is told), not "waiting for approval"; while a turn runs it is in flight.
func TestStoredCallWithoutResult(t *testing.T) {
	done := json.RawMessage(`{"content":[{"type":"text","text":"ok"}]}`)
	calls := []history.ToolCall{
		{ID: "a", Tool: "w__write", Status: chat.CallPending},
		{ID: "b", Tool: "w__write", Status: chat.CallRunning},
		{ID: "c", Tool: "w__read", Status: chat.CallDone, Result: done},
	}
	tests := []struct {
		running bool
		want    []string // each call's status
	}{
		{running: false, want: []string{chat.CallError, chat.CallError, chat.CallDone}},
		{running: true, want: []string{chat.CallPending, chat.CallRunning, chat.CallDone}},
	}
	for _, tt := range tests {
		m := messageViews([]history.Message{{ID: "m", ToolCalls: calls}}, tt.running)
		for i, c := range m[0].ToolCalls {
			if c.Status != tt.want[i] {
				t.Errorf("running %v, call %s: status %q, want %q", tt.running, c.ID, c.Status, tt.want[i])
			}
			if lost := c.Status == chat.CallError; lost != (c.Error == chat.LostResult) || lost != c.IsError {
				t.Errorf("running %v, call %s: error %q (isError %v)", tt.running, c.ID, c.Error, c.IsError)
			}
		}
	}
}
