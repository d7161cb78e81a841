package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const pdfDir = "../testdata/pdf"

// TestPDFProducers reads PDFs made by four real producers (see
// testdata/pdf/make.sh), each laying text out its own way, and checks the
// whole extracted text.
func TestPDFProducers(t *testing.T) {
	cases := []struct {
		file, title, text string
	}{
		// LibreOffice Writer: a line per text object, kerning in TJ, two
		// pages, CJK drawn without a CJK font and carried as ActualText.
		{"report.pdf", "Harbor Operations Report", `Harbor Operations Report
Version 2.4 adds resumable uploads for large container images. The office staff
found the new workflow efficient.

Upgrading
Stop the registry, back up the database, then run the migration tool.

If the migration reports "checksum mismatch", restore the backup and retry.

Café owners in Zürich reported naïve façade errors.

東京タワーは東京都港区にある電波塔です。

Second page: the garbage collector reclaims unreferenced blobs every night at
02:00.
`},
		// Ghostscript from groff: justified lines, spaces made by character
		// and word spacing instead of space glyphs, an "fi" ligature.
		{"justified.pdf", "justified.pdf", `Harbor Release Notes

Version 2.4 adds resumable uploads for large container images. Stop the
registry, back up the database, then run the migration tool. If the migration
reports "checksum mismatch", restore the backup and retry. This para-
graph is long enough to be justified across several lines so that word spac-
ing is stretched by the formatter.
`},
		// The same file with an owner password only (printing and copying
		// "restricted"): it opens without a password, so its text is read.
		{"owner-locked.pdf", "owner-locked.pdf", `Harbor Release Notes

Version 2.4 adds resumable uploads for large container images. Stop the
registry, back up the database, then run the migration tool. If the migration
reports "checksum mismatch", restore the backup and retry. This para-
graph is long enough to be justified across several lines so that word spac-
ing is stretched by the formatter.
`},
		// cairo (librsvg): the second line is moved to with Td, no new text object.
		{"cairo.pdf", "cairo.pdf", "Cairo text: the quick brown fox\n\njumps over the lazy dog\n"},
		// Chromium (Skia): subset CID fonts, Identity-H, accents.
		{"chromium.pdf", "Harbor Release Notes", `Harbor Release Notes
Version 2.4 adds resumable uploads for large container images.

Upgrading
Stop the registry, back up the database, then run the migration tool.

If the migration reports "checksum mismatch", restore the backup and retry.

Café owners in Zürich reported naïve façade errors.
`},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			doc, err := File(t.Context(), filepath.Join(pdfDir, c.file), 10<<20)
			if err != nil {
				t.Fatal(err)
			}
			if doc.Format != PDF || doc.Title != c.title {
				t.Errorf("format, title = %s, %q; want pdf, %q", doc.Format, doc.Title, c.title)
			}
			if doc.Text != c.text {
				t.Errorf("text:\n%s\nwant:\n%s", doc.Text, c.text)
			}
		})
	}
}

