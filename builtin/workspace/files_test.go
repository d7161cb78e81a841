package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
)

func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestReadFile(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"ten.txt":            numbered(10),
		"crlf.txt":           "a\r\nb\r\n",
		"no-eol.txt":         "one\ntwo",
		"empty.txt":          "",
		"photo.png":          "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
		"latin1.txt":         "caf\xe9\n",
		"utf8.txt":           "café ☕\n",
		"sub/x.txt":          "x\n",
		"spaces in name.txt": "ok\n",
	})
	w := open(t, Options{Root: root})
	cl := connect(t, w)
	cases := []struct {
		name string
		args map[string]any
		want string // exact text, or the error's
		err  bool
	}{
		{"whole file", map[string]any{"path": "ten.txt"}, numbered(10), false},
		{"range", map[string]any{"path": "ten.txt", "fromLine": 3, "toLine": 5},
			"line 3\nline 4\nline 5\n[lines 3-5 of 10; call read_file with fromLine=6 to read on]", false},
		{"from to the end", map[string]any{"path": "ten.txt", "fromLine": 9},
			"line 9\nline 10\n[lines 9-10 of 10]", false},
		{"toLine past the end", map[string]any{"path": "ten.txt", "fromLine": 10, "toLine": 99}, "line 10\n[lines 10-10 of 10]", false},
		{"number as string", map[string]any{"path": "ten.txt", "fromLine": "2", "toLine": "2"}, "line 2\n[lines 2-2 of 10; call read_file with fromLine=3 to read on]", false},
		{"crlf kept", map[string]any{"path": "crlf.txt"}, "a\r\nb\r\n", false},
		{"last line without newline", map[string]any{"path": "no-eol.txt", "fromLine": 2}, "two\n[lines 2-2 of 2]", false},
		{"empty", map[string]any{"path": "empty.txt"}, "[empty.txt is empty]", false},
		{"utf8", map[string]any{"path": "utf8.txt"}, "café ☕\n", false},
		{"absolute inside", map[string]any{"path": filepath.Join(root, "sub/x.txt")}, "x\n", false},
		{"dot segments inside", map[string]any{"path": "./sub/../sub/x.txt"}, "x\n", false},
		{"spaces", map[string]any{"path": "spaces in name.txt"}, "ok\n", false},
		{"binary", map[string]any{"path": "photo.png"}, `read_file "photo.png": not a text file: it is binary (a NUL byte at offset 8)`, true},
		{"not utf8", map[string]any{"path": "latin1.txt"}, "not a text file: it is not UTF-8 text", true},
		{"past the end", map[string]any{"path": "ten.txt", "fromLine": 11}, "fromLine 11 is past the end: the file has 10 lines", true},
		{"backwards range", map[string]any{"path": "ten.txt", "fromLine": 5, "toLine": 4}, "toLine may not be before fromLine", true},
		{"fraction", map[string]any{"path": "ten.txt", "fromLine": 1.5}, "fromLine must be a positive whole number", true},
		{"missing", map[string]any{"path": "nope.txt"}, "no such file or directory: check the path with list_directory", true},
		{"directory", map[string]any{"path": "sub"}, "is a directory", true},
		{"no path", map[string]any{}, "path is required", true},
		{"path not a string", map[string]any{"path": 7}, "path must be a string", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.err {
				fails(t, cl, "read_file", c.args, c.want)
				return
			}
			if got := ok(t, cl, "read_file", c.args); got != c.want {
				t.Fatalf("text = %q, want %q", got, c.want)
			}
		})
	}
}

func TestReadFileSizeCap(t *testing.T) {
	old := MaxReadBytes
	MaxReadBytes = 20
	t.Cleanup(func() { MaxReadBytes = old })
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"ten.txt": numbered(10), "long.txt": strings.Repeat("é", 40) + "\nnext\n"})
	w := open(t, Options{Root: root})

	res, err := w.ReadFile("ten.txt", 0, 0)
	if err != nil || res.Content != "line 1\nline 2\n" || !res.Truncated || res.ToLine != 2 || res.TotalLines != 10 {
		t.Fatalf("ten.txt = %+v, %v", res, err)
	}
	// A single line longer than the cap is cut, not split inside a character.
	res, err = w.ReadFile("long.txt", 0, 0)
	if err != nil || res.Content != strings.Repeat("é", 10) || !res.Truncated || res.ToLine != 1 {
		t.Fatalf("long.txt = %+v, %v", res, err)
	}
	cl := connect(t, w)
	if text := ok(t, cl, "read_file", map[string]any{"path": "ten.txt"}); !strings.HasSuffix(text, "[lines 1-2 of 10; stopped at the 0 KiB limit; call read_file with fromLine=3 to read on]") {
		t.Fatalf("text = %q", text)
	}
}

