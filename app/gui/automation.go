package gui

import (
	"fmt"
	"log/slog"
	"os"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"
)

// automationEvent is the event an automation script reports with:
// window.runtime.EventsEmit("automation", ...values). It goes from the
// page to Go, so it is not one of the window's events (EventList).
const automationEvent = "automation"

// Automate runs the JavaScript in file inside the window once the frontend
// has rendered (Ready): the hook through which benchmarks drive the real
// window, as a person would, and read what it shows (make bench's day-of-use
// and time-to-show rows; main passes SWITCHBOARD_AUTOMATION). The script
// reports by emitting automationEvent; each report is logged on stderr as an
// "automation" line whose report attribute is the values joined by spaces.
//
// The script runs with the page's own rights (the bindings), which is no
// more than whoever sets the environment of the app already has.
func Automate(a *Window, file string) {
	go func() {
		select {
		case <-a.shown:
		case <-a.life.Done():
			return
		}
		js, err := os.ReadFile(file)
		if err != nil {
			slog.Error("automation", "err", err)
			return
		}
		ctx := a.wailsContext()
		if ctx == nil {
			slog.Error("automation", "err", "the window has no runtime context")
			return
		}
		wruntime.EventsOn(ctx, automationEvent, func(data ...any) {
			line := fmt.Sprintln(data...) // spaces between all values, unlike Sprint
			slog.Info("automation", "report", line[:len(line)-1])
		})
		slog.Info("automation", "script", file)
		wruntime.WindowExecJS(ctx, string(js))
	}()
}
