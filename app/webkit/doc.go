// Package webkit tunes the WebKitGTK web view the window runs in (Linux),
// where Wails v2 exposes no WebKit setting.
//
// The web process keeps the memory a day of chat turns made it use: the
// JavaScript heap's and the allocator's pages, the JIT's code. The page's
// DOM is small (the chat list is virtualised) and reloading it gives back
// little; WebKit gives these pages back when its memory pressure handler
// says so, and by default that handler only speaks up at a third of 3 GB.
// KeepWebProcessLean gives the web process a memory limit of the app's
// size, so that after turns it collects its garbage, drops its caches and
// JIT code and returns the allocator's free pages (WebCore's
// releaseMemory), without ever being killed (no kill threshold is set).
//
// WebKit takes these settings only when the web context is constructed
// (WebKitWebContext's construct-only "memory-pressure-settings"), and the
// window uses the default context, which webkit_web_context_get_default
// creates with no properties the first time it is asked for (Wails asks for
// it when it creates the view). So KeepWebProcessLean wraps the context
// class's GObject constructor: a context constructed without settings gets
// the app's. It must run on the thread that runs GTK (the main goroutine,
// locked, before wails.Run) and before the window is created.
package webkit

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Settings are WebKit's memory pressure settings for web processes
// (WebKitMemoryPressureSettings): the thresholds are fractions of LimitMB;
// above Conservative the web process drops its caches, above Strict it
// also collects garbage, deletes JIT code and returns free pages; it checks
// its memory (the anonymous pages it has written) every Poll.
type Settings struct {
	LimitMB      uint
	Conservative float64
	Strict       float64
	Poll         time.Duration
}

// Lean are the settings KeepWebProcessLean applies.
var Lean = Settings{LimitMB: 80, Conservative: 0.55, Strict: 0.6, Poll: 5 * time.Second}

// KeepWebProcessLean applies Lean to the web context the window will use
// (see the package doc); SWITCHBOARD_WEBKIT_MEMORY=off keeps WebKit's
// defaults, and limit=MB,conservative=F,strict=F,poll=S overrides them.
func KeepWebProcessLean() (Settings, error) {
	s := Lean
	env := os.Getenv("SWITCHBOARD_WEBKIT_MEMORY")
	if env == "off" {
		return Settings{}, nil
	}
	if env != "" {
		var err error
		if s, err = parseSettings(s, env); err != nil {
			return Settings{}, err
		}
	}
	return s, install(s)
}

func parseSettings(s Settings, env string) (Settings, error) {
	for _, kv := range strings.Split(env, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return s, fmt.Errorf("SWITCHBOARD_WEBKIT_MEMORY: %q: %w", kv, err)
		}
		switch k {
		case "limit":
			s.LimitMB = uint(f)
		case "conservative":
			s.Conservative = f
		case "strict":
			s.Strict = f
		case "poll":
			s.Poll = time.Duration(f * float64(time.Second))
		default:
			return s, fmt.Errorf("SWITCHBOARD_WEBKIT_MEMORY: unknown %q", k)
		}
	}
	return s, nil
}