// Every line ends where it should, wherever it falls against the read
// buffer's pieces: a last line without a newline ending exactly at a
// multiple of the buffer once read as an empty file, or lost its line.
func TestReadFileLineBoundaries(t *testing.T) {
	y := func(n int) string { return strings.Repeat("y", n) }
	var contents []string
	for _, n := range []int{readBufBytes, 2 * readBufBytes, 3 * readBufBytes, MaxReadBytes, 1 << 20} {
		for _, m := range []int{n - 2, n - 1, n, n + 1} {
			contents = append(contents,
				y(m), y(m)+"\n", y(m-1)+"\r\n", "head\n"+y(m), "head\n"+y(m)+"\n",
				y(m)+"\nz", "head\r\n"+y(m-1)+"\r\nz\r\n")
		}
	}
	root := t.TempDir()
	w := open(t, Options{Root: root})
	for i, content := range contents {
		name := fmt.Sprintf("f%d.txt", i)
		writeFiles(t, root, map[string]string{name: content})
		lines := strings.SplitAfter(content, "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		desc := fmt.Sprintf("%s (%d bytes, %d lines, ends %q)", name, len(content), len(lines), content[max(0, len(content)-2):])
		res, err := w.ReadFile(name, 0, 0)
		if err != nil || res.TotalLines != len(lines) {
			t.Fatalf("%s: %d lines, %v", desc, res.TotalLines, err)
		}
		switch {
		case len(content) <= MaxReadBytes:
			if res.Content != content || res.ToLine != len(lines) || res.Truncated {
				t.Fatalf("%s: whole read got %d bytes to line %d, truncated %v", desc, len(res.Content), res.ToLine, res.Truncated)
			}
		case len(lines[0]) > MaxReadBytes:
			if res.Content != content[:MaxReadBytes] || res.ToLine != 1 || !res.Truncated {
				t.Fatalf("%s: long first line got %d bytes to line %d, truncated %v", desc, len(res.Content), res.ToLine, res.Truncated)
			}
		default:
			if res.Content != lines[0] || res.ToLine != 1 || !res.Truncated {
				t.Fatalf("%s: got %d bytes to line %d, truncated %v", desc, len(res.Content), res.ToLine, res.Truncated)
			}
		}
		for n, want := range lines {
			res, err := w.ReadFile(name, n+1, n+1)
			if len(want) > MaxReadBytes {
				want = want[:MaxReadBytes]
			}
			if err != nil || res.Content != want || res.ToLine != n+1 || res.TotalLines != len(lines) {
				t.Fatalf("%s: line %d got %d bytes to line %d of %d, %v; want %d bytes", desc, n+1, len(res.Content), res.ToLine, res.TotalLines, err, len(want))
			}
		}
		if _, err := w.ReadFile(name, len(lines)+1, 0); !errors.Is(err, ErrInvalid) {
			t.Fatalf("%s: reading past the end: %v", desc, err)
		}
	}
	// The tool's text: the file's one line, not "[... is empty]".
	writeFiles(t, root, map[string]string{"y64k.txt": y(readBufBytes), "two.txt": "head\n" + y(readBufBytes)})
	cl := connect(t, w)
	if got := ok(t, cl, "read_file", map[string]any{"path": "y64k.txt"}); got != y(readBufBytes) {
		t.Fatalf("y64k.txt: %d bytes: %.40q", len(got), got)
	}
	if got := ok(t, cl, "read_file", map[string]any{"path": "two.txt", "fromLine": 1, "toLine": 1}); got != "head\n[lines 1-1 of 2; call read_file with fromLine=2 to read on]" {
		t.Fatalf("two.txt line 1: %q", got)
	}
}

func TestWriteFile(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"private.txt": "old\n"})
	if err := os.Chmod(filepath.Join(root, "private.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	w := open(t, Options{Root: root})
	cl := connect(t, w)

	if text := ok(t, cl, "write_file", map[string]any{"path": "a/b/c.txt", "content": "hello\n"}); text != "created a/b/c.txt (6 bytes)" {
		t.Fatalf("text = %q", text)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a/b/c.txt")); string(b) != "hello\n" {
		t.Fatalf("content = %q", b)
	}
	if text := ok(t, cl, "write_file", map[string]any{"path": "private.txt", "content": ""}); text != "replaced private.txt (0 bytes)" {
		t.Fatalf("text = %q", text)
	}
	fi, err := os.Stat(filepath.Join(root, "private.txt"))
	if err != nil || fi.Size() != 0 || fi.Mode().Perm() != 0o600 {
		t.Fatalf("replaced file: %v %v (mode must be kept)", fi.Mode(), err)
	}
	fails(t, cl, "write_file", map[string]any{"path": "a", "content": "x"}, "is a directory")
	fails(t, cl, "write_file", map[string]any{"path": "a/b/c.txt/d", "content": "x"}, "not a directory")
	fails(t, cl, "write_file", map[string]any{"path": ".", "content": "x"}, "the workspace root itself")
	fails(t, cl, "write_file", map[string]any{"path": "x.txt"}, "content is required")
	noTempFiles(t, root)
}

// A file made read-only is not replaced, though renaming over it would
// only need the directory's permission: not even when Switchboard runs as
// root, which the mode bits do not stop.
func TestWriteRefusesReadOnlyFiles(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{"ro.txt": "keep me\n", "ro-script.sh": "keep me\n", "group-only.txt": "keep me\n"}
	writeFiles(t, root, files)
	modes := map[string]os.FileMode{"ro.txt": 0o444, "ro-script.sh": 0o555, "group-only.txt": 0o464}
	for name, mode := range modes {
		if err := os.Chmod(filepath.Join(root, name), mode); err != nil {
			t.Fatal(err)
		}
	}
	w := open(t, Options{Root: root})
	cl := connect(t, w)
	for name := range files {
		text := fails(t, cl, "write_file", map[string]any{"path": name, "content": "lost\n"}, "file is read-only")
		if !strings.Contains(text, `"`+name+`"`) || !strings.Contains(text, "chmod u+w") {
			t.Errorf("write_file %s: %q names neither the path nor what to do", name, text)
		}
		fails(t, cl, "edit_file", map[string]any{"path": name, "old_string": "keep", "new_string": "lose"}, "file is read-only")
		fi, err := os.Stat(filepath.Join(root, name))
		if b, _ := os.ReadFile(filepath.Join(root, name)); string(b) != "keep me\n" || err != nil || fi.Mode().Perm() != modes[name] {
			t.Errorf("%s changed: %q, %v %v", name, b, fi.Mode(), err)
		}
	}
	noTempFiles(t, root)
}

// noTempFiles checks no temporary file of an atomic write was left.
func noTempFiles(t *testing.T, root string) {
	t.Helper()
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".sb-") {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
}

// Readers running beside a writer only ever see a whole old or a whole
// new content.
func TestWriteFileIsAtomic(t *testing.T) {
	root := t.TempDir()
	const size = 256 << 10
	contents := []string{strings.Repeat("A", size), strings.Repeat("B", size)}
	writeFiles(t, root, map[string]string{"big.txt": contents[0]})
	w := open(t, Options{Root: root})
	done := make(chan struct{})
	var wg sync.WaitGroup
	var bad []string
	var mu sync.Mutex
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				b, err := os.ReadFile(filepath.Join(root, "big.txt"))
				if err != nil || len(b) != size || (b[0] != 'A' && b[0] != 'B') || bytes.Count(b, b[:1]) != size {
					mu.Lock()
					bad = append(bad, fmt.Sprintf("len %d err %v", len(b), err))
					mu.Unlock()
				}
			}
		})
	}
	for i := range 40 {
		if _, err := w.WriteFile("big.txt", contents[i%2]); err != nil {
			t.Error(err)
		}
	}
	close(done)
	wg.Wait()
	if len(bad) > 0 {
		t.Fatalf("readers saw %d partial writes, e.g. %s", len(bad), bad[0])
	}
	noTempFiles(t, root)
}

