package watch

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
)

// open watches a fresh folder made by prepare and returns the watcher and
// a channel that receives each OnChange.
func open(t *testing.T, prepare func(root string)) (string, *Watcher, chan struct{}) {
	t.Helper()
	root := t.TempDir()
	if prepare != nil {
		prepare(root)
	}
	calls := make(chan struct{}, 100)
	w, err := Open(root, Options{OnChange: func() { calls <- struct{}{} }, Settle: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	return root, w, calls
}

func wait(t *testing.T, calls chan struct{}, what string) {
	t.Helper()
	select {
	case <-calls:
	case <-time.After(10 * time.Second):
		t.Fatalf("no change reported after %s", what)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestChangesAreReported(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(root string)
		change  func(root string) error
	}{
		{"new file", nil, func(r string) error { return os.WriteFile(filepath.Join(r, "x"), nil, 0o600) }},
		{"removed file", func(r string) { _ = os.WriteFile(filepath.Join(r, "x"), nil, 0o600) }, func(r string) error { return os.Remove(filepath.Join(r, "x")) }},
		{"renamed file", func(r string) { _ = os.WriteFile(filepath.Join(r, "x"), nil, 0o600) }, func(r string) error { return os.Rename(filepath.Join(r, "x"), filepath.Join(r, "y")) }},
		{"file in a folder that existed", func(r string) { _ = os.MkdirAll(filepath.Join(r, "a", "b"), 0o700) }, func(r string) error {
			return os.WriteFile(filepath.Join(r, "a", "b", "x"), nil, 0o600)
		}},
		{"new folder", nil, func(r string) error { return os.Mkdir(filepath.Join(r, "d"), 0o700) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, _, calls := open(t, tt.prepare)
			must(t, tt.change(root))
			wait(t, calls, tt.name)
		})
	}
}

// A folder made after Open is watched too: a file made in it later is seen.
func TestFolderMadeLaterIsWatched(t *testing.T) {
	root, w, calls := open(t, nil)
	must(t, os.MkdirAll(filepath.Join(root, "a", "b"), 0o700))
	wait(t, calls, "mkdir -p a/b")
	if !slices.Contains(w.Dirs(), filepath.Join(root, "a")) {
		t.Fatalf("a is not watched: %v", w.Dirs())
	}
	must(t, os.WriteFile(filepath.Join(root, "a", "x"), nil, 0o600))
	wait(t, calls, "a file in the new folder")
}

// The watcher stays inside the root: a link to a folder outside is not
// followed, and skipped folders (.git, node_modules) are not watched.
func TestStaysInsideAndSkips(t *testing.T) {
	outside := t.TempDir()
	root, w, _ := open(t, func(r string) {
		must(t, os.MkdirAll(filepath.Join(r, ".git", "objects"), 0o700))
		must(t, os.MkdirAll(filepath.Join(r, "node_modules", "x"), 0o700))
		must(t, os.MkdirAll(filepath.Join(r, "src"), 0o700))
		must(t, os.Symlink(outside, filepath.Join(r, "out")))
	})
	got := w.Dirs()
	slices.Sort(got)
	want := []string{root, filepath.Join(root, "src")}
	if !slices.Equal(got, want) {
		t.Fatalf("watched %v, want %v", got, want)
	}
}

// A burst of changes is one call once it settles.
func TestBurstIsOneCall(t *testing.T) {
	root := t.TempDir()
	calls := make(chan struct{}, 100)
	w, err := Open(root, Options{OnChange: func() { calls <- struct{}{} }, Settle: time.Second})
	must(t, err)
	for i := range 30 {
		must(t, os.WriteFile(filepath.Join(root, "f"+string(rune('a'+i%26))+string(rune('0'+i/26))), nil, 0o600))
	}
	wait(t, calls, "30 files")
	must(t, w.Close())
	if n := len(calls); n != 0 {
		t.Fatalf("%d more calls after the burst, want one call in all", n)
	}
}

// Close waits for the goroutine: no call starts after it, and a watcher
// opened and closed many times leaves no goroutine behind.
func TestCloseEndsTheGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	for range 20 {
		root := t.TempDir()
		calls := make(chan struct{}, 100)
		w, err := Open(root, Options{OnChange: func() { calls <- struct{}{} }})
		must(t, err)
		must(t, os.WriteFile(filepath.Join(root, "x"), nil, 0o600))
		must(t, w.Close())
		must(t, w.Close()) // twice is fine
		n := len(calls)
		runtime.Gosched()
		if len(calls) != n {
			t.Fatal("OnChange was called after Close returned")
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before+2 { // fsnotify's reader may take a moment to see its pipe close
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines after 20 watchers closed, %d before", runtime.NumGoroutine(), before)
		}
		runtime.Gosched()
	}
}

func TestOpenFails(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	must(t, os.WriteFile(file, nil, 0o600))
	for _, tt := range []struct {
		root string
		want error
	}{
		{file, ErrNoFolder},
		{filepath.Join(t.TempDir(), "missing"), os.ErrNotExist},
	} {
		_, err := Open(tt.root, Options{})
		var we *Error
		if !errors.Is(err, tt.want) || !errors.As(err, &we) || we.Path != tt.root {
			t.Errorf("Open(%s) = %v, want %v with the path", tt.root, err, tt.want)
		}
	}
}
