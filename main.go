// Command switchboard is the Switchboard desktop app and its CLI.
//
// With no subcommand it opens the window (Wails); with one it runs headless.
// See README.md and 'switchboard --help'.
package main

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"

	"github.com/switchboard-app/switchboard/app/cli"
	"github.com/switchboard-app/switchboard/app/gui"
	"github.com/switchboard-app/switchboard/app/webkit"
	"github.com/switchboard-app/switchboard/app/windowlibs"
	"github.com/switchboard-app/switchboard/mcpmanager/codemode"
)

//go:embed all:frontend/dist
var assets embed.FS

//go:embed build/appicon.png
var icon []byte

func main() {
	codemode.MaybeChild() // a script's child process (code mode) runs nothing else
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if bindingsBuild {
		// 'wails generate' / 'wails dev' run this binary only to write the
		// TypeScript bindings; no window opens.
		if err := runGUI(ctx, cli.GUIOptions{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	os.Exit(cli.Run(ctx, os.Args[1:], cli.Env{GUI: runGUI}))
}

// errNoGUI explains a binary built without Wails' desktop build tags.
var errNoGUI = errors.New("this binary was built without the GUI; build the app with 'make build' (or 'go tool wails build -tags webkit2_41'), or run a subcommand (see 'switchboard --help')")

func runGUI(ctx context.Context, o cli.GUIOptions) error {
	if !guiBuild && !bindingsBuild {
		return errNoGUI
	}
	if !bindingsBuild {
		// GTK panics without a display: say so in a sentence instead.
		if err := cli.CheckDisplay(os.Getenv, runtime.GOOS, o.Files); err != nil {
			return err
		}
		if err := o.DataDir.Ensure(); err != nil {
			return err
		}
	}
	dist, err := fs.Sub(assets, "frontend/dist")
	if err != nil {
		return err
	}
	if guiBuild {
		// WebKitGTK's tree is loaded now, not at every start of the binary
		// (package windowlibs): a missing library is a sentence here
		// rather than a loader error before any command could run.
		if err := windowlibs.Load(); err != nil {
			return err
		}
		// The web view's memory pressure settings go on the web context
		// before Wails creates it, on the thread that will run GTK: this
		// goroutine, which wails.Run locks to its thread a little later.
		runtime.LockOSThread()
		tuneWebView()
	}
	a := gui.New(ctx, o.DataDir)
	width, height := 1200, 800
	if w, ok := gui.WindowGeometry(a); ok {
		width, height = w.Width, w.Height
	}
	err = wails.Run(&options.App{
		Title:     "Switchboard",
		Width:     width,
		Height:    height,
		MinWidth:  gui.MinWidth,
		MinHeight: gui.MinHeight,
		AssetServer: &assetserver.Options{
			Assets: dist,
		},
		BackgroundColour: options.NewRGBA(0, 0, 0, 0),
		OnStartup: func(wctx context.Context) {
			a.Startup(wctx)
			for _, f := range o.Files {
				gui.OpenFile(a, f)
			}
			if js := os.Getenv("SWITCHBOARD_AUTOMATION"); js != "" {
				gui.Automate(a, js) // benchmarks drive the real window
			}
		},
		OnDomReady:    func(wctx context.Context) { gui.RestoreWindow(wctx, a) },
		OnBeforeClose: func(wctx context.Context) bool { return gui.BeforeClose(wctx, a) },
		OnShutdown:    a.Shutdown,
		Bind:          gui.Bindings(a),
		Menu:          appMenu(a),
		// One window per user and data dir: a second launch (opening a .mcpb
		// from the file manager, say) hands its files to this one and exits.
		SingleInstanceLock: &options.SingleInstanceLock{
			UniqueId: instanceID(o.DataDir.String()),
			OnSecondInstanceLaunch: func(d options.SecondInstanceData) {
				gui.SecondLaunch(a, cli.GUIFiles(d.Args, d.WorkingDirectory))
			},
		},
		Linux: &linux.Options{
			Icon:             icon,
			ProgramName:      "switchboard",
			WebviewGpuPolicy: linux.WebviewGpuPolicyNever,
		},
	})
	return err
}

// tuneWebView sets what the window's web process is started with (package
// webkit; Linux only, WebKitGTK 4.1): WebKit's memory pressure settings when
// the user asks for a lean web process, and the JavaScript JIT tiers it may
// use (the baseline JIT unless the user asks otherwise).
func tuneWebView() {
	s, err := webkit.KeepWebProcessLean()
	switch {
	case errors.Is(err, errors.ErrUnsupported):
		return // no WebKitGTK here
	case err != nil:
		slog.Warn("web view: WebKit's memory pressure settings not applied", "err", err)
	case s.LimitMB > 0:
		slog.Info("web view: memory pressure settings", "limitMB", s.LimitMB, "conservative", s.Conservative, "strict", s.Strict, "poll", s.Poll)
	}
	switch tier, err := webkit.LimitJIT(); {
	case errors.Is(err, errors.ErrUnsupported):
	case err != nil:
		slog.Warn("web view: JavaScript JIT tiers left as WebKit's", "err", err)
	default:
		slog.Info("web view: JavaScript JIT", "tier", tier)
	}
}
