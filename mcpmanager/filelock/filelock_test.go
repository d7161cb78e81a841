package filelock_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/filelock"
)

// Two opens of one file exclude each other, even in one process, until
// the first lets go: what the config's writers and a model's download
// rely on across processes.
func TestTwoOpensTakeTurns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	open := func() *os.File {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	a, b := open(), open()
	if ok, err := filelock.TryLock(a); !ok || err != nil {
		t.Fatalf("first lock: %v %v", ok, err)
	}
	if ok, err := filelock.TryLock(b); ok || err != nil {
		t.Fatalf("second open took a held lock: %v %v", ok, err)
	}
	filelock.Unlock(a)
	if ok, err := filelock.TryLock(b); !ok || err != nil {
		t.Fatalf("lock after Unlock: %v %v", ok, err)
	}
	a.Close()
	b.Close()
	c := open()
	if ok, err := filelock.TryLock(c); !ok || err != nil {
		t.Fatalf("lock after the holder closed: %v %v", ok, err)
	}
}
