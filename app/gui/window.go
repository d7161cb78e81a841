package gui

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"time"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/switchboard-app/switchboard/app/buildinfo"
	"github.com/switchboard-app/switchboard/app/host"
)

// The window's own events (not a page's).
const (
	// EventFileOpen carries a FileOpen: a file (a .mcpb bundle) was opened
	// with Switchboard, at start or from a second launch.
	EventFileOpen = "file:open"
	// EventAbout asks the window to show Help → About (from the menu).
	EventAbout = "app:about"
)

// FileOpen is a file handed to the window by the desktop.
type FileOpen struct {
	Path string `json:"path"`
}

// AboutView is Help → About.
type AboutView struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	DataDir string `json:"dataDir"`
	LogDir  string `json:"logDir"`
	Licence string `json:"licence"`
	Go      string `json:"go"`
	// ThirdParty are the licences of what ships beside the app: the local
	// model runtime (llama.cpp and what it vendors).
	ThirdParty []buildinfo.Notice `json:"thirdParty"`
}

// About returns what Help → About shows.
func (a *Window) About() (AboutView, error) {
	return AboutView{Name: "Switchboard", Version: buildinfo.String(), DataDir: a.dir.String(),
		LogDir: a.dir.Logs(), Licence: buildinfo.Licence, Go: runtime.Version(), ThirdParty: buildinfo.Runtime}, nil
}

// openFolder opens a folder in the desktop's file manager; tests replace it.
var openFolder = func(dir string) error {
	name := map[string]string{"darwin": "open", "windows": "explorer"}[runtime.GOOS]
	if name == "" {
		name = "xdg-open"
	}
	cmd := exec.Command(name, dir)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("open %s with %s: %w; open the folder yourself", dir, name, err)
	}
	go cmd.Wait() //nolint:errcheck // explorer exits 1 on success; nothing to report
	return nil
}

// OpenLogFolder opens the folder of the servers' logs (created if missing).
func (a *Window) OpenLogFolder() error {
	if err := os.MkdirAll(a.dir.Logs(), 0o700); err != nil {
		return fmt.Errorf("create the log folder: %w", err)
	}
	return openFolder(a.dir.Logs())
}

// OpenFile is the hook for files opened with Switchboard (a .mcpb bundle
// double-clicked, or passed on the command line, at start or to a second
// launch): the path is queued for TakeOpenedFiles and EventFileOpen is
// emitted, on which the window shows the Servers page. Bundle installation
// wires to either.
func OpenFile(a *Window, path string) {
	a.filesMu.Lock()
	a.files = append(a.files, path)
	a.filesMu.Unlock()
	slog.Info("file opened", "path", path)
	a.emitEvent(EventFileOpen, FileOpen{Path: path})
}

// TakeOpenedFiles returns the files opened with Switchboard that the window
// has not taken yet (those that arrived before it could listen), once.
func (a *Window) TakeOpenedFiles() ([]string, error) {
	a.filesMu.Lock()
	defer a.filesMu.Unlock()
	out := append([]string{}, a.files...)
	a.files = nil
	return out, nil
}

// raiseWindow brings the window to the front; tests replace it (the Wails
// runtime needs a real window).
var raiseWindow = func(ctx context.Context) {
	wruntime.WindowUnminimise(ctx)
	wruntime.WindowShow(ctx)
}

// SecondLaunch is what a second launch of Switchboard hands the running
// one: its window comes to the front and gets the files it was given.
func SecondLaunch(a *Window, files []string) {
	if ctx := a.wailsContext(); ctx != nil {
		raiseWindow(ctx)
	}
	slog.Info("second launch", "files", len(files))
	for _, f := range files {
		OpenFile(a, f)
	}
}

// Window size limits, shared with main's options.
const (
	MinWidth  = 720
	MinHeight = 480
)

// WindowGeometry returns the window's remembered size and position, or
// ok false when there is none worth using.
func WindowGeometry(a *Window) (w host.WindowGeometry, ok bool) {
	w, ok, err := a.h.UIState.Window(MinWidth, MinHeight)
	if err != nil {
		slog.Warn("ui state", "err", err)
	}
	return w, ok
}

// RestoreWindow moves the window where it was last (Wails' OnDomReady).
func RestoreWindow(ctx context.Context, a *Window) {
	w, ok := WindowGeometry(a)
	if !ok {
		return
	}
	if w.Maximised {
		wruntime.WindowMaximise(ctx)
		return
	}
	wruntime.WindowSetPosition(ctx, w.X, w.Y)
}