// pdfObjects builds a PDF file from its objects (1-based, object 1 the
// catalog), computing the cross-reference table.
func pdfObjects(header string, objs ...string) []byte {
	var b bytes.Buffer
	b.WriteString(header + "\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

func stream(content string) string {
	return fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content)
}

// onePage is a PDF whose single page draws content with font F1 (a
// Helvetica with WinAnsi encoding unless font is given) and form X1.
func onePage(header, content, font, form string) []byte {
	if font == "" {
		font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
	}
	if form == "" {
		form = stream("")
	}
	return pdfObjects(header,
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> /XObject << /X1 6 0 R >> >> /Contents 4 0 R >>",
		stream(content), font, form)
}

func TestPDFLayouts(t *testing.T) {
	form := "<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Matrix [1 0 0 1 0 -100] /Length 44 >>\nstream\nBT /F1 12 Tf 72 600 Td (in a form) Tj ET\nendstream"
	cases := []struct {
		name    string
		data    []byte
		want    string
		wantErr error
	}{
		{"words placed apart get spaces", onePage("%PDF-1.4", "BT /F1 12 Tf 72 700 Td (two) Tj 30 0 Td (words) Tj ET", "", ""), "two words\n", nil},
		{"kerning inside a word does not", onePage("%PDF-1.4", "BT /F1 12 Tf 72 700 Td [(ke) -20 (rned) -300 (apart)] TJ ET", "", ""), "kerned apart\n", nil},
		{"lines from the text matrix", onePage("%PDF-1.4", "BT /F1 12 Tf 14 TL 72 700 Td (first line) Tj T* (second line) Tj 1 0 0 1 72 672 Tm (third) ' ET", "", ""), "first line\nsecond line\n\nthird\n", nil},
		{"rotated text stays one line", onePage("%PDF-1.4", "BT /F1 12 Tf 0 1 -1 0 100 100 Tm (going) Tj ( up) Tj ET", "", ""), "going up\n", nil},
		{"text of a form XObject", onePage("%PDF-1.4", "BT /F1 12 Tf 72 700 Td (on the page) Tj ET /X1 Do", "", form), "on the page\n\nin a form\n", nil},
		{"PDF 2.0 header", onePage("%PDF-2.0", "BT /F1 12 Tf 72 700 Td (version two) Tj ET", "", ""), "version two\n", nil},
		{"ligatures spelled out", onePage("%PDF-1.4", "BT /F1 12 Tf 72 700 Td (\\223nd it) Tj ET",
			"<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding << /Differences [147 /fi] >> >>", ""), "find it\n", nil},
		{"only drawings: no text layer", onePage("%PDF-1.4", "0 0 m 100 100 l S", "", ""), "", ErrEmpty},
		{"glyphs without a text encoding", onePage("%PDF-1.4", "BT /F1 12 Tf 72 700 Td <00010002> Tj ET",
			"<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /DescendantFonts [<< /Type /Font /Subtype /CIDFontType2 /BaseFont /X >>] >>", ""), "", ErrUnreadable},
		{"a page tree that loops", pdfObjects("%PDF-1.4",
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>",
			"<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
			stream("BT /F1 12 Tf 72 700 Td (read once) Tj ET"),
			"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"), "read once\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, err := Bytes("test.pdf", c.data)
			if c.wantErr != nil {
				var fe *FileError
				if !errors.Is(err, c.wantErr) || !errors.As(err, &fe) {
					t.Fatalf("err = %v (text %q), want %v", err, doc.Text, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if doc.Text != c.want {
				t.Fatalf("text %q, want %q", doc.Text, c.want)
			}
		})
	}
}

func TestPDFErrors(t *testing.T) {
	report, err := os.ReadFile(filepath.Join(pdfDir, "report.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name   string
		path   string
		setup  func(t *testing.T)
		want   error
		detail string
	}{
		{"encrypted", filepath.Join(pdfDir, "encrypted.pdf"), nil, ErrEncrypted, "needs a password to open; save an unprotected copy (e.g. qpdf --decrypt in.pdf out.pdf)"},
		{"not a PDF", write("notes.pdf", []byte("just some text\n")), nil, ErrUnreadable, "not a PDF file: invalid header; the file may be damaged or cut short; convert it to text first, e.g. with pdftotext"},
		{"cut short", write("half.pdf", report[:len(report)/2]), nil, ErrUnreadable, "the file may be damaged or cut short"},
		// The reader's own message names the end marker once, not as "%%EOF".
		{"no end marker", write("noeof.pdf", append([]byte("%PDF-1.4\n"), make([]byte, 300)...)), nil, ErrUnreadable, "missing %EOF; the file"},
		{"too slow", filepath.Join(pdfDir, "report.pdf"), func(t *testing.T) { setVar(t, &PDFTimeout, -time.Second) }, ErrUnreadable, "reading it took over -1s"},
		{"too much text", filepath.Join(pdfDir, "report.pdf"), func(t *testing.T) { setVar(t, &MaxPDFText, 100) }, ErrTooLarge, "its text is over 100 bytes; split the PDF"},
		{"no text layer", write("scan.pdf", onePage("%PDF-1.4", "0 0 m 100 100 l S", "", "")), nil, ErrEmpty, "run OCR on it first"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.setup != nil {
				c.setup(t)
			}
			_, err := File(t.Context(), c.path, 10<<20)
			var fe *FileError
			if !errors.Is(err, c.want) || !errors.As(err, &fe) || fe.Path != c.path {
				t.Fatalf("err = %v, want a FileError for %s wrapping %v", err, c.path, c.want)
			}
			if !strings.Contains(err.Error(), c.detail) {
				t.Fatalf("message %q lacks %q", err, c.detail)
			}
		})
	}
}

func setVar[T any](t *testing.T, v *T, val T) {
	t.Helper()
	old := *v
	*v = val
	t.Cleanup(func() { *v = old })
}

// TestPDFDamagedNeverPanics feeds damaged copies of the test PDFs (cut at
// many places, bytes overwritten) to the extractor: each gives text or a
// FileError with a PDF sentinel, never a panic or a hang.
func TestPDFDamagedNeverPanics(t *testing.T) {
	setVar(t, &PDFTimeout, 5*time.Second)
	rng := rand.New(rand.NewPCG(7, 11))
	files, _ := filepath.Glob(filepath.Join(pdfDir, "*.pdf"))
	if len(files) < 5 {
		t.Fatalf("test PDFs missing: %v", files)
	}
	var read, failed int
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var variants [][]byte
		for i := 1; i < 20; i++ {
			variants = append(variants, data[:len(data)*i/20])
		}
		for range 60 {
			d := bytes.Clone(data)
			for range 1 + rng.IntN(8) {
				pos, n := rng.IntN(len(d)), 1+rng.IntN(64)
				for j := pos; j < min(len(d), pos+n); j++ {
					d[j] = byte(rng.IntN(256))
				}
			}
			variants = append(variants, d)
		}
		for i, d := range variants {
			doc, err := Bytes(filepath.Base(f), d)
			if err == nil {
				if doc.Format != PDF || strings.TrimSpace(doc.Text) == "" {
					t.Fatalf("%s variant %d: %+v", f, i, doc)
				}
				read++
				continue
			}
			var fe *FileError
			if !errors.As(err, &fe) || !(errors.Is(err, ErrUnreadable) || errors.Is(err, ErrEncrypted) || errors.Is(err, ErrEmpty)) {
				t.Fatalf("%s variant %d: %v", f, i, err)
			}
			failed++
		}
	}
	// Both outcomes happen: damage in a text stream still reads, damage in
	// the cross-reference table does not.
	if read == 0 || failed == 0 {
		t.Fatalf("%d read, %d failed", read, failed)
	}
}

func ExampleFile_pdf() {
	doc, err := File(context.Background(), "../testdata/pdf/report.pdf", 10<<20)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(doc.Format, doc.Title)
	fmt.Println(strings.Split(doc.Text, "\n")[11]) // line 12
	_, err = File(context.Background(), "../testdata/pdf/encrypted.pdf", 10<<20)
	fmt.Println(errors.Is(err, ErrEncrypted))
	// Output:
	// pdf Harbor Operations Report
	// 東京タワーは東京都港区にある電波塔です。
	// true
}
