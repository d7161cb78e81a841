package app

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"
)

// EventTerminalData carries raw PTY output: {session, data (base64)}.
const EventTerminalData = "terminal:data"

// WorkspaceView describes the workspace to the Workspace page.
type WorkspaceView struct {
	Root     string   `json:"root"`
	Fresh    bool     `json:"fresh"` // made by Switchboard: file writes need no approval
	Sessions []string `json:"sessions"`
}

// WorkspaceInfo returns the root and its shell sessions.
func (a *WorkspacePage) WorkspaceInfo() (WorkspaceView, error) {
	w, err := a.h.Workspace.Open()
	if err != nil {
		return WorkspaceView{}, err
	}
	v := WorkspaceView{Root: w.Root(), Fresh: w.Fresh(), Sessions: []string{}}
	for _, s := range w.Sessions() {
		v.Sessions = append(v.Sessions, s.Name)
	}
	return v, nil
}

// SetWorkspaceRoot makes dir the workspace (created if missing) and saves
// the choice; the model's file tools and shells move there.
func (a *WorkspacePage) SetWorkspaceRoot(dir string) (WorkspaceView, error) {
	a.terminals.detachAll() // the old workspace's shells end
	if err := a.h.Workspace.SetRoot(dir); err != nil {
		return WorkspaceView{}, err
	}
	return a.WorkspaceInfo()
}

// ChooseWorkspaceRoot asks for a folder with the system dialog; "" when
// the user cancels.
func (a *WorkspacePage) ChooseWorkspaceRoot() (string, error) {
	ctx := a.wailsContext()
	if ctx == nil {
		return "", errors.New("no window to show the folder dialog in")
	}
	dir, err := wruntime.OpenDirectoryDialog(ctx, wruntime.OpenDialogOptions{Title: "Choose the workspace folder", CanCreateDirectories: true})
	if err != nil || dir == "" {
		return "", err
	}
	v, err := a.SetWorkspaceRoot(dir)
	return v.Root, err
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

// TerminalAttach connects the page's terminal to a shell session (started
// if needed) and returns its recent output; new output follows as
// terminal:data events. Attaching again replaces the earlier attachment.
func (a *WorkspacePage) TerminalAttach(session string) (TerminalAttachment, error) {
	w, err := a.h.Workspace.Open()
	if err != nil {
		return TerminalAttachment{}, err
	}
	s, err := w.Session(session)
	if err != nil {
		return TerminalAttachment{}, err
	}
	name, id := s.Name(), newAttachID()
	history, ch, cancel := s.Attach()
	a.terminals.attach(name, cancel)
	go func() {
		var seq int64
		for b := range ch {
			seq++
			a.emitEvent(EventTerminalData, TerminalData{Session: name, Attach: id, Seq: seq, Data: base64.StdEncoding.EncodeToString(b)})
		}
	}()
	return TerminalAttachment{History: base64.StdEncoding.EncodeToString(history), Attach: id}, nil
}

func newAttachID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// TerminalInput sends the user's keystrokes to a session.
func (a *WorkspacePage) TerminalInput(session, data string) error {
	s, err := a.session(session)
	if err != nil {
		return err
	}
	return s.Write([]byte(data))
}

// TerminalResize tells a session's PTY the terminal's size.
func (a *WorkspacePage) TerminalResize(session string, rows, cols int) error {
	if rows <= 0 || cols <= 0 || rows > 1000 || cols > 1000 {
		return fmt.Errorf("terminal size %dx%d is out of range", cols, rows)
	}
	s, err := a.session(session)
	if err != nil {
		return err
	}
	return s.Resize(uint16(rows), uint16(cols))
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
