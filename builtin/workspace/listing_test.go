package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Lines are numbered and cut as before files were read whole: CRLF ends,
// a last line without a newline, empty lines; files too big, hard-linked
// or of another type are skipped; the files of a directory after one of
// its subdirectories are searched too, and the buffer kept between files
// never shows one file's text in another's matches.
func TestSearchContentOfEachFile(t *testing.T) {
	old := MaxSearchFile
	MaxSearchFile = 64
	t.Cleanup(func() { MaxSearchFile = old })
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"a.txt":      "x needle 1\r\n\r\nneedle 3\r\n",
		"b/c.txt":    "\n\nlast needle",
		"c.txt":      "needle\n",
		"d.txt":      "short\n",
		"e-big.txt":  strings.Repeat("needle\n", 10),
		"f-hard.txt": "needle\n",
	})
	if err := os.Link(filepath.Join(root, "f-hard.txt"), filepath.Join(root, "f-hard2.txt")); err != nil {
		t.Fatal(err)
	}
	w := open(t, Options{Root: root})
	res, err := w.Search(t.Context(), "", "", `needle( \d)?$|^short`)
	want := []Match{{"a.txt", 1, "x needle 1"}, {"a.txt", 3, "needle 3"}, {"b/c.txt", 3, "last needle"}, {"c.txt", 1, "needle"}, {"d.txt", 1, "short"}}
	if err != nil || !slices.Equal(res.Matches, want) || res.Skipped != 3 {
		t.Fatalf("search = %+v, %v; want matches %+v and 3 skipped", res, err, want)
	}
}

// BenchmarkSearchContent searches the content of many small files, as
// search_files does in a big project: per file it should cost an open and
// a read, not buffers to allocate and clear.
func BenchmarkSearchContent(b *testing.B) {
	root := b.TempDir()
	line := strings.Repeat("some ordinary source text ", 3) + "\n"
	for d := range 20 {
		dir := filepath.Join(root, fmt.Sprintf("dir%02d", d))
		if err := os.Mkdir(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 100 {
			content := strings.Repeat(line, 20)
			if f%50 == 0 {
				content += "needle here\n"
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.txt", f)), []byte(content), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	w, err := Open(Options{Root: root})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = w.Close(context.Background()) }) // b.Context is done by then
	b.ReportAllocs()
	for b.Loop() {
		res, err := w.Search(b.Context(), "", ".", "needle")
		if err != nil || len(res.Matches) != 40 {
			b.Fatalf("%d matches, %v", len(res.Matches), err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/2000, "ns/file")
}
