//go:build linux && amd64 && cgo && webkit2_41 && (dev || production) && !bindings && !windowlibs_eager

package windowlibs

/*
#cgo LDFLAGS: -ldl -Wl,--as-needed
#include "windowlibs.h"
*/
import "C"

import "sync"

// Lazy says whether this binary loads the window's libraries itself (true)
// or was linked against them the ordinary way.
const Lazy = true

// Load loads the window's libraries and fills every stub's slot; it is safe
// to call from any goroutine and more than once (the first call does the
// work). It returns an *Error if they cannot be loaded.
func Load() error {
	if why := C.windowlibs_load(); why != nil {
		return &Error{Why: C.GoString(why)}
	}
	return nil
}

// Libraries returns the sonames Load opens, in the order it opens them.
var Libraries = sync.OnceValue(func() []string {
	names := make([]string, int(C.windowlibs_nlibs))
	for i := range names {
		names[i] = C.GoString(C.windowlibs_soname(C.int(i)))
	}
	return names
})
