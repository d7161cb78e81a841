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
