package gui

import (
	"encoding/json"
	"reflect"
	"strings"
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

// Views carry no raw JSON bytes and no time.Time: both reach TypeScript as
// number[] / any. Timestamps are RFC 3339.
func TestChatViewsAreTyped(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	c := chatView(history.Chat{ID: "c", Settings: json.RawMessage(`{"offServers":["git"]}`), CreatedAt: at, UpdatedAt: at.Add(time.Second)})
	if c.CreatedAt != "2026-03-04T05:06:07Z" || c.UpdatedAt != "2026-03-04T05:06:08Z" || !reflect.DeepEqual(c.Options.OffServers, []string{"git"}) {
		t.Fatalf("chat %+v", c)
	}
	m := messageViews([]history.Message{{ID: "m", CreatedAt: at, ToolCalls: []history.ToolCall{{ID: "x"}, {ID: "y"}}}})
	if m[0].CreatedAt != "2026-03-04T05:06:07Z" || m[0].ToolCalls[1].Index != 1 {
		t.Fatalf("message %+v", m[0])
	}
	if m := messageViews([]history.Message{{ID: "m"}}); m[0].CreatedAt != "" || m[0].ToolCalls == nil {
		t.Fatalf("a message without calls or time: %+v", m[0]) // toolCalls is [], never null
	}
	for _, v := range []any{ChatView{}, MessageView{}, ChatEvent{}, ApprovalView{}, ElicitView{}, PendingRequest{}, EventTypes{}} {
		if bad := rawFields(reflect.TypeOf(v), nil); len(bad) > 0 {
			t.Errorf("%T has %v", v, bad)
		}
	}
}

// rawFields lists the json.RawMessage and time.Time fields reachable from t.
func rawFields(t reflect.Type, seen map[reflect.Type]bool) []string {
	if seen == nil {
		seen = map[reflect.Type]bool{}
	}
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return nil
	}
	seen[t] = true
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		switch f.Type {
		case reflect.TypeFor[json.RawMessage](), reflect.TypeFor[time.Time]():
			out = append(out, t.Name()+"."+f.Name)
		default:
			out = append(out, rawFields(f.Type, seen)...)
		}
	}
	return out
}

func TestChatEventView(t *testing.T) {
	ev := chatEvent(chat.Event{ChatID: "c", Seq: 4, Type: chat.EventToolCall, MessageID: "m", Call: &chat.ToolCallView{
		ID: "x", Index: 1, Name: "s__t", Server: "s", Tool: "t", Args: `{"a":1}`, Status: chat.CallDone, DurationMs: 5,
		Result: json.RawMessage(`{"content":[{"type":"text","text":"ok"}],"structuredContent":{"n":1}}`)}})
	want := ChatEvent{ChatID: "c", Seq: 4, Type: "toolCall", MessageID: "m", Call: &ToolCallView{
		ID: "x", Index: 1, Name: "s__t", Server: "s", Tool: "t", Args: `{"a":1}`, Status: "done", DurationMs: 5,
		Result: &CallResult{Content: []ContentView{{Type: "text", Text: "ok"}}, Structured: `{"n":1}`, DurationMs: 5}}}
	if !reflect.DeepEqual(ev, want) {
		t.Fatalf("got  %+v\nwant %+v", ev, want)
	}
	if ev := chatEvent(chat.Event{ChatID: "c", Seq: 1, Type: chat.EventText, Text: "hi"}); ev.Call != nil || ev.Text != "hi" {
		t.Fatalf("text event %+v", ev)
	}
}

func TestQuestionViews(t *testing.T) {
	a := approvalView(chat.ApprovalRequest{ID: "a", ChatID: "c", Kind: "tool", Server: "s", Tool: "s__t", Arguments: json.RawMessage(`{"path":"/x"}`), Destructive: true})
	if a.Arguments != `{"path":"/x"}` || !a.Destructive || a.Tool != "s__t" {
		t.Fatalf("approval %+v", a)
	}
	e := elicitView(chat.ElicitRequest{ID: "e", Server: "s", Mode: "form", Message: "Name?", Schema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)})
	if e.Schema["type"] != "object" || e.Message != "Name?" {
		t.Fatalf("elicit %+v", e)
	}
	b, _ := json.Marshal(e)
	if !strings.Contains(string(b), `"schema":{"properties":{"name":{"type":"string"}},"type":"object"}`) {
		t.Fatalf("elicit JSON %s", b)
	}
}
