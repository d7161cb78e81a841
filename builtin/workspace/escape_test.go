//go:build unix

package workspace

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const canaryText = "CANARY-SECRET-42"

// Rules as they appear in messages.
const (
	ruleEscapes  = "path escapes the workspace root"
	ruleNUL      = "path contains a NUL byte"
	ruleTooLong  = "path is too long"
	ruleWindows  = "Windows-style path"
	ruleFIFO     = "it is a named pipe (FIFO)"
	ruleSocket   = "it is a socket"
	ruleDevice   = "it is a device file"
	ruleHardLink = "file has more than one hard link"
	ruleSymlink  = "path is a symbolic link"
)

// escapeFixture builds base/root (the workspace) and base/outside (with
// the canary) and returns them.
func escapeFixture(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "root"), filepath.Join(base, "outside")
	writeFiles(t, outside, map[string]string{"canary.txt": canaryText})
	writeFiles(t, root, map[string]string{"inside.txt": "inside\n", "sub/file.txt": "sub\n"})
	canary := filepath.Join(outside, "canary.txt")
	links := map[string]string{
		"link-file":    "../outside/canary.txt",
		"link-abs":     canary,
		"link-dir":     "../outside",
		"link-dir-abs": outside,
		"link-chain":   "link-file",
		"devnull":      "/dev/null",
		"proc-environ": "/proc/self/environ",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(canary, filepath.Join(root, "hardlink.txt")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(root, "sock"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return root, outside
}

// snapshot records every file under dir with its content and mtime.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		content := ""
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			content = string(b)
		}
		out[p] = fi.Mode().String() + " " + fi.ModTime().String() + " " + content
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameSnapshot(t *testing.T, before, after map[string]string) {
	t.Helper()
	if len(before) != len(after) {
		t.Errorf("outside the root: %d entries before, %d after: %v", len(before), len(after), after)
	}
	for p, v := range before {
		if after[p] != v {
			t.Errorf("outside the root, %s changed: %q -> %q", p, v, after[p])
		}
	}
}

func TestEscapeCorpus(t *testing.T) {
	root, outside := escapeFixture(t)
	canary := filepath.Join(outside, "canary.txt")
	type attempt struct {
		name string
		tool string
		args map[string]any
		rule string
	}
	corpus := []attempt{
		{"dotdot", "read_file", map[string]any{"path": "../outside/canary.txt"}, ruleEscapes},
		{"dotdot deep", "read_file", map[string]any{"path": "../../../../../../etc/passwd"}, ruleEscapes},
		{"dotdot after a dir", "read_file", map[string]any{"path": "sub/../../outside/canary.txt"}, ruleEscapes},
		{"tilde dotdot", "read_file", map[string]any{"path": "~/../../outside/canary.txt"}, ruleEscapes},
		{"absolute system file", "read_file", map[string]any{"path": "/etc/passwd"}, ruleEscapes},
		{"absolute canary", "read_file", map[string]any{"path": canary}, ruleEscapes},
		{"absolute through root", "read_file", map[string]any{"path": root + "/../outside/canary.txt"}, ruleEscapes},
		{"absolute proc", "read_file", map[string]any{"path": "/proc/self/environ"}, ruleEscapes},
		{"double slash absolute", "write_file", map[string]any{"path": "//etc/passwd", "content": "x"}, ruleEscapes},
		{"list filesystem root", "list_directory", map[string]any{"path": "/"}, ruleEscapes},
		{"tree parent", "tree", map[string]any{"path": ".."}, ruleEscapes},
		{"search parent", "search_files", map[string]any{"path": "../outside", "content": "CANARY"}, ruleEscapes},
		{"symlink to file", "read_file", map[string]any{"path": "link-file"}, ruleEscapes},
		{"absolute symlink to file", "read_file", map[string]any{"path": "link-abs"}, ruleEscapes},
		{"symlink chain", "read_file", map[string]any{"path": "link-chain"}, ruleEscapes},
		{"symlink dir", "read_file", map[string]any{"path": "link-dir/canary.txt"}, ruleEscapes},
		{"absolute symlink dir", "read_file", map[string]any{"path": "link-dir-abs/canary.txt"}, ruleEscapes},
		{"list symlink dir", "list_directory", map[string]any{"path": "link-dir"}, ruleEscapes},
		{"list absolute symlink dir", "list_directory", map[string]any{"path": "link-dir-abs"}, ruleEscapes},
		{"tree symlink dir", "tree", map[string]any{"path": "link-dir"}, ruleEscapes},
		{"search symlink dir", "search_files", map[string]any{"path": "link-dir", "content": "CANARY"}, ruleEscapes},
		{"write into symlink dir", "write_file", map[string]any{"path": "link-dir/new.txt", "content": "x"}, ruleEscapes},
		{"write new dir in symlink dir", "write_file", map[string]any{"path": "link-dir/a/b.txt", "content": "x"}, ruleEscapes},
		{"write over symlink", "write_file", map[string]any{"path": "link-file", "content": "x"}, ruleSymlink},
		{"edit through symlink", "edit_file", map[string]any{"path": "link-file", "old_string": "CANARY", "new_string": "x"}, ruleEscapes},
		{"edit outside", "edit_file", map[string]any{"path": "../outside/canary.txt", "old_string": "CANARY", "new_string": "x"}, ruleEscapes},
		{"delete outside", "delete_file", map[string]any{"path": "../outside/canary.txt"}, ruleEscapes},
		{"delete through symlink dir", "delete_file", map[string]any{"path": "link-dir/canary.txt"}, ruleEscapes},
		{"move from outside", "move_file", map[string]any{"path": "../outside/canary.txt", "destination": "stolen.txt"}, ruleEscapes},
		{"move from symlink dir", "move_file", map[string]any{"path": "link-dir/canary.txt", "destination": "stolen.txt"}, ruleEscapes},
		{"move to outside", "move_file", map[string]any{"path": "inside.txt", "destination": "../outside/dropped.txt"}, ruleEscapes},
		{"move into symlink dir", "move_file", map[string]any{"path": "inside.txt", "destination": "link-dir/dropped.txt"}, ruleEscapes},
		{"hard link read", "read_file", map[string]any{"path": "hardlink.txt"}, ruleHardLink},
		{"hard link write", "write_file", map[string]any{"path": "hardlink.txt", "content": "x"}, ruleHardLink},
		{"hard link edit", "edit_file", map[string]any{"path": "hardlink.txt", "old_string": "CANARY", "new_string": "x"}, ruleHardLink},
		{"NUL byte", "read_file", map[string]any{"path": "inside.txt\x00../../etc/passwd"}, ruleNUL},
		{"NUL byte write", "write_file", map[string]any{"path": "a\x00b", "content": "x"}, ruleNUL},
		{"long path", "read_file", map[string]any{"path": strings.Repeat("a/", 2100)}, ruleTooLong},
		{"long name", "write_file", map[string]any{"path": strings.Repeat("x", 300), "content": "x"}, ruleTooLong},
		{"windows dotdot", "read_file", map[string]any{"path": `..\..\outside\canary.txt`}, ruleWindows},
		{"windows drive", "read_file", map[string]any{"path": `C:\Windows\win.ini`}, ruleWindows},
		{"windows drive slash", "read_file", map[string]any{"path": "C:/Windows/win.ini"}, ruleWindows},
		{"windows mixed", "list_directory", map[string]any{"path": `sub\..\..`}, ruleWindows},
		{"dev null symlink", "read_file", map[string]any{"path": "devnull"}, ruleEscapes},
		{"dev null symlink write", "write_file", map[string]any{"path": "devnull", "content": "x"}, ruleSymlink},
		{"proc symlink", "read_file", map[string]any{"path": "proc-environ"}, ruleEscapes},
		{"fifo read", "read_file", map[string]any{"path": "fifo"}, ruleFIFO},
		{"fifo write", "write_file", map[string]any{"path": "fifo", "content": "x"}, ruleFIFO},
		{"fifo edit", "edit_file", map[string]any{"path": "fifo", "old_string": "a", "new_string": "b"}, ruleFIFO},
		{"socket read", "read_file", map[string]any{"path": "sock"}, ruleSocket},
	}
	// A real device node needs privileges; as root (CI containers) it is
	// part of the corpus, and TestCheckRegular covers the rule everywhere.
	if err := syscall.Mknod(filepath.Join(root, "dev"), syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
		corpus = append(corpus,
			attempt{"device read", "read_file", map[string]any{"path": "dev"}, ruleDevice},
			attempt{"device write", "write_file", map[string]any{"path": "dev", "content": "x"}, ruleDevice})
	}
	if len(corpus) < 30 {
		t.Fatalf("corpus has %d attempts", len(corpus))
	}

	before := snapshot(t, outside)
	w := open(t, Options{Root: root})
	cl := connect(t, w)
	for _, a := range corpus {
		t.Run(a.name, func(t *testing.T) {
			text := fails(t, cl, a.tool, a.args, a.rule)
			if strings.Contains(text, canaryText) {
				t.Fatalf("canary leaked: %s", text)
			}
		})
	}
	// What may succeed shows nothing of the outside either.
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"tree", map[string]any{"path": ".", "depth": 5}},
		{"list_directory", map[string]any{"path": "."}},
		{"search_files", map[string]any{"content": "CANARY"}},
		{"search_files", map[string]any{"pattern": "*"}},
		{"read_file", map[string]any{"path": root + "/inside.txt"}}, // absolute inside the root is fine
	} {
		if text := ok(t, cl, c.tool, c.args); strings.Contains(text, canaryText) {
			t.Fatalf("%s leaked the canary: %s", c.tool, text)
		}
	}
	sameSnapshot(t, before, snapshot(t, outside))
}

