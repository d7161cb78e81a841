package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/builtin/contentstore"
	"github.com/switchboard-app/switchboard/builtin/workspace"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/registry"
)

// Builtin is one server that ships inside Switchboard, with where its data
// lives by default. Builtins is the one table the window, the CLI and
// 'switchboard builtin NAME' read.
type Builtin struct {
	Def builtin.Server
	// Root is the default data root inside a data directory.
	Root func(datadir.Dir) string
	// RootHelp says where that is, for --help.
	RootHelp string
}

// Builtins are the built-in servers.
var Builtins = []Builtin{
	{Def: contentstore.Builtin, Root: datadir.Dir.Stores, RootHelp: "<data dir>/stores"},
	{Def: workspace.Builtin, Root: datadir.Dir.Workspace, RootHelp: "<data dir>/workspace"},
}

// WorkspaceSettings is the "workspace" section of config.json's settings.
type WorkspaceSettings struct {
	Root string `json:"root,omitempty"`
}

// workspaceState is the open workspace, or why it could not open.
type workspaceState struct {
	mu  sync.Mutex
	ws  *workspace.Workspace
	err error
}

// StartBuiltins starts every built-in server: the content store in
// <data dir>/stores, the workspace in settings.workspace.root (default
// <data dir>/workspace). Those that cannot start are returned as errors;
// the others run.
func (h *Host) StartBuiltins() []error {
	var errs []error
	for _, b := range Builtins {
		if b.Def.Name == workspace.Builtin.Name {
			if err := h.OpenWorkspace(h.WorkspaceRoot()); err != nil {
				errs = append(errs, fmt.Errorf("built-in server %s: %w", b.Def.Name, err))
			}
			continue
		}
		errs = append(errs, h.mgr.AttachBuiltins(func(builtin.Server) string { return b.Root(h.dir) }, b.Def)...)
	}
	return errs
}

// WorkspaceRoot is the workspace folder chosen in settings, or the default
// under the data directory.
func (h *Host) WorkspaceRoot() string {
	h.cfgMu.Lock()
	defer h.cfgMu.Unlock()
	return WorkspaceRoot(h.dir)
}

// WorkspaceRoot is the workspace folder chosen in dir's settings
// (settings.workspace.root), or dir's default workspace.
func WorkspaceRoot(dir datadir.Dir) string {
	if cfg, err := config.Load(dir.Config()); err == nil {
		var m map[string]json.RawMessage
		var s WorkspaceSettings
		if json.Unmarshal(cfg.Settings, &m) == nil && json.Unmarshal(m["workspace"], &s) == nil && s.Root != "" {
			return s.Root
		}
	}
	return dir.Workspace()
}

// OpenWorkspace opens root and serves it as the "workspace" built-in,
// replacing the one open before (its shells end).
func (h *Host) OpenWorkspace(root string) error {
	w, err := workspace.Open(workspace.Options{Root: root})
	h.wks.mu.Lock()
	if err != nil {
		h.wks.err = err
		h.wks.mu.Unlock()
		return err
	}
	old := h.wks.ws
	h.wks.ws, h.wks.err = w, nil
	h.wks.mu.Unlock()
	if old != nil {
		_ = h.mgr.RemoveInProcess(workspace.Builtin.Name) // gone already if it failed to start
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := old.Close(ctx); err != nil {
			slog.Warn("close workspace", "err", err)
		}
		cancel()
	}
	return h.mgr.AddInProcess(workspace.Builtin.Name, workspace.NewServer(w))
}

// SetWorkspaceRoot makes dir the workspace (created if missing) and saves
// the choice; the model's file tools and shells move there.
func (h *Host) SetWorkspaceRoot(dir string) error {
	if !filepath.IsAbs(dir) {
		return fmt.Errorf("workspace folder %q: choose an absolute path", dir)
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("workspace folder %s is a file: choose a folder", dir)
	}
	if err := h.OpenWorkspace(dir); err != nil {
		return err
	}
	return h.Edit(func(cfg *config.Config) error {
		m := map[string]json.RawMessage{}
		if len(cfg.Settings) > 0 {
			if err := json.Unmarshal(cfg.Settings, &m); err != nil {
				return fmt.Errorf("config.json settings: %w", err)
			}
		}
		raw, _ := json.Marshal(WorkspaceSettings{Root: dir})
		m["workspace"] = raw
		b, err := json.Marshal(m)
		cfg.Settings = b
		return err
	})
}

// Workspace is the open workspace or why there is none.
func (h *Host) Workspace() (*workspace.Workspace, error) {
	h.wks.mu.Lock()
	defer h.wks.mu.Unlock()
	if h.wks.ws == nil {
		if h.wks.err != nil {
			return nil, h.wks.err
		}
		return nil, errors.New("the workspace is not open yet")
	}
	return h.wks.ws, nil
}

// closeWorkspace stops its shells; part of Close.
func (h *Host) closeWorkspace(ctx context.Context) error {
	h.wks.mu.Lock()
	w := h.wks.ws
	h.wks.mu.Unlock()
	if w == nil {
		return nil
	}
	return w.Close(ctx)
}

// DefaultPolicy is what a chat does with a tool no setting names: the
// workspace's own risk rule for its tools (file writes in a workspace
// Switchboard made run without asking), MCP annotations for the rest.
func (h *Host) DefaultPolicy(t registry.Tool) chat.Policy {
	if t.Server == workspace.Builtin.Name {
		if w, err := h.Workspace(); err == nil && !w.Risky(t.Tool.Name) {
			return chat.PolicyAllow
		}
		return chat.PolicyAsk
	}
	return chat.DefaultPolicy(t)
}
