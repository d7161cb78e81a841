// Package app is the Wails-bound facade: thin methods the frontend calls and
// the events it listens to. It holds no business logic; each method delegates
// to the package that owns the work (mcpmanager, builtin, app/chat, ...).
//
//	a := app.New(signalCtx, dir)
//	wails.Run(&options.App{OnStartup: a.Startup, OnShutdown: a.Shutdown, Bind: []any{a}})
//
// Startup and Shutdown are Wails lifecycle hooks (Wails does not expose them to
// the frontend when they are passed as OnStartup/OnShutdown).
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
	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/builtin/contentstore"
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// App is bound to the frontend.
type App struct {
	dir     datadir.Dir
	quit    context.Context
	started time.Time
	mgr     *mcpmanager.Manager
	store   *secrets.Store
	red     *secrets.Redactor // every resolved secret, masked out of what the UI sees

	// emit sends a status to the frontend; tests replace it.
	emit func(ServerView)
	seq  atomic.Int64

	cfgMu   sync.Mutex
	servers []config.Server // the app config's servers, as last loaded
	cfgErr  string

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
	wks     workspaceState
	// usage caches history's per-server chat counts for "used by".
	usageMu sync.Mutex
	usage   map[string]int
	usageAt time.Time
	applied atomic.Pointer[applied] // what apply last applied, for the server views
	// emitHook replaces Wails events in tests.
	emitHook func(name string, data any)

	// life ends when the app closes; background work runs under it.
	life context.Context
	stop context.CancelFunc

	closeOnce sync.Once
	closeErr  error
}

// Info describes the running app to the frontend.
type Info struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	DataDir string `json:"dataDir"`
}

// New returns the facade for the given data directory. When quit is done
// (SIGINT/SIGTERM), the window closes the way it does when the user closes it,
// so Shutdown runs and no child process outlives the app.
func New(quit context.Context, dir datadir.Dir) *App {
	a := &App{dir: dir, quit: quit, started: time.Now(), turns: map[string]*turn{}}
	a.life, a.stop = context.WithCancel(context.Background())
	a.store, a.red = secrets.NewStore(), secrets.NewRedactor()
	a.mgr = mcpmanager.New(mcpmanager.Options{LogDir: dir.Logs(), OnStatus: a.onStatus, Redact: a.red.Redact, Tokens: a.store})
	a.asker = newAsker(a.emitEvent)
	a.engine = chat.New(chat.Options{Tools: a.mgr.Registry(), History: chatHistory{a}, Approver: a.asker, DefaultPolicy: a.toolPolicy})
	a.mgr.SetRequestHandler(&chat.Requests{Engine: a.engine, Approver: a.asker, Elicitor: a.asker, Fallback: a.defaultModel})
	return a
}

// onStatus forwards a server's status change to the frontend, off the
// caller's goroutine: building the view may list tools, and the manager may
// hold its lock while reporting.
func (a *App) onStatus(st supervisor.Status) {
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
func (a *App) wailsContext() context.Context {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ctx
}

// loadServers reads the app config and starts its servers.
func (a *App) loadServers() error {
	cfg, err := config.Load(a.dir.Config())
	if err != nil {
		return err
	}
	a.cfgMu.Lock()
	a.servers = cfg.Servers
	a.cfgMu.Unlock()
	a.apply(cfg)
	return nil
}

func (a *App) serverConfig(name string) (config.Server, bool) {
	a.cfgMu.Lock()
	defer a.cfgMu.Unlock()
	for _, s := range a.servers {
		if s.Name == name {
			return s, true
		}
	}
	return config.Server{}, false
}

// Startup is Wails' OnStartup hook: it keeps the runtime context for events.
func (a *App) Startup(ctx context.Context) {
	a.mu.Lock()
	a.ctx = ctx
	a.mu.Unlock()
	go func() {
		select {
		case <-a.quit.Done():
			wruntime.Quit(ctx)
		case <-ctx.Done():
		}
	}()
	slog.Info("switchboard started", "version", buildinfo.String(), "dataDir", a.dir.String())
	a.openHistory()
	for _, err := range a.mgr.AttachBuiltins(builtinRoot(a.dir), contentstore.Builtin) {
		slog.Error("built-in server", "err", err)
	}
	if err := a.openWorkspace(a.workspaceRoot()); err != nil {
		slog.Error("built-in server workspace", "err", err)
	}
	if err := a.loadServers(); err != nil {
		slog.Error("load servers", "err", err)
		a.setConfigError(err)
	}
}

// Shutdown is Wails' OnShutdown hook: it closes everything the app opened.
func (a *App) Shutdown(ctx context.Context) {
	if err := a.close(ctx); err != nil {
		slog.Error("shutdown", "err", err)
	}
}

// close releases every resource; safe to call more than once.
func (a *App) close(ctx context.Context) error {
	a.closeOnce.Do(func() {
		a.stop() // Stop every turn; each keeps what arrived.
		a.turnWG.Wait()
		errs := []error{a.closeWorkspace(ctx), a.mgr.Close(ctx)}
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
	return nil
}

// setConfigError remembers why the config could not be loaded, for ConfigError.
func (a *App) setConfigError(err error) {
	a.cfgMu.Lock()
	defer a.cfgMu.Unlock()
	a.cfgErr = err.Error()
}

// ConfigError returns why config.json could not be loaded ("" when it was).
func (a *App) ConfigError() (string, error) {
	a.cfgMu.Lock()
	defer a.cfgMu.Unlock()
	return a.cfgErr, nil
}

// builtinRoot says where each built-in keeps its data in dir.
func builtinRoot(dir datadir.Dir) func(builtin.Server) string {
	return func(b builtin.Server) string {
		switch b.Name {
		case contentstore.Builtin.Name:
			return dir.Stores()
		}
		return dir.String()
	}
}
