package gui

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/host"
)

// Views carry no raw JSON bytes and no time.Time: both reach TypeScript as
// number[] / any.
func TestChatViewsAreTyped(t *testing.T) {
	for _, v := range []any{host.ChatView{}, host.MessageView{}, ChatEvent{}, ApprovalView{}, ElicitView{}, PendingRequest{}, EventTypes{}} {
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
	want := ChatEvent{ChatID: "c", Seq: 4, Type: "toolCall", MessageID: "m", Call: &host.ToolCallView{
		ID: "x", Index: 1, Name: "s__t", Server: "s", Tool: "t", Args: `{"a":1}`, Status: "done", DurationMs: 5,
		Result: &host.CallResult{Content: []host.ContentView{{Type: "text", Text: "ok"}}, Structured: `{"n":1}`, DurationMs: 5}}}
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
