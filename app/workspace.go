package app

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/builtin/workspace"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/registry"
)

// EventTerminalData carries raw PTY output: {session, data (base64)}.
const EventTerminalData = "terminal:data"

// WorkspaceView describes the workspace to the Workspace page.
type WorkspaceView struct {
	Root     string   `json:"root"`
	Fresh    bool     `json:"fresh"` // made by Switchboard: file writes need no approval
	Sessions []string `json:"sessions"`
}

// workspaceState is the open workspace and the terminals attached to it.
type workspaceState struct {
	mu       sync.Mutex
	ws       *workspace.Workspace
	err      error
	attached map[string]func() // session → stop forwarding its output
}

// workspaceSettings is the "workspace" section of config.json's settings.
type workspaceSettings struct {
	Root string `json:"root,omitempty"`
}

// workspaceRoot is the configured root, or the default under the data dir.
func (a *App) workspaceRoot() string {
	a.cfgMu.Lock()
	cfg, err := config.Load(a.dir.Config())
	a.cfgMu.Unlock()
	if err == nil {
		var m map[string]json.RawMessage
		var s workspaceSettings
		if json.Unmarshal(cfg.Settings, &m) == nil && json.Unmarshal(m["workspace"], &s) == nil && s.Root != "" {
			return s.Root
		}
	}
	return a.dir.Workspace()
}

// openWorkspace opens root and serves it as the "workspace" built-in,
// replacing the one open before.
func (a *App) openWorkspace(root string) error {
	w, err := workspace.Open(workspace.Options{Root: root})
	if err != nil {
		a.wks.mu.Lock()
		a.wks.err = err
		a.wks.mu.Unlock()
		return err
	}
	a.wks.mu.Lock()
	old := a.wks.ws
	for _, stop := range a.wks.attached {
		stop()
	}
	a.wks.attached = map[string]func(){}
	a.wks.ws, a.wks.err = w, nil
	a.wks.mu.Unlock()
	if old != nil {
		_ = a.mgr.RemoveInProcess(workspace.Builtin.Name) // gone already if it failed to start
		ctx, cancel := context.WithTimeout(a.bg(), 10*time.Second)
		if err := old.Close(ctx); err != nil {
			slog.Warn("close workspace", "err", err)
		}
		cancel()
	}
	return a.mgr.AddInProcess(workspace.Builtin.Name, workspace.NewServer(w))
}

// workspace is the open workspace or why there is none.
func (a *App) workspace() (*workspace.Workspace, error) {
	a.wks.mu.Lock()
	defer a.wks.mu.Unlock()
	if a.wks.ws == nil {
		if a.wks.err != nil {
			return nil, a.wks.err
		}
		return nil, errors.New("the workspace is not open yet")
	}
	return a.wks.ws, nil
}

// closeWorkspace stops its shells; part of close.
func (a *App) closeWorkspace(ctx context.Context) error {
	a.wks.mu.Lock()
	w := a.wks.ws
	for _, stop := range a.wks.attached {
		stop()
	}
	a.wks.attached = nil
	a.wks.mu.Unlock()
	if w == nil {
		return nil
	}
	return w.Close(ctx)
}

// toolPolicy is the default approval policy: the workspace's own risk rule
// for its tools, MCP annotations for everything else.
func (a *App) toolPolicy(t registry.Tool) chat.Policy {
	if t.Server == workspace.Builtin.Name {
		if w, err := a.workspace(); err == nil && !w.Risky(t.Tool.Name) {
			return chat.PolicyAllow
		}
		return chat.PolicyAsk
	}
	return chat.DefaultPolicy(t)
}

// WorkspaceInfo returns the root and its shell sessions.
func (a *App) WorkspaceInfo() (WorkspaceView, error) {
	w, err := a.workspace()
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
func (a *App) SetWorkspaceRoot(dir string) (WorkspaceView, error) {
	if !filepath.IsAbs(dir) {
		return WorkspaceView{}, fmt.Errorf("workspace folder %q: choose an absolute path", dir)
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return WorkspaceView{}, fmt.Errorf("workspace folder %s is a file: choose a folder", dir)
	}
	if err := a.openWorkspace(dir); err != nil {
		return WorkspaceView{}, err
	}
	err := a.editConfig(func(cfg *config.Config) error {
		m := map[string]json.RawMessage{}
		if len(cfg.Settings) > 0 {
			if err := json.Unmarshal(cfg.Settings, &m); err != nil {
				return fmt.Errorf("config.json settings: %w", err)
			}
		}
		raw, _ := json.Marshal(workspaceSettings{Root: dir})
		m["workspace"] = raw
		b, err := json.Marshal(m)
		cfg.Settings = b
		return err
	})
	if err != nil {
		return WorkspaceView{}, err
	}
	return a.WorkspaceInfo()
}

// ChooseWorkspaceRoot asks for a folder with the system dialog; "" when
// the user cancels.
func (a *App) ChooseWorkspaceRoot() (string, error) {
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
func (a *App) TerminalAttach(session string) (TerminalAttachment, error) {
	w, err := a.workspace()
	if err != nil {
		return TerminalAttachment{}, err
	}
	s, err := w.Session(session)
	if err != nil {
		return TerminalAttachment{}, err
	}
	name, id := s.Name(), newAttachID()
	history, ch, cancel := s.Attach()
	a.wks.mu.Lock()
	if stop := a.wks.attached[name]; stop != nil {
		stop()
	}
	if a.wks.attached == nil {
		a.wks.attached = map[string]func(){}
	}
	a.wks.attached[name] = cancel
	a.wks.mu.Unlock()
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
func (a *App) TerminalInput(session, data string) error {
	s, err := a.session(session)
	if err != nil {
		return err
	}
	return s.Write([]byte(data))
}

// TerminalResize tells a session's PTY the terminal's size.
func (a *App) TerminalResize(session string, rows, cols int) error {
	if rows <= 0 || cols <= 0 || rows > 1000 || cols > 1000 {
		return fmt.Errorf("terminal size %dx%d is out of range", cols, rows)
	}
	s, err := a.session(session)
	if err != nil {
		return err
	}
	return s.Resize(uint16(rows), uint16(cols))
}

func (a *App) session(name string) (interface {
	Write([]byte) error
	Resize(rows, cols uint16) error
}, error) {
	w, err := a.workspace()
	if err != nil {
		return nil, err
	}
	return w.Session(name)
}
