package clients

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A config kept in a dotfiles folder and linked into place stays linked:
// the file it points to gets the change, the backup sits beside the link.
func TestWriteFileKeepsASymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "settings.json")
	link := filepath.Join(dir, "app", "settings.json")
	for _, d := range []string{filepath.Dir(real), filepath.Dir(link)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(real, []byte("{}"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../dotfiles/settings.json", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte(`{"a":1}`), []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced by a file: %v %v", fi.Mode(), err)
	}
	got, err := os.ReadFile(real)
	if err != nil || string(got) != `{"a":1}` {
		t.Fatalf("the linked file holds %q (%v)", got, err)
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode = %v, want 0640", fi.Mode().Perm())
	}
	if b, err := os.ReadFile(link + BackupSuffix); err != nil || string(b) != "{}" {
		t.Errorf("backup beside the link: %q %v", b, err)
	}
}

// A file made read-only is left as it is, with what to do.
func TestWriteFileRefusesReadOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "opencode.jsonc")
	if err := os.WriteFile(path, []byte("{}"), 0o444); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(path, []byte(`{"a":1}`), nil)
	if !errors.Is(err, ErrReadOnly) {
		t.Fatalf("err = %v, want ErrReadOnly", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "{}" {
		t.Errorf("a read-only file was written: %q", got)
	}
	if _, err := os.Stat(path + BackupSuffix); !os.IsNotExist(err) {
		t.Errorf("a backup was written for a refused write: %v", err)
	}
}
