package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"runtime"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/switchboard-app/switchboard/app/buildinfo"
	"github.com/switchboard-app/switchboard/app/uistate"
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
func (a *App) About() (AboutView, error) {
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
func (a *App) OpenLogFolder() error {
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
func OpenFile(a *App, path string) {
	a.filesMu.Lock()
	a.files = append(a.files, path)
	a.filesMu.Unlock()
	slog.Info("file opened", "path", path)
	a.emitEvent(EventFileOpen, FileOpen{Path: path})
}

// TakeOpenedFiles returns the files opened with Switchboard that the window
// has not taken yet (those that arrived before it could listen), once.
func (a *App) TakeOpenedFiles() ([]string, error) {
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
func SecondLaunch(a *App, files []string) {
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
func WindowGeometry(a *App) (w uistate.Window, ok bool) {
	st, err := uistate.Load(a.dir.UIState())
	if err != nil {
		slog.Warn("ui state", "err", err)
		return w, false
	}
	return st.Window, st.Window.Usable(MinWidth, MinHeight)
}

// RestoreWindow moves the window where it was last (Wails' OnDomReady).
func RestoreWindow(ctx context.Context, a *App) {
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
func RememberWindow(ctx context.Context, a *App) bool {
	var w uistate.Window
	w.Maximised = wruntime.WindowIsMaximised(ctx)
	if w.Maximised {
		if old, ok := WindowGeometry(a); ok {
			w.X, w.Y, w.Width, w.Height = old.X, old.Y, old.Width, old.Height
		}
	} else {
		w.Width, w.Height = wruntime.WindowGetSize(ctx)
		w.X, w.Y = wruntime.WindowGetPosition(ctx)
	}
	if err := uistate.Update(a.dir.UIState(), func(s *uistate.State) { s.Window = w }); err != nil && !errors.Is(err, os.ErrNotExist) {
		slog.Warn("remember the window", "err", err)
	}
	return false
}

// ShowAbout asks the window to show Help → About (the menu's item).
func ShowAbout(a *App) { a.emitEvent(EventAbout, nil) }

// Quit closes the window the way its close button does (File → Quit).
func Quit(a *App) {
	if ctx := a.wailsContext(); ctx != nil {
		wruntime.Quit(ctx)
	}
}
