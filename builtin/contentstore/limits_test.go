package contentstore

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/builtin/contentstore/extract"
)

// TestAddRefusals: what an add refuses, and that each refusal says why and
// what to do. Text and a file's bytes have the size limit a file by path
// has; places of credentials are refused however they are named; /proc is
// not a document; office files are not supported (not "binary").
func TestAddRefusals(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home) // Windows
	for _, p := range []string{".ssh/id_rsa", ".config/gcloud/credentials.db", ".netrc", "notes/ok.md"} {
		p = filepath.Join(home, p)
		os.MkdirAll(filepath.Dir(p), 0o700)
		os.WriteFile(p, []byte("secret or not\n"), 0o600)
	}
	link := filepath.Join(home, "notes", "key.txt")
	if err := os.Symlink(filepath.Join(home, ".ssh", "id_rsa"), link); err != nil {
		t.Fatal(err)
	}
	docx := filepath.Join(t.TempDir(), "report.docx")
	os.WriteFile(docx, []byte("PK\x03\x04"), 0o600)

	s := openStores(t, testOptions(t.TempDir())) // 8 KB limit
	ctx := t.Context()
	info, err := s.Create(ctx, "Refusals", "", "")
	if err != nil {
		t.Fatal(err)
	}
	type refusal struct {
		name string
		in   Input
		want error
		msg  string
	}
	cases := []refusal{
		{"text over the limit", Input{Text: strings.Repeat("word ", 2000)}, extract.ErrTooLarge,
			"the text is 9.8 KB; the limit is 8.0 KB; split it into parts"},
		{"bytes over the limit", Input{Name: "big.txt", Data: []byte(strings.Repeat("x", 8<<10+1))}, extract.ErrTooLarge,
			"big.txt: file is over the size limit (8,193 bytes; the limit is 8,192 bytes (8.0 KB); split it"},
		{"an empty file's bytes", Input{Name: "empty.txt", Data: []byte{}}, extract.ErrEmpty, "empty.txt: no text (the file is empty)"},
		{"bytes without a name", Input{Data: []byte("x")}, ErrInvalid, "fileName must name the file"},
		{"bytes of a Word file", Input{Name: "cv.docx", Data: []byte("PK\x03\x04")}, extract.ErrUnsupported,
			"cv.docx: unsupported file type (Word documents (.docx) are not supported; save it as PDF or plain text"},
		{"a Word file by path", Input{Path: docx}, extract.ErrUnsupported, "Word documents (.docx) are not supported"},
		{"a key", Input{Path: "~/.ssh/id_rsa"}, ErrInvalid, "is in ~/.ssh, where keys, tokens and passwords are kept"},
		{"the folder of keys", Input{Path: filepath.Join(home, ".ssh")}, ErrInvalid, "copy it to another folder and add the copy"},
		{"a link to a key", Input{Path: link}, ErrInvalid, "is in ~/.ssh"},
		{"gcloud", Input{Path: filepath.Join(home, ".config", "gcloud", "credentials.db")}, ErrInvalid, "is in ~/.config/gcloud"},
		{"netrc", Input{Path: "~/.netrc"}, ErrInvalid, "is in ~/.netrc"},
	}
	if runtime.GOOS == "linux" {
		cases = append(cases,
			refusal{"a file of /proc", Input{Path: "/proc/self/status"}, extract.ErrPseudoFile, "it is on proc, a pseudo filesystem"},
			refusal{"/proc itself", Input{Path: "/proc"}, extract.ErrPseudoFile, "/proc: not a document"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := s.Add(ctx, info.ID, c.in)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("err = %v; want %v with %q", err, c.want, c.msg)
			}
		})
	}
	// A ~ path is the home folder's; a folder add leaves the link to the
	// key out, saying why.
	res, err := s.Add(ctx, info.ID, Input{Path: "~/notes/ok.md"})
	if err != nil || res.Contents[0].Path != filepath.Join(home, "notes", "ok.md") {
		t.Fatalf("add of ~/notes/ok.md = %+v, %v", res, err)
	}
	res, err = s.Add(ctx, info.ID, Input{Path: filepath.Join(home, "notes")})
	if err != nil || res.Added != 1 || res.SkippedCount != 1 || res.Skipped[0].Path != link ||
		!strings.Contains(res.Skipped[0].Reason, "in ~/.ssh, where keys, tokens and passwords are kept: not added") {
		t.Fatalf("folder with a link to a key = %+v, %v", res, err)
	}
	// A walk of ~/.config leaves gcloud out.
	res, err = s.Add(ctx, info.ID, Input{Path: filepath.Join(home, ".config")})
	if !errors.Is(err, ErrNothingAdded) || res.SkippedCount != 1 || !strings.Contains(res.Skipped[0].Reason, "in ~/.config/gcloud") {
		t.Fatalf("add of ~/.config = %+v, %v", res, err)
	}
}

// TestFileBytesAreDecodedAndReplaced: a file's bytes are read as the file
// would be (Latin-1 and UTF-16 too, not as UTF-8 as the browser's
// file.text() read them), and the same file name sent again replaces its
// document instead of adding a second.
func TestFileBytesAreDecodedAndReplaced(t *testing.T) {
	s := openStores(t, testOptions(t.TempDir()))
	ctx := t.Context()
	info, err := s.Create(ctx, "Sent", "", "")
	if err != nil {
		t.Fatal(err)
	}
	first, err := s.Add(ctx, info.ID, Input{Name: "menu.txt", Data: []byte("caf\xe9 cr\xe8me br\xfbl\xe9e\n")})
	if err != nil || first.Contents[0].Replaced || first.Contents[0].File != "menu.txt" || first.Contents[0].Path != "" {
		t.Fatalf("first add = %+v, %v", first, err)
	}
	second, err := s.Add(ctx, info.ID, Input{Name: "menu.txt", Data: []byte("\xff\xfet\x00h\x00\xe9\x00\n\x00")}) // UTF-16 LE "thé"
	if err != nil || second.Contents[0].ID != first.Contents[0].ID || !second.Contents[0].Replaced {
		t.Fatalf("second add = %+v, %v; want the same document, replaced", second, err)
	}
	page, err := s.Contents(ctx, info.ID, 0, 0)
	if err != nil || page.Total != 1 || page.Documents[0].File != "menu.txt" {
		t.Fatalf("contents = %+v, %v", page, err)
	}
	ex, err := s.Read(ctx, first.Contents[0].ID, 1, 0)
	if err != nil || ex.Text != "thé" {
		t.Fatalf("read = %+v, %v", ex, err)
	}
	// By path, a UTF-16 file is text, not "binary".
	p := filepath.Join(t.TempDir(), "utf16.txt")
	os.WriteFile(p, []byte("\xfe\xff\x00Z\x00\xfc\x00r\x00i\x00c\x00h"), 0o600)
	if res, err := s.Add(ctx, info.ID, Input{Path: p}); err != nil || res.Added != 1 {
		t.Fatalf("UTF-16 by path = %+v, %v", res, err)
	}
}
