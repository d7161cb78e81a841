package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/builtin/contentstore"
	"github.com/switchboard-app/switchboard/builtin/workspace"
	"github.com/switchboard-app/switchboard/mcpmanager"
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
	{Def: workspace.Builtin, Root: datadir.Dir.Workspace, RootHelp: "the folder chosen in Settings, else <data dir>/workspace"},
}

// WorkspaceSettings is the "workspace" section of config.json's settings.
type WorkspaceSettings struct {
	Root string `json:"root,omitempty"`
}

// workspaceState is the workspace the running built-in serves, or why
// it could not open. changed is closed (and replaced) whenever it changes.
type workspaceState struct {
	mu      sync.Mutex
	root    string // what the built-in was last started on
	ws      *workspace.Workspace
	err     error
	changed chan struct{}
}

// set records what the workspace built-in's start on root or its stop left.
func (s *workspaceState) set(root string, ws *workspace.Workspace, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.root, s.ws, s.err = root, ws, err
	if s.changed != nil {
		close(s.changed)
	}
	s.changed = make(chan struct{})
}

// StartBuiltins makes the built-in servers part of every apply from now on
// and starts them: the content store in <data dir>/stores, the workspace in
// settings.workspace.root (default <data dir>/workspace). They run under
// the supervisor like any server: status, logs and restarts in one place;
// one that cannot start shows its error as its status. It returns once
// they are ready or have failed (they start in-process, in milliseconds, so
// the first page or command finds their tools); call it before Load, Follow
// or Run.
func (h *Host) StartBuiltins() {
	h.cfgMu.Lock()
	h.builtinsOn = true
	h.mgr.Apply(h.withBuiltins(WorkspaceRoot(h.dir), h.running))
	h.cfgMu.Unlock()
	ctx, cancel := context.WithTimeout(h.ctx, BuiltinStartTimeout)
	defer cancel()
	h.mgr.WaitSettled(ctx)
}

// BuiltinStartTimeout bounds how long StartBuiltins waits for the built-ins.
var BuiltinStartTimeout = 30 * time.Second

// withBuiltins puts the built-ins (when on) before the servers to run.
func (h *Host) withBuiltins(workspaceRoot string, servers []mcpmanager.ServerConfig) []mcpmanager.ServerConfig {
	if !h.builtinsOn {
		return servers
	}
	out := make([]mcpmanager.ServerConfig, 0, len(Builtins)+len(servers))
	for _, b := range Builtins {
		root := b.Root(h.dir)
		if b.Def.Name == workspace.Builtin.Name {
			root = workspaceRoot
		}
		out = append(out, mcpmanager.ServerConfig{Name: b.Def.Name, Builtin: &mcpmanager.Builtin{Key: root, Start: h.starter(b.Def, root)}})
	}
	return append(out, servers...)
}

// starter starts one built-in on root; the workspace is also kept for the
// Workspace page, the terminal and the default approval policy.
func (h *Host) starter(def builtin.Server, root string) func() (*server.MCPServer, func() error, error) {
	if def.Name != workspace.Builtin.Name {
		return func() (*server.MCPServer, func() error, error) { return def.Start(builtin.Config{Root: root}) }
	}
	return func() (*server.MCPServer, func() error, error) {
		w, err := workspace.Open(workspace.Options{Root: root})
		h.wks.set(root, w, err)
		if err != nil {
			return nil, nil, err
		}
		release := func() error {
			h.wks.mu.Lock()
			mine := h.wks.ws == w
			h.wks.mu.Unlock()
			if mine {
				h.wks.set(root, nil, nil)
			}
			ctx, cancel := context.WithTimeout(context.Background(), WorkspaceCloseTimeout)
			defer cancel()
			return w.Close(ctx) // its shells end
		}
		return workspace.NewServer(w), release, nil
	}
}

// WorkspaceCloseTimeout bounds how long the shells of a workspace being
// replaced or closed get to end.
var WorkspaceCloseTimeout = 10 * time.Second

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
		return workspaceRootIn(dir, cfg)
	}
	return dir.Workspace()
}

func workspaceRootIn(dir datadir.Dir, cfg *config.Config) string {
	var m map[string]json.RawMessage
	var s WorkspaceSettings
	if json.Unmarshal(cfg.Settings, &m) == nil && json.Unmarshal(m["workspace"], &s) == nil && s.Root != "" {
		return s.Root
	}
	return dir.Workspace()
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
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("workspace folder %s: %w", dir, err)
	}
	err := h.Edit(func(cfg *config.Config) error {
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
	if err != nil {
		return err
	}
	// The built-in restarts on the new root: wait for it, so what the page
	// shows next is the new workspace.
	ctx, cancel := context.WithTimeout(h.ctx, WorkspaceSwitchTimeout)
	defer cancel()
	_, err = h.workspaceAt(ctx, dir)
	return err
}

// WorkspaceSwitchTimeout bounds how long SetWorkspaceRoot waits for the
// workspace built-in to come up on its new root.
var WorkspaceSwitchTimeout = 30 * time.Second

// workspaceAt waits until the open workspace is the one at root, or its
// start failed.
func (h *Host) workspaceAt(ctx context.Context, root string) (*workspace.Workspace, error) {
	for {
		h.wks.mu.Lock()
		at, w, err, changed := h.wks.root == root, h.wks.ws, h.wks.err, h.wks.changed
		if changed == nil {
			h.wks.changed = make(chan struct{})
			changed = h.wks.changed
		}
		h.wks.mu.Unlock()
		switch {
		case at && w != nil:
			return w, nil
		case at && err != nil:
			return nil, err
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, fmt.Errorf("the workspace did not open in %s: %w", root, ctx.Err())
		}
	}
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
