// Package watch tells when the files under a folder change, so a view of
// the folder (the Workspace page's file list) can follow a command run in
// the terminal without a Refresh.
//
// A Watcher watches the folder and its sub-folders (fsnotify is not
// recursive on Linux: a folder made later is added when its creation is
// seen), never follows a symbolic link out of the folder, skips the folders
// nobody browses (version control data, dependency caches: Options.Skip),
// and joins a burst of changes (an unpacked archive, git checkout) into one
// call after Options.Settle. Close stops it and waits for its goroutine: no
// call of OnChange starts after Close returns.
package watch

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Defaults.
var (
	DefaultSettle  = 150 * time.Millisecond
	DefaultMaxDirs = 2000 // sub-folders watched at most (each costs an inotify watch)
	DefaultSkip    = []string{".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv"}
)

// ErrNoFolder is returned by Open for a root that is not a folder.
var ErrNoFolder = errors.New("not a folder")

// Options configures a Watcher.
type Options struct {
	// OnChange is called (from the watcher's goroutine) once a burst of
	// changes has settled.
	OnChange func()
	// Settle is how long to wait after a change for more (0: DefaultSettle).
	Settle time.Duration
	// MaxDirs caps the folders watched (0: DefaultMaxDirs); deeper folders
	// of a huge tree are not followed.
	MaxDirs int
	// Skip names folders not watched (nil: DefaultSkip).
	Skip []string
}

// Watcher watches one folder tree until Close.
type Watcher struct {
	root string
	opts Options
	fw   *fsnotify.Watcher
	dirs int // folders added; only the goroutine (and Open, before it) touches it
	done chan struct{}
	once sync.Once
}

// Error is a failure to watch Path.
type Error struct {
	Op   string
	Path string
	Err  error
}

func (e *Error) Error() string { return e.Op + " " + e.Path + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Open starts watching root and every folder under it.
func Open(root string, opts Options) (*Watcher, error) {
	const op = "watch"
	root = filepath.Clean(root)
	info, err := os.Stat(root)
	if err != nil {
		return nil, &Error{op, root, err}
	}
	if !info.IsDir() {
		return nil, &Error{op, root, ErrNoFolder}
	}
	if opts.Settle <= 0 {
		opts.Settle = DefaultSettle
	}
	if opts.MaxDirs <= 0 {
		opts.MaxDirs = DefaultMaxDirs
	}
	if opts.Skip == nil {
		opts.Skip = DefaultSkip
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, &Error{op, root, err}
	}
	w := &Watcher{root: root, opts: opts, fw: fw, done: make(chan struct{})}
	if err := fw.Add(root); err != nil {
		_ = fw.Close()
		return nil, &Error{op, root, err}
	}
	w.dirs = 1
	w.addTree(root)
	go w.loop()
	return w, nil
}

// Close stops watching and waits until the watcher's goroutine has ended.
// Safe to call more than once.
func (w *Watcher) Close() error {
	var err error
	w.once.Do(func() {
		err = w.fw.Close()
		<-w.done
	})
	return err
}

// Dirs is the folders watched.
func (w *Watcher) Dirs() []string { return w.fw.WatchList() }

// addTree adds the folders below dir (not dir itself), skipping symbolic
// links (WalkDir does not follow them) and the skipped names.
func (w *Watcher) addTree(dir string) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || p == dir {
			return nil
		}
		if w.skipped(d.Name()) || !w.inside(p) {
			return fs.SkipDir
		}
		if w.dirs >= w.opts.MaxDirs {
			return fs.SkipAll
		}
		if w.fw.Add(p) == nil {
			w.dirs++
		}
		return nil
	})
}

func (w *Watcher) skipped(name string) bool { return slices.Contains(w.opts.Skip, name) }

// inside reports whether p is root or below it.
func (w *Watcher) inside(p string) bool {
	return p == w.root || strings.HasPrefix(p, w.root+string(filepath.Separator))
}

func (w *Watcher) loop() {
	defer close(w.done)
	var settle *time.Timer
	var fire <-chan time.Time
	defer func() {
		if settle != nil {
			settle.Stop()
		}
	}()
	changed := func() {
		if settle == nil {
			settle = time.NewTimer(w.opts.Settle)
		} else {
			settle.Reset(w.opts.Settle)
		}
		fire = settle.C
	}
	for {
		select {
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			if !w.inside(ev.Name) || w.skippedPath(ev.Name) {
				continue
			}
			if ev.Has(fsnotify.Create) {
				if info, err := os.Lstat(ev.Name); err == nil && info.IsDir() && w.dirs < w.opts.MaxDirs { // Lstat: a link to a folder is not followed
					if w.fw.Add(ev.Name) == nil {
						w.dirs++
					}
					w.addTree(ev.Name) // made with contents (mkdir -p a/b, mv, unpack)
				}
			}
			if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				w.dirs = max(1, len(w.fw.WatchList())) // fsnotify drops a removed folder's watch itself
			}
			changed()
		case _, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			changed() // events may have been lost: tell anyway
		case <-fire:
			fire = nil
			if w.opts.OnChange != nil {
				w.opts.OnChange()
			}
		}
	}
}

// skippedPath reports whether p is inside a skipped folder (its own
// creation still counts: the folder appears in the list).
func (w *Watcher) skippedPath(p string) bool {
	rel, err := filepath.Rel(w.root, filepath.Dir(p))
	if err != nil || rel == "." {
		return false
	}
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if w.skipped(part) {
			return true
		}
	}
	return false
}
