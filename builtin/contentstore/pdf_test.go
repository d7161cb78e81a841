package contentstore

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestIngestPDFFolder adds the folder of test PDFs: the readable ones are
// searchable at exact lines, the encrypted one is skipped with a reason
// that says what to do.
func TestIngestPDFFolder(t *testing.T) {
	s := openStores(t, Options{Root: t.TempDir()})
	ctx := t.Context()
	info, err := s.Create(ctx, "Papers", "", "")
	if err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.Abs("testdata/pdf")
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Add(ctx, info.ID, Input{Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	var added []string
	for _, c := range res.Contents {
		added = append(added, filepath.Base(c.Path)+" "+c.Format+" "+c.Title)
	}
	want := []string{"cairo.pdf pdf cairo.pdf", "chromium.pdf pdf Harbor Release Notes", "justified.pdf pdf justified.pdf",
		"owner-locked.pdf pdf owner-locked.pdf", "report.pdf pdf Harbor Operations Report"}
	if !slices.Equal(added, want) {
		t.Fatalf("added:\n%s\nwant:\n%s", strings.Join(added, "\n"), strings.Join(want, "\n"))
	}
	if res.SkippedCount != 1 || filepath.Base(res.Skipped[0].Path) != "encrypted.pdf" ||
		!strings.HasPrefix(res.Skipped[0].Reason, "encrypted PDF (it needs a password to open; save an unprotected copy") {
		t.Fatalf("skipped = %+v", res.Skipped)
	}

	cases := []struct {
		query    string
		filters  map[string]string
		files    []string // of the hits, sorted (two files have the same text, so the same score)
		line     int      // first match line of the top hit
		snippet  string   // in the top hit's snippet
		lineText string   // the top hit's first match line, read back
	}{
		{`"garbage collector"`, nil, []string{"report.pdf"}, 14,
			"Second page: the <mark>garbage</mark> <mark>collector</mark> reclaims", "Second page: the garbage collector reclaims unreferenced blobs every night at"},
		{`東京`, nil, []string{"report.pdf"}, 12,
			"<mark>東京</mark>タワーは<mark>東京</mark>都港区", "東京タワーは東京都港区にある電波塔です。"},
		// The "fi" ligature of the Ghostscript file is found as plain letters.
		{`justified`, map[string]string{"format": "pdf"}, []string{"justified.pdf", "owner-locked.pdf"}, 6,
			"graph is long enough to be <mark>justified</mark> across", "graph is long enough to be justified across several lines so that word spac-"},
		{`"quick brown fox"`, nil, []string{"cairo.pdf"}, 1, "Cairo text: the <mark>quick</mark> <mark>brown</mark> <mark>fox</mark>", "Cairo text: the quick brown fox"},
		{`Zürich façade`, nil, []string{"chromium.pdf", "report.pdf"}, 9,
			"Café owners in <mark>Zürich</mark> reported naïve <mark>façade</mark> errors.", "Café owners in Zürich reported naïve façade errors."},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			r, err := s.Search(ctx, Query{StoreID: info.ID, Text: c.query, Filters: c.filters})
			if err != nil {
				t.Fatal(err)
			}
			var files []string
			for _, h := range r.Hits {
				files = append(files, filepath.Base(h.Path))
			}
			slices.Sort(files)
			if !slices.Equal(files, c.files) {
				t.Fatalf("hits %v, want %v", files, c.files)
			}
			h := r.Hits[0]
			if len(h.MatchLines) == 0 || h.MatchLines[0] != c.line || !strings.Contains(h.Snippet, c.snippet) {
				t.Fatalf("top hit lines %v snippet %q; want line %d with %q", h.MatchLines, h.Snippet, c.line, c.snippet)
			}
			ex, err := s.Read(ctx, h.ContentID, c.line, c.line)
			if err != nil || ex.Text != c.lineText {
				t.Fatalf("read line %d = %q, %v; want %q", c.line, ex.Text, err, c.lineText)
			}
		})
	}
}