// A goroutine keeps flipping swap between a link to a directory inside
// the root and a link to the outside while the tools run on paths below
// it: nothing outside is ever read or written.
func TestSymlinkSwapRace(t *testing.T) {
	root, outside := escapeFixture(t)
	writeFiles(t, root, map[string]string{"swap.real/canary.txt": "inside copy\n"})
	link := filepath.Join(root, "swap")
	if err := os.Symlink("swap.real", link); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, outside)
	w := open(t, Options{Root: root})
	cl := connect(t, w)

	stop := make(chan struct{})
	var wg sync.WaitGroup
	flips := 0
	wg.Go(func() {
		tmp := filepath.Join(root, "swap.tmp")
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			target := "swap.real"
			if i%2 == 1 {
				target = outside
			}
			os.Remove(tmp)
			if os.Symlink(target, tmp) == nil && os.Rename(tmp, link) == nil { // atomic replacement
				flips++
			}
		}
	})
	var escaped, succeeded int
	for i := range 60 {
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"read_file", map[string]any{"path": "swap/canary.txt"}},
			{"write_file", map[string]any{"path": "swap/canary.txt", "content": "overwritten\n"}},
			{"edit_file", map[string]any{"path": "swap/canary.txt", "old_string": "overwritten", "new_string": "edited"}},
			{"write_file", map[string]any{"path": "swap/new/file.txt", "content": "new\n"}},
			{"list_directory", map[string]any{"path": "swap"}},
			{"tree", map[string]any{"path": "swap"}},
			{"search_files", map[string]any{"path": "swap", "content": "CANARY|inside|edited"}},
			{"move_file", map[string]any{"path": "swap/new/file.txt", "destination": "swap/moved.txt"}},
			{"delete_file", map[string]any{"path": "swap/moved.txt"}},
		} {
			res, text := call(t, cl, c.tool, c.args)
			if strings.Contains(text, canaryText) {
				close(stop)
				t.Fatalf("round %d: %s leaked the canary: %s", i, c.tool, text)
			}
			switch {
			case !res.IsError:
				succeeded++
			case strings.Contains(text, ruleEscapes):
				escaped++
			}
		}
	}
	close(stop)
	wg.Wait()
	sameSnapshot(t, before, snapshot(t, outside))
	if flips < 2 || escaped == 0 || succeeded == 0 {
		t.Fatalf("the race was not exercised: %d flips, %d calls refused as escaping, %d succeeded", flips, escaped, succeeded)
	}
	t.Logf("%d flips, %d refused, %d succeeded", flips, escaped, succeeded)
}