func TestEditFile(t *testing.T) {
	const src = "func a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 1\n}\n"
	cases := []struct {
		name     string
		file     string
		old, new string
		want     string // file content after, or the error
		err      bool
	}{
		{"unique", src, "func b() {\n\treturn 1", "func b() {\n\treturn 2", "func a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 2\n}\n", false},
		{"no match", src, "return 3", "return 4", "old_string was not found: no text in the file equals old_string; read the file again", true},
		{"two matches", src, "\treturn 1\n", "\treturn 2\n", "old_string is not unique: it matches 2 places; include more of the surrounding lines", true},
		{"whitespace matters", src, "return  1", "x", "old_string was not found", true},
		{"delete text", "keep\ndrop\nkeep too\n", "drop\n", "", "keep\nkeep too\n", false},
		{"crlf file", "a\r\nb\r\nc\r\n", "b\nc", "B\nC", "a\r\nB\r\nC\r\n", false},
		{"empty old", src, "", "x", "old_string is empty", true},
		{"same strings", src, "a", "a", "nothing would change", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, map[string]string{"f.go": c.file})
			w := open(t, Options{Root: root})
			cl := connect(t, w)
			args := map[string]any{"path": "f.go", "old_string": c.old, "new_string": c.new}
			if c.err {
				fails(t, cl, "edit_file", args, c.want)
				if b, _ := os.ReadFile(filepath.Join(root, "f.go")); string(b) != c.file {
					t.Fatalf("a failed edit changed the file: %q", b)
				}
				return
			}
			ok(t, cl, "edit_file", args)
			if b, _ := os.ReadFile(filepath.Join(root, "f.go")); string(b) != c.want {
				t.Fatalf("content = %q, want %q", b, c.want)
			}
		})
	}
}

