//go:build unix

package contentstore

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFolderListsWhatItLeavesOut: special files, links whose target is
// gone and links to folders are listed as skipped, with why (they used to
// be left out silently).
func TestFolderListsWhatItLeavesOut(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a file\n"), 0o600)
	os.Symlink(filepath.Join(dir, "gone.txt"), filepath.Join(dir, "b-dangling.txt"))
	os.Mkdir(filepath.Join(dir, "sub"), 0o700)
	os.Symlink(filepath.Join(dir, "sub"), filepath.Join(dir, "c-folder-link"))
	fifo := filepath.Join(dir, "d-pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	s := openStores(t, testOptions(t.TempDir()))
	info, err := s.Create(t.Context(), "Odd", "", "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Add(t.Context(), info.ID, Input{Path: dir})
	if err != nil || res.Added != 1 || res.SkippedCount != 3 {
		t.Fatalf("add = %+v, %v", res, err)
	}
	want := map[string]string{
		"b-dangling.txt": "a link whose target is missing",
		"c-folder-link":  "a link to a folder: links to folders are not followed",
		"d-pipe":         "a named pipe (FIFO), not a file",
	}
	for _, sk := range res.Skipped {
		if w := want[filepath.Base(sk.Path)]; w == "" || !strings.Contains(sk.Reason, w) {
			t.Errorf("skipped %s: %q; want %q", sk.Path, sk.Reason, w)
		}
	}
}

// TestWalkStaysOnItsFilesystem walks /dev, whose /dev/shm (and /dev/pts)
// are other filesystems: they are listed as mount points and not entered,
// as /proc and /sys are when "/" is added.
func TestWalkStaysOnItsFilesystem(t *testing.T) {
	dev, err := os.Stat("/dev")
	shm, serr := os.Stat("/dev/shm")
	if err != nil || serr != nil {
		t.Skip("no /dev/shm")
	}
	if d1, ok := deviceOf(dev); !ok {
		t.Skip("no device numbers")
	} else if d2, _ := deviceOf(shm); d1 == d2 {
		t.Skip("/dev/shm is not a mount point here")
	}
	reasons := map[string]string{}
	err = walkFiles(t.Context(), "/dev", func(p string, err error) error {
		if err != nil {
			reasons[p] = err.Error()
		} else if strings.HasPrefix(p, "/dev/shm/") {
			t.Errorf("walked into /dev/shm: %s", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if r := reasons["/dev/shm"]; !strings.Contains(r, "a mount point of another filesystem") {
		t.Errorf("/dev/shm: %q", r)
	}
	if r := reasons["/dev/null"]; r != "" && !strings.Contains(r, "a device, not a file") {
		t.Errorf("/dev/null: %q", r)
	}
}
