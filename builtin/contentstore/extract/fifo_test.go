//go:build unix

package extract

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFileRefusesNamedPipe checks that a FIFO, named directly or through a
// link, is refused without being opened: opening one blocks until a writer
// comes, which used to hang addContent and hold its store's write lock.
func TestFileRefusesNamedPipe(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fifo, link} {
		done := make(chan error, 1)
		go func() { _, err := File(t.Context(), path, 0); done <- err }()
		var err error
		select {
		case err = <-done:
		case <-time.After(10 * time.Second): // a bound on a hang, not a wait for an event
			// Let the blocked open go before failing, so the goroutine ends.
			if w, werr := os.OpenFile(fifo, os.O_WRONLY, 0); werr == nil {
				w.Close()
			}
			t.Fatalf("File(%s) still blocked after 10s", path)
		}
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe (FIFO); only files and folders can be added") {
			t.Fatalf("File(%s) = %v; want ErrNotRegular naming the pipe", path, err)
		}
	}
}