func TestEditFileReportsLine(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"ten.txt": numbered(10)})
	w := open(t, Options{Root: root})
	res, err := w.EditFile("ten.txt", "line 7\n", "seven\n")
	if err != nil || res.Line != 7 || res.Path != "ten.txt" {
		t.Fatalf("EditFile = %+v, %v", res, err)
	}
	if _, err := w.EditFile("ten.txt", "line 1", "x"); !errors.Is(err, ErrAmbiguous) { // line 1, line 10
		t.Fatalf("err = %v, want ErrAmbiguous", err)
	}
	var pe *PathError
	if _, err := w.EditFile("ten.txt", "nope", "x"); !errors.As(err, &pe) || pe.Op != "edit_file" || !errors.Is(err, ErrNoMatch) {
		t.Fatalf("err = %#v", err)
	}
}

func TestMoveAndDelete(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a.txt": "a", "b.txt": "b", "dir/x.txt": "x", "target.txt": "t"})
	if err := os.Mkdir(filepath.Join(root, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target.txt", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	w := open(t, Options{Root: root})
	cl := connect(t, w)

	if text := ok(t, cl, "move_file", map[string]any{"path": "a.txt", "destination": "new/dir/a2.txt"}); text != "moved a.txt to new/dir/a2.txt" {
		t.Fatalf("text = %q", text)
	}
	if b, err := os.ReadFile(filepath.Join(root, "new/dir/a2.txt")); err != nil || string(b) != "a" {
		t.Fatalf("moved file: %q %v", b, err)
	}
	fails(t, cl, "move_file", map[string]any{"path": "b.txt", "destination": "target.txt"}, "already exists: the destination exists; delete it first")
	fails(t, cl, "move_file", map[string]any{"path": "dir", "destination": "dir/inner"}, "cannot be moved into itself")
	fails(t, cl, "move_file", map[string]any{"path": "nope", "destination": "x"}, "no such file or directory")
	ok(t, cl, "move_file", map[string]any{"path": "dir", "destination": "dir2"})

	if text := ok(t, cl, "delete_file", map[string]any{"path": "link"}); text != "deleted symlink link" {
		t.Fatalf("text = %q", text)
	}
	if _, err := os.Stat(filepath.Join(root, "target.txt")); err != nil {
		t.Fatal("deleting the link deleted its target")
	}
	ok(t, cl, "delete_file", map[string]any{"path": "empty"})
	fails(t, cl, "delete_file", map[string]any{"path": "dir2"}, "directory is not empty")
	fails(t, cl, "delete_file", map[string]any{"path": "."}, "the workspace root cannot be deleted")
	fails(t, cl, "delete_file", map[string]any{"path": root}, "the workspace root cannot be deleted")
	ok(t, cl, "delete_file", map[string]any{"path": "b.txt"})
	fails(t, cl, "delete_file", map[string]any{"path": "b.txt"}, "no such file or directory")

	var names []string
	ents, _ := os.ReadDir(root)
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if want := []string{"dir2", "new", "target.txt"}; !slices.Equal(names, want) {
		t.Fatalf("root holds %v, want %v", names, want)
	}
}

func TestListDirectory(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{".gitignore": "*.log\n", "a.txt": "12345", "debug.log": "x", "src/main.go": ""})
	if err := os.Symlink("src/main.go", filepath.Join(root, "main")); err != nil {
		t.Fatal(err)
	}
	w := open(t, Options{Root: root})
	cl := connect(t, w)
	want := ".gitignore  6 bytes\na.txt  5 bytes\ndebug.log  1 bytes  (gitignored)\nmain -> src/main.go\nsrc/\n"
	if text := ok(t, cl, "list_directory", map[string]any{}); text != "./ (5 entries)\n"+want {
		t.Fatalf("text = %q", text)
	}
	res, err := w.ListDirectory("src")
	if err != nil || len(res.Entries) != 1 || res.Entries[0] != (Entry{Name: "main.go", Type: "file"}) {
		t.Fatalf("src = %+v, %v", res, err)
	}
	old := MaxListEntries
	MaxListEntries = 2
	t.Cleanup(func() { MaxListEntries = old })
	if res, _ := w.ListDirectory("."); len(res.Entries) != 2 || !res.More {
		t.Fatalf("capped listing = %+v", res)
	}
}

// Names are shown quoted, control characters escaped, when they hold any,
// so that a name cannot fake entries or lines of a text listing.
func TestListingsQuoteControlCharacters(t *testing.T) {
	root := t.TempDir()
	evil := "evil\nfake.txt  999 bytes"
	writeFiles(t, root, map[string]string{evil: "12345", "bel\a.txt": "", `"quoted".txt`: "", "plain name.txt": "", "d\r/x.txt": ""})
	if err := os.Symlink("to\nthere", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	w := open(t, Options{Root: root})
	cl := connect(t, w)
	want := `./ (6 entries)
"\"quoted\".txt"  0 bytes
"bel\a.txt"  0 bytes
"d\r"/
"evil\nfake.txt  999 bytes"  5 bytes
link -> "to\nthere"  (not followed: it leads outside the workspace, nowhere, or in a loop)
plain name.txt  0 bytes
`
	if text := ok(t, cl, "list_directory", map[string]any{}); text != want {
		t.Fatalf("list_directory =\n%s\nwant\n%s", text, want)
	}
	want = `./
  "\"quoted\".txt"
  "bel\a.txt"
  "d\r"/
    x.txt
  "evil\nfake.txt  999 bytes"
  link -> "to\nthere"  (not followed: it leads outside the workspace, nowhere, or in a loop)
  plain name.txt
`
	if text := ok(t, cl, "tree", map[string]any{}); text != want {
		t.Fatalf("tree =\n%s\nwant\n%s", text, want)
	}
	if text := ok(t, cl, "search_files", map[string]any{"content": "123"}); text != `"evil\nfake.txt  999 bytes":1: 12345`+"\n" {
		t.Fatalf("search_files = %q", text)
	}
	if text := ok(t, cl, "search_files", map[string]any{"pattern": "x.txt"}); text != `"d\r/x.txt"`+"\n" {
		t.Fatalf("search_files = %q", text)
	}
	// The structured content keeps the names as they are.
	if res, err := w.ListDirectory("."); err != nil || res.Entries[3].Name != evil {
		t.Fatalf("entries = %+v, %v", res.Entries, err)
	}
}

// Names a text listing could misread are quoted: white space at either
// end, a link's arrow, two spaces in a row, a leading "[". Special files
// and links that cannot be followed say what they are, and the structured
// content gives every entry's path, type and link target as they are, so
// the Workspace page lists them without reading the text.
func TestListingsAreUnambiguous(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	writeFiles(t, root, map[string]string{
		" lead.txt": "", "trail.txt ": "", "a -> b.txt": "", "[note].txt": "", "two  spaces.txt": "", "plain.txt": "p\n",
		"d1/d2/f.txt": "",
	})
	links := map[string]string{"loop": "loop", "in": "plain.txt", "out": "../..", "dirlink": "d1", "gone": "nothing"}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	w := open(t, Options{Root: root})
	cl := connect(t, w)
	const notFollowed = "  (not followed: it leads outside the workspace, nowhere, or in a loop)"
	want := `./
  " lead.txt"
  "[note].txt"
  "a -> b.txt"
  d1/
    d2/
  dirlink -> d1
  gone -> nothing` + notFollowed + `
  in -> plain.txt
  loop -> loop` + notFollowed + `
  out -> ../..` + notFollowed + `
  pipe  (named pipe)
  plain.txt
  "trail.txt "
  "two  spaces.txt"
[deeper levels not shown: call tree on a subdirectory or with a larger depth]`
	res, text := call(t, cl, "tree", map[string]any{"depth": 2})
	if text != want {
		t.Fatalf("tree =\n%s\nwant\n%s", text, want)
	}
	checkOutput(t, cl, "tree", res)
	tree := structured[TreeResult](t, res)
	got := map[string]TreeEntry{}
	for _, e := range tree.Entries {
		got[e.Path] = e
	}
	wantEntries := map[string]TreeEntry{
		" lead.txt":  {Entry: Entry{Name: " lead.txt", Type: "file"}, Path: " lead.txt", Depth: 1},
		"a -> b.txt": {Entry: Entry{Name: "a -> b.txt", Type: "file"}, Path: "a -> b.txt", Depth: 1},
		"d1/d2":      {Entry: Entry{Name: "d2", Type: "dir"}, Path: "d1/d2", Depth: 2, Unlisted: true},
		"dirlink":    {Entry: Entry{Name: "dirlink", Type: "symlink", Target: "d1", TargetType: "dir"}, Path: "dirlink", Depth: 1},
		"in":         {Entry: Entry{Name: "in", Type: "symlink", Target: "plain.txt", TargetType: "file"}, Path: "in", Depth: 1},
		"loop":       {Entry: Entry{Name: "loop", Type: "symlink", Target: "loop"}, Path: "loop", Depth: 1},
		"out":        {Entry: Entry{Name: "out", Type: "symlink", Target: "../.."}, Path: "out", Depth: 1},
		"pipe":       {Entry: Entry{Name: "pipe", Type: "fifo"}, Path: "pipe", Depth: 1},
		"plain.txt":  {Entry: Entry{Name: "plain.txt", Type: "file", Size: 2}, Path: "plain.txt", Depth: 1},
		"trail.txt ": {Entry: Entry{Name: "trail.txt ", Type: "file"}, Path: "trail.txt ", Depth: 1},
	}
	for p, e := range wantEntries {
		if got[p] != e {
			t.Errorf("tree entry %q = %+v, want %+v", p, got[p], e)
		}
	}
	if len(tree.Entries) != 14 || !tree.DepthLimited || tree.Entries[0].Path != " lead.txt" || tree.Entries[4].Path != "d1/d2" {
		t.Errorf("tree = %+v", tree)
	}
	// The page opens the folder left unlisted with list_directory.
	res, text = call(t, cl, "list_directory", map[string]any{"path": "d1/d2"})
	if text != "d1/d2/ (1 entries)\nf.txt  0 bytes\n" {
		t.Fatalf("list_directory d1/d2 = %q", text)
	}
	checkOutput(t, cl, "list_directory", res)
	if l := structured[Listing](t, res); len(l.Entries) != 1 || l.Entries[0] != (Entry{Name: "f.txt", Type: "file"}) {
		t.Fatalf("listing = %+v", l)
	}
	text = ok(t, cl, "list_directory", map[string]any{})
	for _, line := range []string{`" lead.txt"  0 bytes`, `"a -> b.txt"  0 bytes`, "pipe  (named pipe)", "loop -> loop" + notFollowed, "in -> plain.txt\n"} {
		if !strings.Contains(text, "\n"+line) {
			t.Errorf("list_directory has no line %q:\n%s", line, text)
		}
	}
	// The names read back as they are.
	if got := ok(t, cl, "read_file", map[string]any{"path": "in"}); got != "p\n" {
		t.Fatalf("read through the link: %q", got)
	}
}

func TestTreeHonoursGitignore(t *testing.T) {
	root := t.TempDir()
	unpack(t, "project.txtar", root)
	w := open(t, Options{Root: root})
	cl := connect(t, w)
	want := `./
  .gitignore
  README.md
  deep/
    a/
      b/
  keep.log
  src/
    gen/
      .gitignore
      b.go
    main.go
    util.go
  web/
    .gitignore
    app.log
    index.html
[7 ignored entries not shown; deeper levels not shown: call tree on a subdirectory or with a larger depth]`
	if text := ok(t, cl, "tree", map[string]any{}); text != want {
		t.Fatalf("tree =\n%s\nwant\n%s", text, want)
	}
	// A subdirectory still gets the root's and its parents' .gitignore.
	if text := ok(t, cl, "tree", map[string]any{"path": "src", "depth": 1}); text != "src/\n  gen/\n  main.go\n  util.go\n[deeper levels not shown: call tree on a subdirectory or with a larger depth]" {
		t.Fatalf("tree src = %q", text)
	}
	if text := ok(t, cl, "tree", map[string]any{"path": "src/gen"}); text != "src/gen/\n  .gitignore\n  b.go\n[1 ignored entries not shown]" {
		t.Fatalf("tree src/gen = %q", text)
	}
	res, err := w.Tree(t.Context(), "deep", 10)
	if err != nil || res.Text != "deep/\n  a/\n    b/\n      c/\n        d.txt\n" || res.DepthLimited {
		t.Fatalf("deep = %+v, %v", res, err)
	}
	old := MaxTreeEntries
	MaxTreeEntries = 3
	t.Cleanup(func() { MaxTreeEntries = old })
	if res, _ := w.Tree(t.Context(), ".", 0); !res.Truncated || len(res.Entries) != 3 {
		t.Fatalf("capped tree = %+v", res)
	}
	fails(t, cl, "tree", map[string]any{"path": "README.md"}, "not a directory")
}

func TestSearchFiles(t *testing.T) {
	root := t.TempDir()
	unpack(t, "project.txtar", root)
	w := open(t, Options{Root: root})
	cl := connect(t, w)
	cases := []struct {
		name string
		args map[string]any
		want string
	}{
		{"names", map[string]any{"pattern": "*.go"}, "src/gen/b.go\nsrc/main.go\nsrc/util.go\n"},
		{"names with a slash", map[string]any{"pattern": "src/*.go"}, "src/main.go\nsrc/util.go\n"},
		{"names below a path", map[string]any{"pattern": "*.log", "path": "web"}, "web/app.log\n"},
		{"directories", map[string]any{"pattern": "gen"}, "src/gen/\n"},
		{"content everywhere", map[string]any{"content": "TODO"},
			"src/gen/b.go:1: package gen // TODO generated\nsrc/main.go:4: \t// TODO: greet\nsrc/util.go:3: // TODO: more helpers\nweb/index.html:1: <h1>TODO</h1>\n"},
		{"regexp in matching files", map[string]any{"content": `TODO: \w+`, "pattern": "*.go"},
			"src/main.go:4: \t// TODO: greet\nsrc/util.go:3: // TODO: more helpers\n"},
		{"invalid regexp is literal", map[string]any{"content": "println(\""},
			"src/main.go:5: \tprintln(\"hello\")\n[content is not a valid regular expression, so it was searched for literally]\n"},
		{"nothing", map[string]any{"content": "absent-text"}, "no matches\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if text := ok(t, cl, "search_files", c.args); text != c.want {
				t.Fatalf("text = %q, want %q", text, c.want)
			}
		})
	}
	fails(t, cl, "search_files", map[string]any{}, "give a pattern (file names, e.g. *.go) and/or content")
	fails(t, cl, "search_files", map[string]any{"pattern": "*", "path": "README.md"}, "not a directory")

	old := MaxSearchResults
	MaxSearchResults = 2
	t.Cleanup(func() { MaxSearchResults = old })
	res, err := w.Search(t.Context(), "", ".", "TODO")
	if err != nil || len(res.Matches) != 2 || !res.Truncated {
		t.Fatalf("capped search = %+v, %v", res, err)
	}
}

func TestSearchSkipsBinaryFiles(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"bin.dat": "needle\x00\x01", "text.txt": "a needle\n"})
	w := open(t, Options{Root: root})
	res, err := w.Search(t.Context(), "", "", "needle")
	if err != nil || len(res.Matches) != 1 || res.Matches[0] != (Match{Path: "text.txt", Line: 1, Text: "a needle"}) || res.Skipped != 1 {
		t.Fatalf("search = %+v, %v", res, err)
	}
}
