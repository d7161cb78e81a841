package gui

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"sync"

	"github.com/switchboard-app/switchboard/builtin/workspace/watch"
)

// EventTerminalData carries raw PTY output: {session, data (base64)}.
const EventTerminalData = "terminal:data"

// EventWorkspaceChanged says files in the workspace folder changed (a
// command in the terminal, the model's tools, another program): the
// Workspace page, while it watches (WatchWorkspace), lists them again.
const EventWorkspaceChanged = "workspace:changed"

// WorkspaceView describes the workspace to the Workspace page.
type WorkspaceView struct {
	Root     string   `json:"root"`
	Fresh    bool     `json:"fresh"` // made by Switchboard: file writes need no approval
	Sessions []string `json:"sessions"`
}

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

func (a *core) session(name string) (interface {
	Write([]byte) error
	Resize(rows, cols uint16) error
}, error) {
	w, err := a.h.Workspace.Open()
	if err != nil {
		return nil, err
	}
	return w.Session(name)
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

// folderWatch is the watch on the workspace folder while the Workspace
// page is open: one at a time, moved when the root changes. Watches are
// counted, so the page's open and close calls (StrictMode makes two of
// each, and they may arrive out of order) leave it watching exactly while
// a page is open.
type folderWatch struct {
	mu    sync.Mutex
	users int
	w     *watch.Watcher
	root  string
}

// start counts a user and watches root (moving the watch there), calling
// changed on each settled burst of changes.
func (f *folderWatch) start(root string, changed func()) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.users++
	return f.moveLocked(root, changed)
}

// move watches root instead while anyone watches.
func (f *folderWatch) move(root string, changed func()) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.users <= 0 {
		return nil
	}
	return f.moveLocked(root, changed)
}

func (f *folderWatch) moveLocked(root string, changed func()) error {
	if f.w != nil && f.root == root {
		return nil
	}
	f.closeLocked()
	w, err := watch.Open(root, watch.Options{OnChange: changed})
	if err != nil {
		return err
	}
	f.w, f.root = w, root
	return nil
}

// stop counts a user gone; the last one ends the watch.
func (f *folderWatch) stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.users--
	if f.users <= 0 {
		f.closeLocked()
	}
}

// close ends the watch whoever uses it (the window closes).
func (f *folderWatch) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.users = 0
	f.closeLocked()
}

// watching is the root watched, "" for none.
func (f *folderWatch) watching() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.root
}

func (f *folderWatch) closeLocked() {
	if f.w != nil {
		if err := f.w.Close(); err != nil {
			slog.Warn("workspace watch", "root", f.root, "err", err)
		}
	}
	f.w, f.root = nil, ""
}
