package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const corpus = "../testdata/corpus"

func TestFileCorpus(t *testing.T) {
	cases := []struct {
		file     string
		format   Format
		title    string
		contains []string
		absent   []string
		lines    int
	}{
		{"guide.md", Markdown, "Harbor Guide", []string{"### Linux\n\nDownload the tarball"}, nil, 37},
		{"notes.txt", Text, "notes.txt", []string{"Marta owns the migration plan."}, nil, 9},
		{"page.html", HTML, "Sourdough Basics", []string{
			"# Sourdough Basics\n\nA sourdough starter is a culture of wild yeast & lactic acid bacteria.\n",
			"## Feeding the starter\n", "- Use unbleached flour.\n- Keep it at 24 °C.\n",
		}, []string{"trackingpixel", "font-family", "<p>", "&amp;"}, 14},
		{"data.json", JSON, "data.json", []string{"\n      \"name\": \"flux capacitor\",\n"}, nil, 244},
		{"people.csv", CSV, "people.csv", []string{"Grace Hopper,compilers,Arlington"}, nil, 5},
		{"ratelimit.go", Code, "ratelimit.go", []string{"func (b *Bucket) Allow"}, nil, 22},
		{"japanese.txt", Text, "japanese.txt", []string{"東京タワー"}, nil, 3},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			doc, err := File(t.Context(), filepath.Join(corpus, c.file), 8<<10)
			if err != nil {
				t.Fatal(err)
			}
			if doc.Format != c.format || doc.Title != c.title {
				t.Errorf("format, title = %s, %q; want %s, %q", doc.Format, doc.Title, c.format, c.title)
			}
			for _, s := range c.contains {
				if !strings.Contains(doc.Text, s) {
					t.Errorf("text lacks %q:\n%s", s, doc.Text)
				}
			}
			for _, s := range c.absent {
				if strings.Contains(doc.Text, s) {
					t.Errorf("text has %q:\n%s", s, doc.Text)
				}
			}
			if n := strings.Count(strings.TrimSuffix(doc.Text, "\n"), "\n") + 1; n != c.lines {
				t.Errorf("%d lines, want %d", n, c.lines)
			}
		})
	}
}

func TestFileErrors(t *testing.T) {
	dir := t.TempDir()
	pdf := filepath.Join(dir, "paper.pdf")
	os.WriteFile(pdf, []byte("%PDF-1.7\n..."), 0o600)
	nul := filepath.Join(dir, "blob.txt")
	os.WriteFile(nul, []byte("text\x00more"), 0o600)
	blank := filepath.Join(dir, "blank.md")
	os.WriteFile(blank, []byte("\n \n"), 0o600)
	empty := filepath.Join(dir, "empty.txt")
	os.WriteFile(empty, nil, 0o600)
	markup := filepath.Join(dir, "markup.html")
	os.WriteFile(markup, []byte("<html><script>x()</script></html>"), 0o600)
	docx := filepath.Join(dir, "report.docx")
	os.WriteFile(docx, []byte("PK\x03\x04 word/document.xml"), 0o600)
	justOver := filepath.Join(dir, "just-over.txt")
	os.WriteFile(justOver, bytes.Repeat([]byte("a\n"), 4<<10+7), 0o600)
	cases := []struct {
		path   string
		want   error
		detail string
	}{
		{filepath.Join(corpus, "photo.png"), ErrBinary, "only text and PDF files can be added"},
		{filepath.Join(corpus, "big.log"), ErrTooLarge, "12.6 KB; the limit is 8.0 KB"},
		{filepath.Join(dir, "missing.txt"), fs.ErrNotExist, "check the path"},
		{dir, ErrIsDir, ""},
		{pdf, ErrUnreadable, "the file may be damaged or cut short; convert it to text first, e.g. with pdftotext"},
		{nul, ErrBinary, ""},
		{blank, ErrEmpty, "no text (it holds only spaces and blank lines)"},
		{empty, ErrEmpty, "no text (the file is empty)"},
		{markup, ErrEmpty, "it holds only markup, no text"},
		{docx, ErrUnsupported, "Word documents (.docx) are not supported; save it as PDF or plain text"},
		// Rounded, both sizes read 8.0 KB: the exact counts are given.
		{justOver, ErrTooLarge, "8,206 bytes; the limit is 8,192 bytes (8.0 KB); split it into smaller files"},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.path), func(t *testing.T) {
			_, err := File(t.Context(), c.path, 8<<10)
			var fe *FileError
			if !errors.Is(err, c.want) || !errors.As(err, &fe) || fe.Path != c.path {
				t.Fatalf("err = %v, want a FileError for %s wrapping %v", err, c.path, c.want)
			}
			if !strings.Contains(err.Error(), c.detail) || !strings.HasPrefix(err.Error(), c.path+": ") {
				t.Fatalf("message %q lacks %q", err, c.detail)
			}
		})
	}
}

