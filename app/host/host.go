// Package host is the use-case layer under Switchboard's two front doors:
// the window (package app, Wails-bound) and the terminal (app/cli) both call
// it, so a feature behaves the same from either. It opens a data directory,
// starts the built-in servers from one table, applies the configured servers
// (config → profile → secrets → manager), edits config.json as one
// transaction, imports other hosts' configs, decides the default approval
// policy and sets up chat turns. It has no Wails, no flags and prints nothing.
//
//	h := host.Open(host.Options{Dir: dir, OnStatus: push})
//	defer h.Close(ctx)
//	h.StartBuiltins()                         // content store + workspace (settings.workspace.root)
//	err := h.Follow(onReload)                  // config.json's servers, then what other processes save
//	res, err := h.Import(ctx, host.ImportRequest{Name: "claude.json", Data: data})
//	err = h.SetEnabled("github", false)        // an Edit: locked, saved atomically, applied
//
// The CLI opens a Host the same way and calls Run with the servers of a
// --config file instead of Follow; an Edit from the CLI starts nothing.
// See Example.
//
// A Host is safe for concurrent use.
package host

import (
	"cmp"
	"context"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/buildinfo"
	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/pins"
	"github.com/switchboard-app/switchboard/mcpmanager/registry"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// Options configure a Host.
type Options struct {
	// Context, when it ends, stops what the host is doing (a CLI command's
	// SIGINT/SIGTERM): an edit waiting for the config lock gives up.
	Context context.Context
	// Dir is the data directory (config.json, logs, stores, workspace).
	Dir datadir.Dir
	// NoLogFiles keeps servers' stderr in memory instead of Dir/logs (a CLI
	// run on a --config file that must not touch the data dir's logs).
	NoLogFiles bool
	// OnStatus gets every server status change; it must not block.
	OnStatus func(supervisor.Status)
	// OnLoginURL gets an OAuth login's authorization URL before the browser opens.
	OnLoginURL func(server, url string)
}

// Host is one opened data directory and the servers running for it.
type Host struct {
	dir   datadir.Dir
	mgr   *mcpmanager.Manager
	store *secrets.Store
	red   *secrets.Redactor

	cfgMu   sync.Mutex
	servers []config.Server // config.json's servers, as last loaded or saved
	applied atomic.Pointer[Applied]

	ws *Workspace
	// pins are the trusted tool definitions; the registry's gate.
	pins *pins.Store
	// live: Load or Follow ran, so edits apply to the running servers.
	live bool
	// builtinsOn: StartBuiltins was called, so every apply runs them too.
	builtinsOn bool
	// running is the configured servers last applied (without built-ins).
	running []mcpmanager.ServerConfig

	// ctx ends at Close; background work (Follow) runs under it, in wg.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	closeOnce sync.Once
	closeErr  error
}

// Open returns the host of opts.Dir. No server starts until StartBuiltins
// and Load (or Run) are called.
func Open(opts Options) *Host {
	h := &Host{dir: opts.Dir, store: secrets.NewStore(), red: secrets.NewRedactor()}
	h.ws = &Workspace{h: h}
	h.pins = openPins(h)
	h.ctx, h.cancel = context.WithCancel(cmp.Or(opts.Context, context.Background()))
	mo := mcpmanager.Options{
		OnStatus: opts.OnStatus, Redact: h.red.Redact, Tokens: h.store, OnLoginURL: opts.OnLoginURL,
		ClientInfo: mcp.Implementation{Name: "switchboard", Version: buildinfo.String()},
		Gate:       h.pins,
	}
	if !opts.NoLogFiles {
		mo.LogDir = opts.Dir.Logs()
	}
	h.mgr = mcpmanager.New(mo)
	return h
}

// Dir is the data directory.
func (h *Host) Dir() datadir.Dir { return h.dir }

// Manager runs the servers.
func (h *Host) Manager() *mcpmanager.Manager { return h.mgr }

// Registry is every running server's tools.
func (h *Host) Registry() *registry.Registry { return h.mgr.Registry() }

// Secrets is the OS keyring store.
func (h *Host) Secrets() *secrets.Store { return h.store }

// Redact masks every secret value resolved so far in s.
func (h *Host) Redact(s string) string { return h.red.Redact(s) }

// Close stops every server and the workspace; safe to call more than once.
func (h *Host) Close(ctx context.Context) error {
	h.closeOnce.Do(func() {
		h.cancel()
		h.wg.Wait()
		h.closeErr = h.mgr.Close(ctx) // the built-ins' release closes the workspace
	})
	return h.closeErr
}
