// Package app is the window's front door: per-page Wails-bound structs with
// thin methods that call the host core (app/host) and shape views for the
// frontend, plus the events it listens to. The logic lives in app/host,
// which the CLI (app/cli) calls too.
//
//	a := app.New(signalCtx, dir)
//	wails.Run(&options.App{OnStartup: a.Startup, OnShutdown: a.Shutdown, Bind: app.Bindings(a)})
//
// Startup and Shutdown are Wails lifecycle hooks (Wails does not expose them to
// the frontend when they are passed as OnStartup/OnShutdown). Each page's
// methods are on its own struct (ServersPage, ToolsPage, ChatPage,
// AgentsPage, WorkspacePage, SettingsPage), which Bindings returns with App.
//
// Bound methods are safe for concurrent use: Wails calls them from many goroutines.
package app

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/switchboard-app/switchboard/app/buildinfo"
	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/app/host"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// App is the window: its lifecycle hooks, what every page shares (Info,
// Ready, ConfigError), and the page structs Bind hands to Wails.
type App struct {
	*core
	ServersPage   *ServersPage
	ToolsPage     *ToolsPage
	ChatPage      *ChatPage
	AgentsPage    *AgentsPage
	WorkspacePage *WorkspacePage
	SettingsPage  *SettingsPage
	WelcomePage   *WelcomePage
	Content       *Content
	Apps          *Apps
	Sandbox       *Sandbox
	Safety        *Safety
	Bundles       *Bundles
	MCPRegistry   *MCPRegistry
}

// The pages of the window, each bound on its own. They share one core.
type (
	// ServersPage is the Servers page: status, import, library, profiles.
	ServersPage struct{ *core }
	// ToolsPage is the tool playground (and the Knowledge page's calls).
	ToolsPage struct{ *core }
	// ChatPage is the chat: chats, turns, approvals, prompts and resources.
	ChatPage struct{ *core }
	// AgentsPage is the Agents page.
	AgentsPage struct{ *core }
	// WorkspacePage is the workspace folder and its terminals.
	WorkspacePage struct{ *core }
	// SettingsPage is providers, secrets and tool search.
	SettingsPage struct{ *core }
)

// core is the state every page shares: the host, the chat engine and the
// Wails context. Its methods are unexported, so no page binds them.
type core struct {
	h       *host.Host
	dir     datadir.Dir
	quit    context.Context
	started time.Time

	// emit sends a status to the frontend; tests replace it.
	emit func(ServerView)
	seq  atomic.Int64

	cfgMu  sync.Mutex
	cfgErr string

	mu  sync.Mutex
	ctx context.Context // Wails runtime context, set by Startup

	// Chat: the history store (opened by Startup), the engine, the questions
	// put to the user, and the turns running (their Stop functions).
	hist    atomic.Pointer[history.Store]
	histErr atomic.Pointer[error]
	engine  *chat.Engine
	asker   *asker
	turnsMu sync.Mutex
	turns   map[string]*turn
	turnWG  sync.WaitGroup
	// terminals are the shell sessions whose output goes to the page.
	terminals terminals

	// requests answers the servers' requests (sampling, forms); an MCP
	// App's sampling goes through it too, under the same settings and caps.
	requests *chat.Requests

	// usage caches history's per-server chat counts for "used by".
	usageMu sync.Mutex
	usage   map[string]int
	usageAt time.Time
	// emitHook replaces Wails events in tests.
	emitHook func(name string, data any)

	// shown is closed by Ready, when the frontend's first render is on
	// screen; the configured servers start then (see ServersWaitForWindow).
	shown     chan struct{}
	shownOnce sync.Once

	// life ends when the app closes; background work runs under it.
	life context.Context
	stop context.CancelFunc

	closeOnce sync.Once
	closeErr  error

	// apps renders MCP Apps (Apps); nil when its proxy could not start.
	apps *host.Apps

	// icons fetches and caches servers' https icons (Content.Icon).

	// files opened with Switchboard not yet taken by the window (OpenFile).
	filesMu sync.Mutex
	files   []string
}

// Info describes the running app to the frontend.
type Info struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	DataDir string `json:"dataDir"`
}

// New returns the window's front door for the given data directory. quit
// is done on SIGINT/SIGTERM: waits that must not outlive it (a save waiting
// for its server) end with it. The window itself is closed by Wails' own
// handler of those signals, so Shutdown runs and no child process outlives
// the app; a second Quit from here raced it (two gtk_main_quit calls from
// two goroutines crashed the app on SIGTERM now and then).
func New(quit context.Context, dir datadir.Dir) *App {
	c := &core{dir: dir, quit: quit, started: time.Now(), turns: map[string]*turn{}, shown: make(chan struct{})}
	c.life, c.stop = context.WithCancel(context.Background())
	c.h = host.Open(host.Options{Dir: dir, OnStatus: c.onStatus, OnLocal: c.onLocal})
	c.asker = newAsker(c.emitEvent)
	c.engine = c.h.Chats.Engine(chatHistory{c}, c.asker)
	c.requests = c.h.Chats.Requests(&chat.Requests{Engine: c.engine, Approver: c.asker, Elicitor: c.asker,
		Fallback: c.h.Chats.FallbackModel, ChatModel: c.chatModel, OnRefused: c.samplingRefused})
	c.h.Servers.HandleRequests(c.requests)
	if err := c.h.Apps.Start(); err != nil {
		slog.Error("mcp apps", "err", err)
	} else {
		c.apps = c.h.Apps
	}
	return &App{core: c, ServersPage: &ServersPage{c}, ToolsPage: &ToolsPage{c}, ChatPage: &ChatPage{c},
		AgentsPage: &AgentsPage{c}, WorkspacePage: &WorkspacePage{c}, SettingsPage: &SettingsPage{c},
		WelcomePage: &WelcomePage{c}, Content: &Content{c}, Apps: &Apps{c}, Sandbox: &Sandbox{c}, Safety: &Safety{c},
		Bundles: &Bundles{c}, MCPRegistry: &MCPRegistry{c}}
}