func TestBytesDecoding(t *testing.T) {
	cases := []struct {
		name, data, want string
	}{
		{"crlf.txt", "a\r\nb\rc\n", "a\nb\nc\n"},
		{"bom.txt", "\xef\xbb\xbfhello", "hello"},
		{"latin1.txt", "caf\xe9 cr\xe8me", "café crème"},
		{"short.json", `{"a": 1}`, `{"a": 1}`},
		{"utf16le.txt", "\xff\xfeZ\x00\xfc\x00r\x00i\x00c\x00h\x00\r\x00\n\x00<\xd8\x89\xdf", "Zürich\n🎉"},
		{"utf16be.txt", "\xfe\xff\x00Z\x00\xfc\x00r\x00i\x00c\x00h", "Zürich"},
		{"utf32le.txt", "\xff\xfe\x00\x00n\x00\x00\x00\xef\x00\x00\x00", "nï"},
		{"utf32be.txt", "\x00\x00\xfe\xff\x00\x00\x00n\x00\x00\x00\xef", "nï"},
	}
	for _, c := range cases {
		doc, err := Bytes(c.name, []byte(c.data))
		if err != nil || doc.Text != c.want {
			t.Errorf("Bytes(%q) = %q, %v; want %q", c.name, doc.Text, err, c.want)
		}
	}
	// UTF-16 whose characters include NUL is binary, as NUL is in UTF-8.
	if _, err := Bytes("nul16.txt", []byte("\xff\xfea\x00\x00\x00b\x00")); !errors.Is(err, ErrBinary) {
		t.Errorf("UTF-16 with a NUL: %v, want ErrBinary", err)
	}
}

func TestSizeOver(t *testing.T) {
	cases := []struct {
		size, limit int64
		want        string
	}{
		{10485774, 10 << 20, "10,485,774 bytes; the limit is 10,485,760 bytes (10.0 MB)"},
		{12 << 20, 10 << 20, "12.0 MB; the limit is 10.0 MB"},
		{1001, 1000, "1001 bytes; the limit is 1000 bytes"},
	}
	for _, c := range cases {
		if got := SizeOver(c.size, c.limit); got != c.want {
			t.Errorf("SizeOver(%d, %d) = %q, want %q", c.size, c.limit, got, c.want)
		}
	}
}

func TestFromText(t *testing.T) {
	doc, err := FromText(Markdown, "", "intro\n# Heading One\nbody")
	if err != nil || doc.Title != "Heading One" || doc.Format != Markdown {
		t.Fatalf("FromText md = %+v, %v", doc, err)
	}
	doc, err = FromText(HTML, "Mine", "<p>Hello <b>there</b></p><script>x()</script>")
	if err != nil || doc.Title != "Mine" || doc.Text != "Hello there\n" {
		t.Fatalf("FromText html = %+v, %v", doc, err)
	}
	if _, err := FromText("pdf", "", "x"); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "txt, md, html") {
		t.Fatalf("bad format: %v", err)
	}
}

func TestFormatOf(t *testing.T) {
	for name, want := range map[string]Format{
		"a.MD": Markdown, "b.htm": HTML, "c.ndjson": JSON, "d.tsv": CSV, "e.py": Code, "Makefile": Code,
		"f.yaml": Code, "g.log": Text, "noext": Text,
	} {
		if got := FormatOf(name); got != want {
			t.Errorf("FormatOf(%q) = %s, want %s", name, got, want)
		}
	}
	if !Skippable("x.PNG") || Skippable("x.txt") {
		t.Error("Skippable")
	}
}

func ExampleFile() {
	doc, err := File(context.Background(), "../testdata/corpus/page.html", 10<<20)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(doc.Format, doc.Title)
	fmt.Print(strings.SplitAfter(doc.Text, "\n")[0])
	_, err = File(context.Background(), "../testdata/corpus/photo.png", 10<<20)
	fmt.Println(errors.Is(err, ErrBinary))
	// Output:
	// html Sourdough Basics
	// # Sourdough Basics
	// true
}