// A directory swapped for a link while write_file runs: the write is
// refused (or misses), nothing lands outside, and no temporary file stays
// behind, neither in the directory moved away nor anywhere else.
func TestWriteCleansUpAfterADirectorySwap(t *testing.T) {
	cases := []struct {
		name string
		swap func(t *testing.T, root, outside string) string // returns where sub's directory went
		want error
	}{
		{"moved outside, link to it", func(t *testing.T, root, outside string) string {
			moved := filepath.Join(filepath.Dir(outside), "moved") // beside the canary's folder: its snapshot stays the same
			mustDo(t, os.Rename(filepath.Join(root, "sub"), moved), os.Symlink(moved, filepath.Join(root, "sub")))
			return moved
		}, ErrEscapes},
		{"kept inside, link outside", func(t *testing.T, root, outside string) string {
			kept := filepath.Join(root, "sub.real")
			mustDo(t, os.Rename(filepath.Join(root, "sub"), kept), os.Symlink(outside, filepath.Join(root, "sub")))
			return kept
		}, ErrEscapes},
		{"kept inside, link to another directory inside", func(t *testing.T, root, _ string) string {
			kept := filepath.Join(root, "sub.real")
			mustDo(t, os.Rename(filepath.Join(root, "sub"), kept), os.Mkdir(filepath.Join(root, "other"), 0o755),
				os.Symlink("other", filepath.Join(root, "sub")))
			return kept
		}, ErrNotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root, outside := escapeFixture(t)
			before := snapshot(t, outside)
			w := open(t, Options{Root: root})
			var moved string
			beforeRename = func() { moved = c.swap(t, root, outside) }
			t.Cleanup(func() { beforeRename = nil })
			_, err := w.WriteFile("sub/new.txt", "new\n")
			if !errors.Is(err, c.want) {
				t.Fatalf("write_file: %v, want %v", err, c.want)
			}
			noTempFiles(t, root)
			noTempFiles(t, moved)
			if _, err := os.Lstat(filepath.Join(moved, "new.txt")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the file was written after all: %v", err)
			}
			sameSnapshot(t, before, snapshot(t, outside))
		})
	}
}