// Bindings is what Wails binds: the app and each page. (A function, not a
// method: a method of App would be bound too.)
func Bindings(a *App) []any {
	return []any{a, a.ServersPage, a.ToolsPage, a.ChatPage, a.AgentsPage, a.WorkspacePage, a.SettingsPage, a.WelcomePage, a.Content, a.Apps, a.Sandbox, a.Safety, a.Bundles, a.MCPRegistry}
}

// onStatus forwards a server's status change to the frontend, off the
// caller's goroutine: building the view may list tools, and the manager may
// hold its lock while reporting.
func (a *core) onStatus(st supervisor.Status) {
	seq := a.seq.Add(1) // taken in call order, so the frontend can drop stale events
	go func() {
		v := a.statusView(st)
		v.Seq = seq
		if a.emit != nil {
			a.emit(v)
			return
		}
		if ctx := a.wailsContext(); ctx != nil {
			wruntime.EventsEmit(ctx, EventServerStatus, v)
		}
	}()
}

// wailsContext is the Wails runtime context, nil before Startup.
func (a *core) wailsContext() context.Context {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ctx
}

// Startup is Wails' OnStartup hook: it keeps the runtime context for events.
func (a *App) Startup(ctx context.Context) {
	a.mu.Lock()
	a.ctx = ctx
	a.mu.Unlock()
	slog.Info("switchboard started", "version", buildinfo.String(), "dataDir", a.dir.String())
	a.openHistory()
	go a.watchTools()
	a.h.Servers.StartBuiltins()
	// The configured servers start once the window is on screen: starting
	// them (Node, Python) takes the CPU the web view needs to paint, and
	// with 10 of them the window took three times as long to show.
	select {
	case <-a.shown:
	case <-time.After(ServersWaitForWindow):
	case <-a.life.Done():
		return
	}
	// config.json is followed: what another process (the CLI, an editor)
	// saves is applied and the pages are told to refresh.
	err := a.h.Servers.Follow(func(err error) {
		a.setConfigError(err)
		a.emitEvent(EventConfigChanged, nil)
	})
	if err != nil {
		slog.Error("load servers", "err", err)
		a.setConfigError(err)
	}
	a.emitEvent(EventConfigChanged, nil) // pages that listed no servers yet list them
}

// ServersWaitForWindow is how long Startup waits for the frontend's first
// render (Ready) before it starts the configured servers anyway (a web view
// that never reports, a test without one).
var ServersWaitForWindow = 3 * time.Second

// EventConfigChanged says config.json changed outside the window (the CLI,
// an editor) and was reloaded: pages showing settings fetch them again.
const EventConfigChanged = "config:changed"

// Shutdown is Wails' OnShutdown hook: it closes everything the app opened.
func (a *App) Shutdown(ctx context.Context) {
	if err := a.close(ctx); err != nil {
		slog.Error("shutdown", "err", err)
	}
}

// close releases every resource; safe to call more than once.
func (a *core) close(ctx context.Context) error {
	a.closeOnce.Do(func() {
		a.stop() // Stop every turn; each keeps what arrived.
		a.turnWG.Wait()
		a.terminals.detachAll()
		errs := []error{a.h.Close(ctx)}
		if h := a.hist.Load(); h != nil {
			errs = append(errs, h.Close())
		}
		a.closeErr = errors.Join(errs...)
	})
	return a.closeErr
}

// Info returns the app's name, version and data directory.
func (a *App) Info() (Info, error) {
	return Info{Name: "Switchboard", Version: buildinfo.String(), DataDir: a.dir.String()}, nil
}

// Ready is called by the frontend once its first render is on screen. The log
// line is what start-up measurements and the smoke test wait for.
func (a *App) Ready() error {
	slog.Info("frontend ready", "sinceStart", time.Since(a.started).Round(time.Millisecond))
	a.shownOnce.Do(func() { close(a.shown) })
	return nil
}

// setConfigError remembers why the config could not be loaded, for
// ConfigError (nil: it loaded).
func (a *core) setConfigError(err error) {
	a.cfgMu.Lock()
	defer a.cfgMu.Unlock()
	a.cfgErr = ""
	if err != nil {
		a.cfgErr = err.Error()
	}
}

// ConfigError returns why config.json could not be loaded ("" when it was).
func (a *App) ConfigError() (string, error) {
	a.cfgMu.Lock()
	defer a.cfgMu.Unlock()
	return a.cfgErr, nil
}
