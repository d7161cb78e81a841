// Package windowlibs loads the window's shared libraries (WebKitGTK, GTK,
// GLib and the rest of their tree) when the window opens, instead of when
// the binary starts.
//
// One binary is both the window and the CLI. Linked the ordinary way, every
// start of it, `switchboard serve` for each app that runs it and every
// command, has the dynamic loader map and relocate WebKitGTK's tree of 169
// libraries first: about 150 ms of a 220 ms start and some 40 MB of memory
// that only the window uses, and a machine without WebKitGTK cannot run even
// `switchboard --help`. On Linux x86-64 the binary is linked against stubs
// instead (stubs_linux_amd64.S, written by internal/stubgen): each function
// the window's code takes from those libraries is a hidden trampoline that
// jumps through a slot. Load opens the libraries and fills every slot;
// a slot not yet filled leads to the loader, so a call that comes before
// Load (none should) loads them too, with its registers kept. The libraries
// themselves are then no longer the binary's NEEDED entries (the linker's
// --as-needed drops them), so the packaging reads them from Libraries.
//
// Elsewhere (other systems, other architectures, the CLI-only build, and the
// windowlibs_eager tag, which 'make windowlibs-stubs' builds with to list
// the functions) the libraries are linked the ordinary way and Load does
// nothing.
//
//	if err := windowlibs.Load(); err != nil {
//		return err // "the window needs WebKitGTK 4.1: …; install …"
//	}
//	wails.Run(…)
package windowlibs

import "errors"

// ErrNotLoaded is the error Load wraps when a library of the window cannot
// be loaded or lacks a function the window calls.
var ErrNotLoaded = errors.New("the window's libraries could not be loaded")

// Error says which library failed to load and why, in the loader's words.
type Error struct {
	Why string // dlopen's or dlsym's message
}

func (e *Error) Error() string {
	return "the window needs WebKitGTK 4.1 and GTK 3, which could not be loaded (" + e.Why + "); install them (Debian and Ubuntu: sudo apt install libwebkit2gtk-4.1-0 libgtk-3-0), or use the commands (switchboard --help), which do not need them"
}

func (e *Error) Unwrap() error { return ErrNotLoaded }