// RememberWindow saves the window's size and position (Wails'
// OnBeforeClose); it never stops the window from closing.
func RememberWindow(ctx context.Context, a *Window) bool {
	var w host.WindowGeometry
	w.Maximised = wruntime.WindowIsMaximised(ctx)
	if w.Maximised {
		if old, ok := WindowGeometry(a); ok {
			w.X, w.Y, w.Width, w.Height = old.X, old.Y, old.Width, old.Height
		}
	} else {
		w.Width, w.Height = wruntime.WindowGetSize(ctx)
		w.X, w.Y = wruntime.WindowGetPosition(ctx)
	}
	if err := a.h.UIState.RememberWindow(w); err != nil && !errors.Is(err, os.ErrNotExist) {
		slog.Warn("remember the window", "err", err)
	}
	return false
}

// ShowAbout asks the window to show Help → About (the menu's item).
func ShowAbout(a *Window) { a.emitEvent(EventAbout, nil) }

// Quit closes the window the way its close button does (File → Quit).
func Quit(a *Window) {
	if ctx := a.wailsContext(); ctx != nil {
		wruntime.Quit(ctx)
	}
}

// Window is the window: its lifecycle hooks, what every page shares (Info,
// Ready, ConfigError), and the page structs Bind hands to Wails.
type Window struct {
	*core
	ServersPage   *ServersPage
	ToolsPage     *ToolsPage
	ChatPage      *ChatPage
	AgentsPage    *AgentsPage
	WorkspacePage *WorkspacePage
	SettingsPage  *SettingsPage
	WelcomePage   *WelcomePage
	Content       *Content
	MCPApps       *MCPApps
	Sandbox       *Sandbox
	Safety        *Safety
	Bundles       *Bundles
	MCPRegistry   *MCPRegistry
	SkillsPage    *SkillsPage
	ClientsPage   *ClientsPage

	closing closing // what closing the window does while apps use its servers (closing.go)
}

// Startup is Wails' OnStartup hook: it keeps the runtime context for events.
func (a *Window) Startup(ctx context.Context) {
	a.mu.Lock()
	a.ctx = ctx
	a.mu.Unlock()
	slog.Info("switchboard started", "version", buildinfo.String(), "dataDir", a.dir.String())
	a.openHistory()
	a.followHistory()
	a.Bundles.clearIncoming() // dropped bundles an earlier run left
	go a.settleAfterStart()
	go a.settleAfterTurns()
	go a.watchTools()
	a.SkillsPage.watchSkills()
	// Other apps' 'switchboard serve' attach here and share the servers
	// (before any starts: they offer the apps' forms and sampling).
	if err := a.h.Shared.Start(a.life); err != nil {
		slog.Warn("shared servers: not shared with other apps", "err", err)
	}
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

// Shutdown is Wails' OnShutdown hook: it closes everything the app opened.
func (a *Window) Shutdown(ctx context.Context) {
	a.Bundles.clearIncoming() // dropped bundles nobody installed
	if err := a.close(ctx); err != nil {
		slog.Error("shutdown", "err", err)
	}
}

// Info returns the app's name, version and data directory.
func (a *Window) Info() (Info, error) {
	return Info{Name: "Switchboard", Version: buildinfo.String(), DataDir: a.dir.String()}, nil
}

// Ready is called by the frontend once its first render is on screen. The log
// line is what start-up measurements and the smoke test wait for.
func (a *Window) Ready() error {
	slog.Info("frontend ready", "sinceStart", time.Since(a.started).Round(time.Millisecond))
	a.shownOnce.Do(func() { close(a.shown) })
	return nil
}

// ConfigError returns why config.json could not be loaded ("" when it was).
func (a *Window) ConfigError() (string, error) {
	a.cfgMu.Lock()
	defer a.cfgMu.Unlock()
	return a.cfgErr, nil
}

// EventTypes is bound only for its result type: Wails writes the TypeScript
// of what bound methods return, and events carry types no method returns.
// With it, events.gen.ts can name every payload from models.ts. The
// frontend never calls it.
func (a *Window) EventTypes() (EventTypes, error) { return EventTypes{}, nil }

// KeepRunning hides the window: Switchboard goes on running the servers
// the apps use. Opening Switchboard again shows the window.
func (a *Window) KeepRunning() error {
	slog.Info("window close: keep running")
	a.closing.asked.Store(0)
	if ctx := a.wailsContext(); ctx != nil {
		wruntime.WindowHide(ctx)
	}
	return nil
}

// QuitAnyway quits although apps use the servers: each app's serve
// notices and starts the servers itself.
func (a *Window) QuitAnyway() error {
	slog.Info("window close: quit anyway")
	a.closing.quit.Store(true)
	Quit(a)
	return nil
}

// StayOpen withdraws the question: the window stays as it is.
func (a *Window) StayOpen() error {
	slog.Info("window close: stay open")
	a.closing.asked.Store(0)
	return nil
}
