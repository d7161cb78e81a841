package gui

import (
	"sync"
	"time"

	"github.com/switchboard-app/switchboard/app/host"
)

// deltaEvery is how long streamed pieces are held to be sent as one event.
// A fast local model streams hundreds of pieces a second; sent one by one,
// each is a call into the webview's main thread (and a render), and the
// window fell seconds behind its input: Stop and Esc waited for the stream.
const deltaEvery = 33 * time.Millisecond

// deltaBatch joins a turn's consecutive streamed pieces (text of one
// message, arguments of one call) into one event, sent at most deltaEvery
// after the first; any other event sends what is held first, so the order
// stays the turn's. A joined event keeps the Seq of its last piece and says
// in From where it began, so the page's orderer sees no gap.
type deltaBatch struct {
	emit  func(ChatEvent)
	every time.Duration

	mu    sync.Mutex
	held  *ChatEvent
	timer *time.Timer
}

func newDeltaBatch(emit func(ChatEvent)) *deltaBatch {
	return &deltaBatch{emit: emit, every: deltaEvery}
}

// push sends ev, or holds it to join the pieces after it.
func (b *deltaBatch) push(ev ChatEvent) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if ev.Type != "text" && ev.Type != "toolArgs" {
		b.sendLocked()
		b.emit(ev)
		return
	}
	if h := b.held; h != nil && h.Type == ev.Type && h.MessageID == ev.MessageID && sameCall(h.Call, ev.Call) && ev.Seq == h.Seq+1 {
		h.Seq = ev.Seq
		if ev.Type == "text" {
			h.Text += ev.Text
		} else {
			c := *h.Call
			c.Args += ev.Call.Args
			h.Call = &c
		}
		return
	}
	b.sendLocked()
	held := ev
	held.From = ev.Seq
	b.held = &held
	b.timer = time.AfterFunc(b.every, b.flush)
}

// flush sends what is held (the timer's, and the end of a turn's).
func (b *deltaBatch) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sendLocked()
}

func (b *deltaBatch) sendLocked() {
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	if h := b.held; h != nil {
		b.held = nil
		if h.From == h.Seq {
			h.From = 0 // one piece: an event like any other
		}
		b.emit(*h)
	}
}

// sameCall says whether two toolArgs pieces belong to the same call (both
// nil for text).
func sameCall(a, b *host.ToolCallView) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Index == b.Index && a.ID == b.ID && a.Parent == b.Parent
}
