package host

import (
	"log/slog"
	"sync"

	"github.com/switchboard-app/switchboard/builtin/workspace/watch"
)

// FolderWatch is the watch on the workspace folder while the Workspace
// page is open: one at a time, moved when the root changes. Watches are
// counted, so the page's open and close calls (StrictMode makes two of
// each, and they may arrive out of order) leave it watching exactly while
// a page is open. The zero value is ready to use; safe for concurrent use.
type FolderWatch struct {
	mu    sync.Mutex
	users int
	w     *watch.Watcher
	root  string
}

// Start counts a user and watches root (moving the watch there), calling
// changed on each settled burst of changes.
func (f *FolderWatch) Start(root string, changed func()) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.users++
	return f.moveLocked(root, changed)
}

// Move watches root instead while anyone watches.
func (f *FolderWatch) Move(root string, changed func()) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.users <= 0 {
		return nil
	}
	return f.moveLocked(root, changed)
}

func (f *FolderWatch) moveLocked(root string, changed func()) error {
	if f.w != nil && f.root == root {
		return nil
	}
	f.closeLocked()
	w, err := watch.Open(root, watch.Options{OnChange: changed})
	if err != nil {
		return err
	}
	f.w, f.root = w, root
	return nil
}

// Stop counts a user gone; the last one ends the watch.
func (f *FolderWatch) Stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.users--
	if f.users <= 0 {
		f.closeLocked()
	}
}

// Close ends the watch whoever uses it (the window closes).
func (f *FolderWatch) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.users = 0
	f.closeLocked()
}

// Watching is the root watched, "" for none.
func (f *FolderWatch) Watching() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.root
}

func (f *FolderWatch) closeLocked() {
	if f.w != nil {
		if err := f.w.Close(); err != nil {
			slog.Warn("workspace watch", "root", f.root, "err", err)
		}
	}
	f.w, f.root = nil, ""
}
