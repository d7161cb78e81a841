package gui

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/app/host"
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

	// Chat: the questions put to the user, and the turns' goroutines (the
	// host wires the engine and tracks the turns themselves: Chats.Wire,
	// Begin, Stop).
	asker  *asker
	turnWG sync.WaitGroup
	// settler gives memory back once turns are over (settle.go).
	settler *settler
	// terminals are the shell sessions whose output goes to the page.
	terminals terminals
	// folder watches the workspace folder while the Workspace page is open.
	folder host.FolderWatch

	// requests answers the servers' requests (sampling, forms); an MCP
	// App's sampling goes through it too, under the same settings and caps.
	requests *host.ChatRequests

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
	apps *host.MCPApps

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
func New(quit context.Context, dir datadir.Dir) *Window {
	c := &core{dir: dir, quit: quit, started: time.Now(), shown: make(chan struct{})}
	c.life, c.stop = context.WithCancel(context.Background())
	c.settler = newSettler(func() { settleNow("chat turns", c.started) })
	c.h = host.Open(host.Options{Dir: dir, OnStatus: c.onStatus, OnLocal: c.onLocal})
	c.asker = newAsker(c.emitEvent)
	c.requests = &host.ChatRequests{Approver: c.asker, Elicitor: c.asker,
		Fallback: c.h.Chats.FallbackModel, ChatModel: c.chatModel, OnRefused: c.samplingRefused}
	c.h.Chats.Wire(c.asker, c.requests, nil)
	if err := c.h.MCPApps.Start(); err != nil {
		slog.Error("mcp apps", "err", err)
	} else {
		c.apps = c.h.MCPApps
	}
	return &Window{core: c, ServersPage: &ServersPage{c}, ToolsPage: &ToolsPage{c}, ChatPage: &ChatPage{c},
		AgentsPage: &AgentsPage{c}, WorkspacePage: &WorkspacePage{c}, SettingsPage: &SettingsPage{c},
		WelcomePage: &WelcomePage{c}, Content: &Content{c}, MCPApps: &MCPApps{c}, Sandbox: &Sandbox{c}, Safety: &Safety{c},
		Bundles: &Bundles{c}, MCPRegistry: &MCPRegistry{c}, SkillsPage: &SkillsPage{c}, ClientsPage: &ClientsPage{c}}
}

// Bindings is what Wails binds: the app and each page. (A function, not a
// method: a method of Window would be bound too.)
func Bindings(a *Window) []any {
	return []any{a, a.ServersPage, a.ToolsPage, a.ChatPage, a.AgentsPage, a.WorkspacePage, a.SettingsPage, a.WelcomePage, a.Content, a.MCPApps, a.Sandbox, a.Safety, a.Bundles, a.MCPRegistry, a.SkillsPage, a.ClientsPage}
}

// onStatus forwards a server's status change to the frontend, off the
// caller's goroutine: building the view may list tools, and the manager may
// hold its lock while reporting.
func (a *core) onStatus(st host.ServerStatus) {
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

// ServersWaitForWindow is how long Startup waits for the frontend's first
// render (Ready) before it starts the configured servers anyway (a web view
// that never reports, a test without one).
var ServersWaitForWindow = 3 * time.Second

// EventConfigChanged says config.json changed outside the window (the CLI,
// an editor) and was reloaded: pages showing settings fetch them again.
const EventConfigChanged = "config:changed"

// close releases every resource; safe to call more than once.
func (a *core) close(ctx context.Context) error {
	a.closeOnce.Do(func() {
		a.stop() // Stop every turn; each keeps what arrived.
		a.turnWG.Wait()
		a.terminals.detachAll()
		a.folder.Close()
		a.closeErr = a.h.Close(ctx) // the host closes the history too
	})
	return a.closeErr
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
