//go:build linux && cgo && webkit2_41

package webkit

import (
	"os"
	"runtime"
	"testing"
)

// The default web context, which the window's view uses and which WebKit
// creates with no properties, is constructed with the app's memory pressure
// settings once KeepWebProcessLean has run (and without them, WebKit's
// handler would only act at a third of 3 GB).
func TestDefaultContextGetsTheSettings(t *testing.T) {
	runtime.LockOSThread() // WebKit's main thread is the one that first uses it
	if os.Getenv("DISPLAY") == "" {
		t.Skip("no X display: run it under xvfb-run (make test-go does)")
	}
	if !gtkInit() {
		t.Fatal("GTK did not initialise")
	}
	t.Setenv("SWITCHBOARD_WEBKIT_MEMORY", "")
	if n := applied(); n != 0 {
		t.Fatalf("%d contexts had the settings before they were installed", n)
	}
	if s, err := KeepWebProcessLean(); err != nil || s != (Settings{}) {
		t.Fatalf("unset, KeepWebProcessLean installed %+v (%v): WebKit's defaults are the default", s, err)
	}
	t.Setenv("SWITCHBOARD_WEBKIT_MEMORY", "lean")
	s, err := KeepWebProcessLean()
	if err != nil {
		t.Fatal(err)
	}
	if s != Lean {
		t.Fatalf("installed %+v, want %+v", s, Lean)
	}
	defaultContext()
	if n := applied(); n != 1 {
		t.Fatalf("the default context was constructed %d times with the settings, want once", n)
	}
	defaultContext() // the same context: not constructed again
	if n := applied(); n != 1 {
		t.Fatalf("applied %d times, want once", n)
	}
	if _, err := KeepWebProcessLean(); err == nil {
		t.Fatal("installed twice")
	}
}

// LimitJIT puts the tier's JavaScriptCore option in the environment the web
// process inherits, and leaves the user's own alone.
func TestLimitJITSetsTheWebProcessEnvironment(t *testing.T) {
	t.Setenv("SWITCHBOARD_WEBKIT_JIT", "")
	t.Setenv("SWITCHBOARD_WEBKIT_MEMORY", "")
	t.Setenv("JSC_useDFGJIT", "")
	os.Unsetenv("JSC_useDFGJIT") // t.Setenv restores whatever was there
	tier, err := LimitJIT()
	if err != nil || tier != JITBaseline {
		t.Fatalf("LimitJIT = %q, %v; want %q", tier, err, JITBaseline)
	}
	if v, ok := os.LookupEnv("JSC_useDFGJIT"); !ok || v != "false" {
		t.Fatalf("JSC_useDFGJIT = %q (set: %v), want false", v, ok)
	}
	t.Setenv("JSC_useDFGJIT", "true") // the user's
	if tier, err := LimitJIT(); err != nil || tier != "user" {
		t.Fatalf("with the user's JSC_useDFGJIT, LimitJIT = %q, %v; want user", tier, err)
	}
	if v := os.Getenv("JSC_useDFGJIT"); v != "true" {
		t.Fatalf("the user's JSC_useDFGJIT became %q", v)
	}
}
