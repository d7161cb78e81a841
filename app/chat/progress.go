package chat

import (
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// Progress of a running tool call. Every call the engine makes carries a
// progressToken (the router sends one), so a server that says how far it
// is (notifications/progress) is heard: each report becomes an
// EventProgress, which the window's card draws as a bar (or the message
// and count) and `switchboard chat` as a status line. A server may report
// hundreds of times a second, and each event is a render of the card or a
// line on the terminal, so one call's reports go out at most once every
// progressEvery: the first at once, then the latest of those that came
// sooner when the interval is over. None goes out once the call has
// returned: a late report must not draw a bar on a card that is done.

// Progress is how far a running tool call is, as its server reported it.
type Progress struct {
	Progress float64 `json:"progress"`
	// Total is what Progress counts up to; 0 when the server did not say.
	Total float64 `json:"total,omitempty"`
	// Message is the server's status text, on one line.
	Message string `json:"message,omitempty"`
}

// progressEvery is the least time between two progress events of one
// call: four a second keep a bar moving without a render per report.
const progressEvery = 250 * time.Millisecond

// maxProgressMessage is the most characters of a report's message an
// event carries: it is a status line, not a second result.
const maxProgressMessage = 300

// stopper is a pending timer (time.AfterFunc's).
type stopper interface{ Stop() bool }

// progressFeed passes one call's progress reports on, throttled to one
// every `every`. It is safe for concurrent use: the router calls report
// on a session's reader goroutine while the call's own goroutine stops
// the feed.
type progressFeed struct {
	send  func(Progress)
	every time.Duration
	now   func() time.Time
	after func(time.Duration, func()) stopper

	mu      sync.Mutex
	last    time.Time // when a report last went out; zero before the first
	held    *Progress // the latest report not sent yet
	timer   stopper   // sends held when the interval is over
	stopped bool
}

func newProgressFeed(send func(Progress)) *progressFeed {
	return &progressFeed{send: send, every: progressEvery, now: time.Now,
		after: func(d time.Duration, fn func()) stopper { return time.AfterFunc(d, fn) }}
}

// progressOf is the feed of a call of message messageID, sent through
// emit (the run's): its events name the call as view does now (before it
// runs), status running.
func progressOf(emit func(Event), messageID string, view *ToolCallView) *progressFeed {
	call := ToolCallView{ID: view.ID, Index: view.Index, Name: view.Name, Server: view.Server, Tool: view.Tool,
		Parent: view.Parent, Status: CallRunning}
	return newProgressFeed(func(p Progress) {
		c := call // each event its own: a UI may hold it
		emit(Event{Type: EventProgress, MessageID: messageID, Call: &c, Progress: &p})
	})
}

// report takes one of the server's reports (router.CallOptions.OnProgress).
// It does not block: a report that comes too soon is held, replacing one
// held before.
func (f *progressFeed) report(rp router.Progress) {
	p := Progress{Progress: rp.Progress, Total: rp.Total, Message: statusLine(rp.Message)}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return
	}
	now := f.now()
	wait := f.every - now.Sub(f.last)
	if f.last.IsZero() || wait <= 0 {
		f.sendLocked(p, now)
		return
	}
	f.held = &p
	if f.timer == nil {
		f.timer = f.after(wait, f.flush)
	}
}

// flush sends the held report when its interval is over.
func (f *progressFeed) flush() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.timer = nil
	if f.stopped || f.held == nil {
		return
	}
	p := *f.held
	f.held = nil
	f.sendLocked(p, f.now())
}

// sendLocked sends p under f.mu, so stop knows nothing is sent after it.
func (f *progressFeed) sendLocked(p Progress, now time.Time) {
	f.last = now
	f.send(p)
}

// stop ends the feed as the call returns: a held report is dropped, and
// reports that still come are ignored.
func (f *progressFeed) stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopped, f.held = true, nil
	if f.timer != nil {
		f.timer.Stop()
		f.timer = nil
	}
}

// statusLine is a server's progress message as one line of at most
// maxProgressMessage characters.
func statusLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= maxProgressMessage {
		return s
	}
	return string([]rune(s)[:maxProgressMessage-1]) + "…"
}
