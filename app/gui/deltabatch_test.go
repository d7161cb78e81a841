package gui

import (
	"sync"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/host"
)

// Streamed pieces go out joined, in order, with no gap in Seq as the page
// counts it (From…Seq), and any other event sends what is held first.
func TestDeltaBatchJoinsPiecesInOrder(t *testing.T) {
	var mu sync.Mutex
	var got []ChatEvent
	b := newDeltaBatch(func(ev ChatEvent) { mu.Lock(); got = append(got, ev); mu.Unlock() })
	b.every = time.Hour // only other events and flush send here
	b.push(ChatEvent{Seq: 1, Type: "message", MessageID: "a"})
	for i, s := range []string{"Hel", "lo, ", "world"} {
		b.push(ChatEvent{Seq: int64(2 + i), Type: "text", MessageID: "a", Text: s})
	}
	b.push(ChatEvent{Seq: 5, Type: "toolCall", MessageID: "a", Call: &host.ToolCallView{Index: 0, ID: "c1"}})
	b.push(ChatEvent{Seq: 6, Type: "toolArgs", MessageID: "a", Call: &host.ToolCallView{Index: 0, Args: `{"a"`}})
	b.push(ChatEvent{Seq: 7, Type: "toolArgs", MessageID: "a", Call: &host.ToolCallView{Index: 0, Args: `:1}`}})
	b.push(ChatEvent{Seq: 8, Type: "toolArgs", MessageID: "a", Call: &host.ToolCallView{Index: 1, Args: `{}`}})
	b.push(ChatEvent{Seq: 9, Type: "messageEnd", MessageID: "a"})
	b.flush()
	type row struct {
		from, seq int64
		typ, text string
	}
	var rows []row
	for _, ev := range got {
		text := ev.Text
		if ev.Call != nil {
			text = ev.Call.Args
		}
		rows = append(rows, row{ev.From, ev.Seq, ev.Type, text})
	}
	want := []row{
		{0, 1, "message", ""}, {2, 4, "text", "Hello, world"}, {0, 5, "toolCall", ""},
		{6, 7, "toolArgs", `{"a":1}`}, {0, 8, "toolArgs", "{}"}, {0, 9, "messageEnd", ""},
	}
	if len(rows) != len(want) {
		t.Fatalf("got %+v\nwant %+v", rows, want)
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("event %d = %+v, want %+v", i, rows[i], want[i])
		}
	}
}

// Held pieces go out on their own after deltaEvery, without another event.
func TestDeltaBatchSendsOnItsOwn(t *testing.T) {
	sent := make(chan ChatEvent, 1)
	b := newDeltaBatch(func(ev ChatEvent) { sent <- ev })
	b.every = time.Millisecond
	b.push(ChatEvent{Seq: 1, Type: "text", MessageID: "a", Text: "hi"})
	select {
	case ev := <-sent:
		if ev.Text != "hi" || ev.From != 0 {
			t.Fatalf("sent %+v", ev)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the held piece was never sent")
	}
}
