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

// TestChatEventProgress: a progress event reaches the window with the call
// it names and how far that call is.
func TestChatEventProgress(t *testing.T) {
	ev := chatEvent(chat.Event{ChatID: "c", Seq: 7, Type: chat.EventProgress, MessageID: "m",
		Call:     &chat.ToolCallView{ID: "x", Index: 2, Name: "s__slow", Server: "s", Tool: "slow", Status: chat.CallRunning},
		Progress: &chat.Progress{Progress: 7, Total: 20, Message: "step 7"}})
	if ev.Type != "progress" || ev.Call == nil || ev.Call.ID != "x" || ev.Call.Index != 2 || ev.Call.Status != chat.CallRunning ||
		ev.Progress == nil || *ev.Progress != (ProgressView{Progress: 7, Total: 20, Message: "step 7"}) {
		t.Fatalf("progress event %+v (progress %+v)", ev, ev.Progress)
	}
}

// TestCardMediaIsBounded: a tool card is sent its result's images, audio
// and blobs up to MaxCardMedia, in order; past it a block comes without
// its data, its size in its place, whether the card streams in (an event)
// or is read back (a chat's messages).
func TestCardMediaIsBounded(t *testing.T) {
	big := strings.Repeat("A", MaxCardMedia/2+4) // 3/4 as many bytes
	small := "aGVsbG8="                          // "hello"
	result := `{"content":[{"type":"text","text":"shots"},{"type":"image","mimeType":"image/png","data":"` + big + `"},` +
		`{"type":"image","mimeType":"image/png","data":"` + big + `"},{"type":"audio","mimeType":"audio/wav","data":"` + small + `"},` +
		`{"type":"resource","resource":{"uri":"file:///b.bin","mimeType":"application/octet-stream","blob":"` + big + `"}}]}`
	ev := chatEvent(chat.Event{Type: chat.EventToolCall, Call: &chat.ToolCallView{ID: "x", Name: "s__shot", Status: chat.CallDone, Result: json.RawMessage(result)}})
	stored := lightMessages([]host.MessageView{{ToolCalls: []host.ToolCallView{*ev.Call}}})
	for name, c := range map[string]*host.ToolCallView{"event": ev.Call, "stored": &stored[0].ToolCalls[0]} {
		var got []string
		for _, b := range c.Result.Content {
			got = append(got, b.Type+":"+map[bool]string{true: "data", false: "left out"}[b.Data != ""]+":"+strings.Repeat("sized", min(b.Size, 1)))
		}
		want := []string{"text:left out:", "image:data:", "image:left out:sized", "audio:data:", "resource:left out:sized"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: blocks %v, want %v", name, got, want)
		}
		if s := c.Result.Content[2].Size; s != len(big)/4*3 {
			t.Errorf("%s: the image left out says %d bytes, want %d", name, s, len(big)/4*3)
		}
	}
	for _, tc := range []struct {
		b64  string
		want int
	}{{"", 0}, {"aA==", 1}, {"aGk=", 2}, {"aGVsbG8=", 5}, {"aGVsbG8", 5}, {"aGVsbA", 4}} {
		if got := decodedLen(tc.b64); got != tc.want {
			t.Errorf("decodedLen(%q) = %d, want %d", tc.b64, got, tc.want)
		}
	}
}
