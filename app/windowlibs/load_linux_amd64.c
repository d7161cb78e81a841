//go:build linux && amd64 && cgo && webkit2_41 && (dev || production) && !bindings && !windowlibs_eager

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "windowlibs.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failed[1024]; // empty once loaded

// load opens every library (as the loader would have at start: now, and
// global, so what GTK loads later finds them) and fills every slot.
static void load(void) {
	void *handles[windowlibs_nlibs];
	for (int i = 0; i < windowlibs_nlibs; i++) {
		handles[i] = dlopen(windowlibs_sonames[i], RTLD_NOW | RTLD_GLOBAL);
		if (handles[i] == NULL) {
			snprintf(failed, sizeof failed, "%s", dlerror());
			return;
		}
	}
	for (int i = 0; i < windowlibs_count; i++) {
		const struct windowlibs_stub *s = &windowlibs_stubs[i];
		void *f = dlsym(handles[s->lib], s->name);
		if (f == NULL) {
			snprintf(failed, sizeof failed, "%s has no function %s (an older version than the one Switchboard was built against?)", windowlibs_sonames[s->lib], s->name);
			return;
		}
		__atomic_store_n(&windowlibs_slots[i], f, __ATOMIC_RELEASE);
	}
}

// windowlibs_load loads the libraries once; it returns NULL, or why they
// could not be loaded. Safe from any thread.
const char *windowlibs_load(void) {
	pthread_once(&once, load);
	return failed[0] ? failed : NULL;
}

// windowlibs_resolve is windowlibs_lazy's: the function stub n stands for.
void *windowlibs_resolve(long n) {
	const char *why = windowlibs_load();
	if (why != NULL) {
		fprintf(stderr, "switchboard: the window's libraries could not be loaded: %s\n", why);
		abort();
	}
	return __atomic_load_n(&windowlibs_slots[n], __ATOMIC_ACQUIRE);
}

// windowlibs_soname is the i-th library's soname (for Go, which cannot size
// an extern array).
const char *windowlibs_soname(int i) { return windowlibs_sonames[i]; }
