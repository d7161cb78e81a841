//go:build !(linux && amd64 && cgo && webkit2_41 && (dev || production) && !bindings && !windowlibs_eager)

package windowlibs

// Lazy says whether this binary loads the window's libraries itself (true)
// or was linked against them the ordinary way.
const Lazy = false

// Load does nothing: this binary links the window's libraries the ordinary
// way (or has no window).
func Load() error { return nil }

// Libraries returns nothing: the binary's NEEDED entries name them.
func Libraries() []string { return nil }
