//go:build linux && amd64 && cgo && webkit2_41 && (dev || production) && !bindings && !windowlibs_eager

package selftest

/*
// Linked as Wails' packages are, so the binary would need GLib but for
// the stubs and --as-needed.
#cgo pkg-config: glib-2.0
#include <stdlib.h>

char *g_strdup_printf(const char *format, ...);
void g_free(void *mem);

static char *format_many(void) {
	return g_strdup_printf("%d %d %d %d %d %.3f %.3f %s %s", 1, 2, 3, 4, 5, 1.5, 2.25, "six", "seven");
}
*/
import "C"

import "unsafe"

// FormatMany returns what GLib's g_strdup_printf made of nine arguments:
// "1 2 3 4 5 1.500 2.250 six seven" when they all arrived.
func FormatMany() string {
	p := C.format_many()
	defer C.g_free(unsafe.Pointer(p))
	return C.GoString(p)
}
