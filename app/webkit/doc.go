// Package webkit tunes the WebKitGTK web view the window runs in (Linux),
// where Wails v2 exposes no WebKit setting.
//
// The web process keeps the memory a day of chat turns made it use: the
// JavaScript heap's and the allocator's pages, the JIT's code. The page's
// DOM is small (the chat list is virtualised) and reloading it gives back
// little; WebKit gives these pages back when its memory pressure handler
// says so, and by default that handler acts only at fractions (0.33, 0.5)
// of a limit in gigabytes. KeepWebProcessLean, when the user asks for it
// (SWITCHBOARD_WEBKIT_MEMORY=lean: it costs time, below, so it is not the
// default), gives the web process a limit of the app's size: once it has written more than Strict × LimitMB of
// anonymous memory, each check (every Poll) collects its garbage, drops its
// caches and JIT code and returns the allocator's free pages (WebCore's
// releaseMemory), until it is back under. No kill threshold is set: the web
// process is never killed for its size.
//
// The cost is that work while turns run: a check during a burst of turns
// finds the process above the threshold, and the JIT code it deletes is
// compiled again. With a check every 5 s the day bench's late turns took
// 347 ms against 185–201 ms without; every 15 s (Lean) 267 ms, in one run
// on a shared machine, and on a quiet one (one binary, A/B) 181 ms against
// 136 ms, with 332 against 349 MB PSS after 1,000 turns (BENCHMARKS.md). The memory is back within about two
// checks of the app going quiet. An idle window (about 42 MB) stays under
// the thresholds, so it does no such work.
//
// WebKit takes these settings only when the web context is constructed
// (WebKitWebContext's construct-only "memory-pressure-settings"), and the
// window uses the default context, which webkit_web_context_get_default
// creates with no properties the first time it is asked for (Wails asks for
// it when it creates the view). So KeepWebProcessLean wraps the context
// class's GObject constructor: a context constructed without settings gets
// the app's. It must run on the thread that runs GTK (the main goroutine,
// locked, before wails.Run) and before the window is created.
//
// The other part of that memory is JavaScriptCore's optimising JIT tiers
// (DFG and FTL): the code they compile for what runs hot, and the profiles
// that feed them, stay for the life of the process. LimitJIT, by default,
// has the web process stop at the baseline JIT: after 1,000 chat turns its
// web process held 165.6 MB PSS against 214.3 MB with every tier, for turns
// about a tenth slower (172 against 158 ms, BENCHMARKS.md). Without any JIT
// (SWITCHBOARD_WEBKIT_JIT=off, the default with SWITCHBOARD_WEBKIT_MEMORY=lean)
// it held 147.8 MB against 220.5 MB in another A/B, but late turns took
// 138 against 86 ms.
//
//	runtime.LockOSThread() // the thread that will run GTK
//	webkit.KeepWebProcessLean()
//	webkit.LimitJIT()
//	wails.Run(…)
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

// Lean are the settings KeepWebProcessLean applies: the settled idle
// window's web process has 42–43 MB of anonymous memory, under both
// thresholds (44 and 48 MB).
var Lean = Settings{LimitMB: 80, Conservative: 0.55, Strict: 0.6, Poll: 15 * time.Second}

// KeepWebProcessLean applies Lean to the web context the window will use
// (see the package doc) when SWITCHBOARD_WEBKIT_MEMORY asks for it: "lean"
// applies Lean, and limit=MB,conservative=F,strict=F,poll=S applies Lean
// with those values changed. Unset (or "off"), it changes nothing and
// WebKit keeps its defaults: measured on a quiet machine, Lean made late
// chat turns a third slower (181 against 136 ms) for 17 MB less after
// 1,000 turns (BENCHMARKS.md), so it is a choice for memory-tight
// machines, not the default.
func KeepWebProcessLean() (Settings, error) {
	s := Lean
	env := os.Getenv("SWITCHBOARD_WEBKIT_MEMORY")
	if !leanAsked(env) {
		return Settings{}, nil
	}
	if env != "lean" {
		var err error
		if s, err = parseSettings(s, env); err != nil {
			return Settings{}, err
		}
	}
	return s, install(s)
}

// leanAsked reports whether SWITCHBOARD_WEBKIT_MEMORY's value asks for a
// lean web process ("lean" or settings of its own; unset and "off" do not).
func leanAsked(env string) bool { return env != "" && env != "off" }

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
