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
	"github.com/switchboard-app/switchboard/mcpmanager/icons"
	"github.com/switchboard-app/switchboard/mcpmanager/pins"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
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
	OnStatus func(ServerStatus)
	// OnLoginURL gets an OAuth login's authorization URL before the browser opens.
	OnLoginURL func(server, url string)
	// OnLocal gets every change of the local model's status; it must not block.
	OnLocal func(LocalStatus)
}

// Host is one opened data directory and the servers running for it.
type Host struct {
	dir   datadir.Dir
	mgr   *mcpmanager.Manager
	store *secrets.Store
	red   *secrets.Redactor
	// pendingScope is the keyring scope made at Open for a data dir
	// without config.json yet; the first edit writes it there.
	pendingScope string

	cfgMu   sync.Mutex
	servers []Server // config.json's servers, as last loaded or saved
	applied atomic.Pointer[Applied]

	// The host's parts, made once in Open: each owns one group of use
	// cases, and the front doors reach the engine only through them.
	Servers     *Servers     // config.json's servers: run, edit, test, log in, status
	ServerFiles *ServerFiles // mcpServers files: read a --config, import, export
	ServerLogs  *ServerLogs  // the servers' stderr and MCP log messages, their log level
	Tools       *Tools       // what the running servers offer: tools, prompts, resources, calls
	Chats       *Chats       // chat turns: model, engine, title, context window
	Settings    *Settings    // config.json's settings: chat, providers, rules
	Agents      *Agents      // config.json's agents, and Claude Code's agent files imported
	Secrets     *Secrets     // the keyring and what uses it
	Library     *Library     // templates, profiles, server metadata
	Workspace   *Workspace   // the workspace built-in: root, files, shells
	Bundles     *Bundles     // MCP Bundles (.mcpb): inspect, install, remove
	MCPRegistry *MCPRegistry // the MCP Registry: search it, add its servers
	Pins        *Pins        // trusted tool definitions and changes to review
	Tasks       *Tasks       // MCP tasks: settings, cancel
	Skills      *Skills      // servers' skills (the skills extension): list, switch on and off
	Fetch       *Fetch       // packages fetched before a server's first start
	Icons       *Icons       // servers' icons as the window shows them
	MCPApps     *MCPApps     // MCP Apps: their ui:// resources and what they may ask (the window Starts it)
	Local       *Local       // the model on this computer: llama-server, started for the chats that use it
	Models      *Models      // the local model's files: catalog, downloads, chosen GGUF files
	LocalSkills *LocalSkills // skills on this computer (SKILL.md folders): find, pin, add, switch
	Shared      *Shared      // the servers shared with other apps' 'serve' over a local socket
	Serve       *Serve       // 'switchboard serve': the servers as one MCP server, over stdio or HTTP
	Clients     *Clients     // other MCP apps: connect, disconnect, move their servers here
	UIState     *UIState     // what the window remembers that is not configuration (ui.json)

	// pins are the trusted tool definitions; the router's gate.
	pins *pins.Store
	// live: Load or Follow ran, so edits apply to the running servers.
	live bool
	// builtinsOn: StartBuiltins was called, so every apply runs them too.
	builtinsOn bool
	// running is the configured servers last applied (without built-ins).
	running []mcpmanager.ServerConfig
	// results are the capped tool results chats keep, per chat.
	results *chatResults

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
	h := &Host{dir: opts.Dir, store: secrets.NewStore(), red: secrets.NewRedactor(), results: &chatResults{root: opts.Dir.Results()}}
	h.Servers, h.Tools, h.Chats, h.Settings = &Servers{h}, &Tools{h}, &Chats{h: h}, &Settings{h}
	h.Secrets, h.Library, h.Workspace = &Secrets{h}, &Library{h}, &Workspace{h: h}
	h.Bundles, h.MCPRegistry, h.Pins, h.Tasks, h.Fetch = &Bundles{h}, &MCPRegistry{h}, &Pins{h}, &Tasks{h}, &Fetch{h}
	h.Skills, h.Serve = &Skills{h}, &Serve{h: h}
	h.ServerFiles, h.ServerLogs = &ServerFiles{h}, &ServerLogs{h}
	h.Shared = &Shared{h: h}
	h.Clients = &Clients{h}
	h.Agents = &Agents{h}
	h.UIState = &UIState{h}
	h.Models = newModels(h)
	h.Icons, h.MCPApps = &Icons{icons.New()}, &MCPApps{h: h, context: map[string]map[appKey]string{}}
	h.Local = &Local{h: h, onStatus: opts.OnLocal}
	h.pins = openPins(h)
	h.ctx, h.cancel = context.WithCancel(cmp.Or(opts.Context, context.Background()))
	mo := mcpmanager.Options{
		// Every secret resolved for a server is masked at the source: what
		// the servers list, return and fail with, for every door.
		OnStatus: opts.OnStatus, Redact: h.red, Tokens: h.store, OnLoginURL: opts.OnLoginURL,
		ClientInfo: mcp.Implementation{Name: "switchboard", Version: buildinfo.String()},
		Gate:       h.pins,
		Private:    []string{opts.Dir.String()},
	}
	if !opts.NoLogFiles {
		mo.LogDir = opts.Dir.Logs()
	}
	// Kept whatever the servers' source: a listing is filed under its
	// entry as written, so a --config file's servers keep their own.
	mo.ListingsDir = opts.Dir.Listings()
	h.mgr = mcpmanager.New(mo)
	h.LocalSkills = newLocalSkills(h)
	h.mgr.SetLocalSkills(h.LocalSkills.store)
	h.openKeyring()
	return h
}

// Dir is the data directory.
func (h *Host) Dir() datadir.Dir { return h.dir }

// router is every running server's tools.
func (h *Host) router() *router.Router { return h.mgr.Router() }

// Redact masks every secret value resolved so far in s.
func (h *Host) Redact(s string) string { return h.red.Redact(s) }

// Close stops every server and the workspace; safe to call more than once.
func (h *Host) Close(ctx context.Context) error {
	h.closeOnce.Do(func() {
		h.cancel()
		h.wg.Wait()
		h.closeErr = cmp.Or(h.MCPApps.close(ctx), h.Local.close(ctx), h.mgr.Close(ctx), h.pins.Close(), h.results.close(), h.Chats.close()) // the built-ins' release closes the workspace
	})
	return h.closeErr
}

// readConfig reads config.json.
func (h *Host) readConfig() (*config.Config, error) {
	h.cfgMu.Lock()
	defer h.cfgMu.Unlock()
	return config.LoadContext(h.ctx, h.dir.Config())
}

// edit changes config.json as one transaction, across processes (see
// config.Edit): lock, read, fn, save atomically (nothing is written when fn
// fails), then the running servers follow.
func (h *Host) edit(fn func(cfg *config.Config) error) error {
	h.cfgMu.Lock()
	defer h.cfgMu.Unlock()
	saved, err := config.EditBackup(h.ctx, h.dir.Config(), h.keepBackup, func(cfg *config.Config) error {
		if err := h.editScoped(cfg); err != nil {
			return err
		}
		if err := fn(cfg); err != nil {
			return err
		}
		return ensureIDs(cfg) // an entry fn added without one is the user's
	})
	if err != nil {
		return err
	}
	fresh := added(h.servers, saved.Servers)
	h.servers = saved.Servers
	if h.live { // a CLI command edits without running anything
		h.apply(saved)
		h.Fetch.prefetch(saved, fresh...) // imported or added: warm before the first start
	}
	return nil
}
