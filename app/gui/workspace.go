package gui

import (
	"crypto/rand"
	"encoding/hex"
	"sync"

	"github.com/switchboard-app/switchboard/app/host"
)

// EventTerminalData carries raw PTY output: {session, data (base64)}.
const EventTerminalData = "terminal:data"

// EventWorkspaceChanged says files in the workspace folder changed (a
// command in the terminal, the model's tools, another program): the
// Workspace page, while it watches (WatchWorkspace), lists them again.
const EventWorkspaceChanged = "workspace:changed"

// TerminalAttachment is a terminal's view of a shell session: its recent
// output, and the ID its terminal:data events carry.
type TerminalAttachment struct {
	History string `json:"history"` // base64 raw output
	Attach  string `json:"attach"`
}

// TerminalData is one terminal:data event. Seq numbers an attachment's
// events 1, 2, 3… so the page can put shuffled deliveries back in order.
type TerminalData struct {
	Session string `json:"session"`
	Attach  string `json:"attach"`
	Seq     int64  `json:"seq"`
	Data    string `json:"data"` // base64 raw output
}

func newAttachID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (a *core) session(name string) (host.Shell, error) {
	return a.h.Workspace.Shell(name)
}

// terminals are the shell sessions whose output is forwarded to the page.
type terminals struct {
	mu       sync.Mutex
	attached map[string]func() // session → stop forwarding its output
}

// attach records stop as the forwarding of session, ending the one before.
func (t *terminals) attach(session string, stop func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if old := t.attached[session]; old != nil {
		old()
	}
	if t.attached == nil {
		t.attached = map[string]func(){}
	}
	t.attached[session] = stop
}

// detachAll stops forwarding every session.
func (t *terminals) detachAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, stop := range t.attached {
		stop()
	}
	t.attached = nil
}
