package gui

import (
	"encoding/base64"
	"errors"
	"fmt"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/switchboard-app/switchboard/app/host"
)

// WorkspacePage is the workspace folder and its terminals.
type WorkspacePage struct{ *core }

// WorkspaceInfo returns the root and its shell sessions.
func (a *WorkspacePage) WorkspaceInfo() (host.WorkspaceInfo, error) {
	return a.h.Workspace.Info()
}

// SetWorkspaceRoot makes dir the workspace (created if missing) and saves
// the choice; the model's file tools and shells move there.
func (a *WorkspacePage) SetWorkspaceRoot(dir string) (host.WorkspaceInfo, error) {
	a.terminals.detachAll() // the old workspace's shells end
	if err := a.h.Workspace.SetRoot(dir); err != nil {
		return host.WorkspaceInfo{}, err
	}
	if err := a.folder.Move(dir, a.workspaceChanged); err != nil { // the page is open: follow the new folder
		return host.WorkspaceInfo{}, err
	}
	return a.WorkspaceInfo()
}

// WatchWorkspace sends workspace:changed events whenever files in the
// workspace folder change, until UnwatchWorkspace (the page calls it when
// it opens and closes). Watching again is harmless.
func (a *WorkspacePage) WatchWorkspace() error {
	w, err := a.h.Workspace.Info()
	if err != nil {
		return err
	}
	return a.folder.Start(w.Root, a.workspaceChanged)
}

func (a *WorkspacePage) workspaceChanged() { a.emitEvent(EventWorkspaceChanged, nil) }

// UnwatchWorkspace ends WatchWorkspace's watch.
func (a *WorkspacePage) UnwatchWorkspace() { a.folder.Stop() }

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

// TerminalAttach connects the page's terminal to a shell session (started
// if needed) and returns its recent output; new output follows as
// terminal:data events. Attaching again replaces the earlier attachment.
func (a *WorkspacePage) TerminalAttach(session string) (TerminalAttachment, error) {
	s, err := a.h.Workspace.Shell(session)
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
