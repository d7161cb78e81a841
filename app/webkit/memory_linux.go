//go:build linux && cgo && webkit2_41

package webkit

/*
#cgo pkg-config: webkit2gtk-4.1
#include <webkit2/webkit2.h>

static GObject *(*sb_parent_constructor)(GType, guint, GObjectConstructParam *);
static WebKitMemoryPressureSettings *sb_settings;
static GParamSpec *sb_pspec;
static int sb_applied;

// sb_constructor is WebKitWebContext's constructor while the hook is in: it
// passes the app's memory pressure settings to a context whose creator
// gave none (the default context, which webkit_web_context_get_default
// creates with no properties), then builds the context as before.
static GObject *sb_constructor(GType type, guint n, GObjectConstructParam *params) {
	GObjectConstructParam *with = g_new(GObjectConstructParam, n + 1);
	GValue value = G_VALUE_INIT;
	g_value_init(&value, WEBKIT_TYPE_MEMORY_PRESSURE_SETTINGS);
	g_value_set_boxed(&value, sb_settings);
	guint m = 0;
	gboolean found = FALSE;
	for (guint i = 0; i < n; i++) {
		with[m] = params[i];
		if (params[i].pspec == sb_pspec) {
			found = TRUE;
			if (g_value_get_boxed(params[i].value) == NULL) {
				with[m].value = &value;
				sb_applied++;
			}
		}
		m++;
	}
	if (!found) {
		with[m].pspec = sb_pspec;
		with[m].value = &value;
		m++;
		sb_applied++;
	}
	GObject *object = sb_parent_constructor(type, m, with);
	g_value_unset(&value);
	g_free(with);
	return object;
}

// sb_hook installs sb_constructor on WebKitWebContext's class. 0: done;
// 1: this WebKit has no memory-pressure-settings; 2: already installed.
static int sb_hook(guint limit_mb, double conservative, double strict, double poll) {
	if (sb_parent_constructor != NULL)
		return 2;
	GObjectClass *klass = G_OBJECT_CLASS(g_type_class_ref(WEBKIT_TYPE_WEB_CONTEXT));
	sb_pspec = g_object_class_find_property(klass, "memory-pressure-settings");
	if (sb_pspec == NULL || !(sb_pspec->flags & G_PARAM_CONSTRUCT_ONLY))
		return 1;
	sb_settings = webkit_memory_pressure_settings_new();
	webkit_memory_pressure_settings_set_memory_limit(sb_settings, limit_mb);
	// WebKit keeps conservative < strict against the values held at each
	// call: strict first (if it is above the held conservative), then
	// conservative, then strict again.
	if (strict > 0 && strict > webkit_memory_pressure_settings_get_conservative_threshold(sb_settings))
		webkit_memory_pressure_settings_set_strict_threshold(sb_settings, strict);
	if (conservative > 0)
		webkit_memory_pressure_settings_set_conservative_threshold(sb_settings, conservative);
	if (strict > 0 && strict != webkit_memory_pressure_settings_get_strict_threshold(sb_settings))
		webkit_memory_pressure_settings_set_strict_threshold(sb_settings, strict);
	if ((conservative > 0 && webkit_memory_pressure_settings_get_conservative_threshold(sb_settings) != conservative) ||
	    (strict > 0 && webkit_memory_pressure_settings_get_strict_threshold(sb_settings) != strict))
		return 3;
	if (poll > 0)
		webkit_memory_pressure_settings_set_poll_interval(sb_settings, poll);
	sb_parent_constructor = klass->constructor;
	klass->constructor = sb_constructor;
	return 0;
}

static int sb_applied_count(void) { return sb_applied; }

static int sb_gtk_init(void) { return gtk_init_check(NULL, NULL); }
*/
import "C"

import (
	"errors"
	"fmt"
)

// webKitGTK is true: the window is a WebKitGTK web view, whose web process
// reads JavaScriptCore's options from the environment (LimitJIT).
const webKitGTK = true

func install(s Settings) error {
	switch C.sb_hook(C.guint(s.LimitMB), C.double(s.Conservative), C.double(s.Strict), C.double(s.Poll.Seconds())) {
	case 0:
		return nil
	case 1:
		return errors.New("this WebKitGTK has no memory pressure settings for web processes (2.34 or later has)")
	case 2:
		return errors.New("already installed")
	case 3:
		return fmt.Errorf("WebKit refused the thresholds %g and %g (0 < conservative < strict < 1)", s.Conservative, s.Strict)
	}
	return fmt.Errorf("unexpected")
}

func applied() int { return int(C.sb_applied_count()) }

// gtkInit initialises GTK (a web context needs a display), as Wails does.
func gtkInit() bool { return C.sb_gtk_init() != 0 }

// defaultContext has WebKit create its default web context, as Wails does
// when it creates the window's view.
func defaultContext() { C.webkit_web_context_get_default() }
