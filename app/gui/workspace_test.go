package gui

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
)

// While the Workspace page watches, a file made in the workspace folder
// (as a command in the terminal would) sends workspace:changed; after the
// page closes, nothing is watched.
func TestWorkspaceWatchSendsChanges(t *testing.T) {
	a := newChatApp(t)
	changes := func() int {
		a.mu.Lock()
		defer a.mu.Unlock()
		n := 0
		for _, e := range a.evs {
			if e.name == EventWorkspaceChanged {
				n++
			}
		}
		return n
	}
	var root string
	mcptest.Until(t, "workspace open", func() bool {
		v, err := a.WorkspacePage.WorkspaceInfo()
		root = v.Root
		return err == nil
	})
	// StrictMode opens, closes and opens again; the calls may arrive in any order.
	for _, step := range []func() error{a.WorkspacePage.WatchWorkspace, func() error { a.WorkspacePage.UnwatchWorkspace(); return nil }, a.WorkspacePage.WatchWorkspace} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	if got := a.folder.Watching(); got != root {
		t.Fatalf("watching %q, want %q", got, root)
	}
	if err := os.WriteFile(filepath.Join(root, "x"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	mcptest.Until(t, "workspace:changed after a new file", func() bool { return changes() > 0 })

	// A new root moves the watch.
	other := t.TempDir()
	if _, err := a.WorkspacePage.SetWorkspaceRoot(other); err != nil {
		t.Fatal(err)
	}
	if got := a.folder.Watching(); got != other {
		t.Fatalf("after SetWorkspaceRoot watching %q, want %q", got, other)
	}
	before := changes()
	if err := os.WriteFile(filepath.Join(other, "y"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	mcptest.Until(t, "workspace:changed in the new root", func() bool { return changes() > before })

	a.WorkspacePage.UnwatchWorkspace()
	if got := a.folder.Watching(); got != "" {
		t.Fatalf("after the page closed, still watching %q", got)
	}
}