func mustDo(t *testing.T, errs ...error) {
	t.Helper()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

type fakeInfo struct{ mode fs.FileMode }

func (f fakeInfo) Name() string       { return "x" }
func (f fakeInfo) Size() int64        { return 0 }
func (f fakeInfo) Mode() fs.FileMode  { return f.mode }
func (f fakeInfo) ModTime() time.Time { return time.Time{} }
func (f fakeInfo) IsDir() bool        { return f.mode.IsDir() }
func (f fakeInfo) Sys() any           { return nil }

func TestCheckRegular(t *testing.T) {
	cases := []struct {
		mode fs.FileMode
		want string // "" = allowed
	}{
		{0o644, ""},
		{fs.ModeDir | 0o755, "use list_directory"},
		{fs.ModeDevice | fs.ModeCharDevice | 0o666, ruleDevice},
		{fs.ModeDevice | 0o660, ruleDevice},
		{fs.ModeNamedPipe | 0o644, ruleFIFO},
		{fs.ModeSocket | 0o755, ruleSocket},
		{fs.ModeSymlink | 0o777, "symbolic link"},
		{fs.ModeIrregular, "not a regular file"},
	}
	for _, c := range cases {
		err := checkRegular(fakeInfo{c.mode})
		if (c.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("checkRegular(%s) = %v, want %q", c.mode, err, c.want)
		}
	}
}
