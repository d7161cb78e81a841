package host

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/builtin/workspace"
	"github.com/switchboard-app/switchboard/builtin/workspace/shell"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// WorkspaceSettings is the "workspace" section of config.json's settings.
type WorkspaceSettings struct {
	Root string `json:"root,omitempty"`
}

// Workspace is the workspace built-in as the host runs it: the folder
// chosen in settings and the workspace open there (its file rules, its
// shells). Safe for concurrent use.
type Workspace struct {
	h *Host

	mu      sync.Mutex
	root    string // what the built-in was last started on
	ws      *workspace.Workspace
	err     error
	changed chan struct{} // closed (and replaced) whenever the above change
}

// WorkspaceCloseTimeout bounds how long the shells of a workspace being
// replaced or closed get to end.
var WorkspaceCloseTimeout = 10 * time.Second

// WorkspaceSwitchTimeout bounds how long SetRoot waits for the workspace
// built-in to come up on its new root.
var WorkspaceSwitchTimeout = 30 * time.Second

// Root is the workspace folder chosen in settings, or the default under
// the data directory.
func (w *Workspace) Root() string {
	w.h.cfgMu.Lock()
	defer w.h.cfgMu.Unlock()
	return WorkspaceRoot(w.h.dir)
}

// WorkspaceRoot is the workspace folder chosen in dir's settings
// (settings.workspace.root), or dir's default workspace.
func WorkspaceRoot(dir datadir.Dir) string {
	if cfg, err := config.Load(dir.Config()); err == nil {
		return workspaceRootIn(dir, cfg)
	}
	return dir.Workspace()
}

// workspaceSection is settings.workspace.
var workspaceSection = config.Section[WorkspaceSettings]{Key: "workspace"}

// workspaceRootIn is cfg's workspace folder, or dir's default (also when
// the section is malformed: the workspace must run; the log says why).
func workspaceRootIn(dir datadir.Dir, cfg *config.Config) string {
	s, err := workspaceSection.Get(cfg)
	if err != nil {
		slog.Warn("settings", "err", err)
	}
	return cmp.Or(s.Root, dir.Workspace())
}

// SetRoot makes dir the workspace (created if missing) and saves the
// choice; the model's file tools and shells move there. It returns once the
// built-in serves the new folder.
func (w *Workspace) SetRoot(dir string) error {
	if !filepath.IsAbs(dir) {
		return fmt.Errorf("workspace folder %q: choose an absolute path", dir)
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("workspace folder %s is a file: choose a folder", dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("workspace folder %s: %w", dir, err)
	}
	err := w.h.edit(func(cfg *config.Config) error { return workspaceSection.Put(cfg, WorkspaceSettings{Root: dir}) })
	if err != nil {
		return err
	}
	// The built-in restarts on the new root: wait for it, so what the page
	// shows next is the new workspace.
	ctx, cancel := context.WithTimeout(w.h.ctx, WorkspaceSwitchTimeout)
	defer cancel()
	_, err = w.at(ctx, dir)
	return err
}

// WorkspaceInfo is the open workspace as the Workspace page shows it.
type WorkspaceInfo struct {
	Root     string   `json:"root"`
	Fresh    bool     `json:"fresh"` // made by Switchboard: file writes need no approval
	Sessions []string `json:"sessions"`
}

// Info returns the open workspace's folder and its shell sessions' names,
// or why no workspace is open.
func (w *Workspace) Info() (WorkspaceInfo, error) {
	ws, err := w.open()
	if err != nil {
		return WorkspaceInfo{}, err
	}
	v := WorkspaceInfo{Root: ws.Root(), Fresh: ws.Fresh(), Sessions: []string{}}
	for _, s := range ws.Sessions() {
		v.Sessions = append(v.Sessions, s.Name)
	}
	return v, nil
}

// Shell is one of the workspace's shell sessions, as a terminal uses it.
// Its methods are safe for concurrent use; output reaches each Attach's
// channel until its stop is called or the session ends.
type Shell interface {
	Name() string
	Attach() (history []byte, output <-chan []byte, stop func())
	Write(p []byte) error
	Resize(rows, cols uint16) error
}

var _ Shell = (*shell.Session)(nil)

// Shell returns the open workspace's shell session name, started when it
// is not running.
func (w *Workspace) Shell(name string) (Shell, error) {
	ws, err := w.open()
	if err != nil {
		return nil, err
	}
	s, err := ws.Session(name)
	if err != nil {
		return nil, err // not a Shell holding a nil *shell.Session
	}
	return s, nil
}

// open is the open workspace or why there is none.
func (w *Workspace) open() (*workspace.Workspace, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ws == nil {
		if w.err != nil {
			return nil, w.err
		}
		return nil, errors.New("the workspace is not open yet")
	}
	return w.ws, nil
}

// set records what the built-in's start on root, or its stop, left.
func (w *Workspace) set(root string, ws *workspace.Workspace, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.root, w.ws, w.err = root, ws, err
	if w.changed != nil {
		close(w.changed)
	}
	w.changed = make(chan struct{})
}

// start is the built-in's Start on root: the workspace opened there is
// also kept for the Workspace page, the terminal and the default policy.
func (w *Workspace) start(root string) func() (*server.MCPServer, func() error, error) {
	return func() (*server.MCPServer, func() error, error) {
		ws, err := workspace.Open(workspace.Options{Root: root})
		w.set(root, ws, err)
		if err != nil {
			return nil, nil, err
		}
		release := func() error {
			w.mu.Lock()
			mine := w.ws == ws
			w.mu.Unlock()
			if mine {
				w.set(root, nil, nil)
			}
			ctx, cancel := context.WithTimeout(context.Background(), WorkspaceCloseTimeout)
			defer cancel()
			return ws.Close(ctx) // its shells end
		}
		return workspace.NewServer(ws), release, nil
	}
}

// at waits until the open workspace is the one at root, or its start failed.
func (w *Workspace) at(ctx context.Context, root string) (*workspace.Workspace, error) {
	for {
		w.mu.Lock()
		if w.changed == nil {
			w.changed = make(chan struct{})
		}
		here, ws, err, changed := w.root == root, w.ws, w.err, w.changed
		w.mu.Unlock()
		switch {
		case here && ws != nil:
			return ws, nil
		case here && err != nil:
			return nil, err
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, fmt.Errorf("the workspace did not open in %s: %w", root, ctx.Err())
		}
	}
}
