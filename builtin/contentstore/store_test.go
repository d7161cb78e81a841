package contentstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/switchboard-app/switchboard/builtin/contentstore/extract"
)

// testOptions keep files and chunks small so the corpus exercises limits
// and multi-chunk documents.
func testOptions(root string) Options {
	return Options{Root: root, MaxFileBytes: 8 << 10, ChunkSize: 400, ChunkOverlap: 80}
}

func openStores(t *testing.T, opts Options) *Stores {
	t.Helper()
	s, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func corpusDir(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs("testdata/corpus")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// ingestCorpus creates a store and adds testdata/corpus to it.
func ingestCorpus(t *testing.T, s *Stores) (Info, AddResult) {
	t.Helper()
	info, err := s.Create(t.Context(), "Corpus", "mixed test files", "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Add(t.Context(), info.ID, Input{Path: corpusDir(t), Metadata: map[string]string{"project": "harbor"}})
	if err != nil {
		t.Fatal(err)
	}
	return info, res
}

func TestIngestCorpus(t *testing.T) {
	s := openStores(t, testOptions(t.TempDir()))
	var progress []Progress
	var mu sync.Mutex
	s.opts.OnProgress = func(p Progress) { mu.Lock(); progress = append(progress, p); mu.Unlock() }
	info, res := ingestCorpus(t, s)
	if info.ID != "corpus" || info.Analyzer != "en" {
		t.Fatalf("info = %+v", info)
	}
	var got []string
	for _, c := range res.Contents {
		got = append(got, fmt.Sprintf("%s %s %d/%d", filepath.Base(c.Path), c.Format, c.Lines, c.Chunks))
	}
	want := []string{"data.json json 244/13", "guide.md md 37/5", "japanese.txt txt 3/1", "notes.txt txt 9/1",
		"page.html html 14/3", "people.csv csv 5/1", "ratelimit.go code 22/2"}
	if !slices.Equal(got, want) || res.Added != 7 || res.Chunks != 26 {
		t.Fatalf("added %d (%d chunks):\n%s\nwant\n%s", res.Added, res.Chunks, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The hidden file is passed over silently; binary and oversize files are reported.
	if res.SkippedCount != 2 || filepath.Base(res.Skipped[0].Path) != "big.log" || !strings.Contains(res.Skipped[0].Reason, "over the size limit (12.6 KB; the limit is 8.0 KB; split it into smaller files and add those)") ||
		filepath.Base(res.Skipped[1].Path) != "photo.png" || !strings.Contains(res.Skipped[1].Reason, "binary") {
		t.Fatalf("skipped = %+v", res.Skipped)
	}
	if n := len(progress); n == 0 || !progress[n-1].Done || progress[n-1].Files != 9 || progress[n-1].Total != 9 || progress[n-1].Added != 7 {
		t.Fatalf("progress = %+v", progress)
	}

	cases := []struct {
		query      string
		file       string // of the top hit
		section    string
		from, to   int
		matchLines []int
		snippet    string // in the top hit's snippet
		line       string // text of the first match line, read back
		total      uint64
	}{
		{`permission denied`, "guide.md", "Harbor Guide > Troubleshooting", 28, 37, []int{30},
			`If a push fails with "<mark>permission</mark> <mark>denied</mark>", check`, `If a push fails with "permission denied", check that the token has`, 1},
		{`"permission denied"`, "guide.md", "Harbor Guide > Troubleshooting", 28, 37, []int{30},
			`"<mark>permission</mark> <mark>denied</mark>"`, `If a push fails with "permission denied", check that the token has`, 1},
		{`install linux`, "guide.md", "Harbor Guide > Installation > Linux", 6, 13, []int{6, 8},
			"## <mark>Installation</mark>\n\n### <mark>Linux</mark>\n\nDownload", "## Installation", 3},
		{`starter`, "page.html", "Sourdough Basics > Feeding the starter", 5, 11, []int{5},
			"## Feeding the <mark>starter</mark>\n\nFeed it equal weights", "## Feeding the starter", 2},
		{`flux capacitor`, "data.json", "", 101, 123, []int{108},
			`"name": "<mark>flux</mark> <mark>capacitor</mark>",`, `      "name": "flux capacitor",`, 1},
		{`東京`, "japanese.txt", "", 1, 3, []int{1},
			"<mark>東京</mark>タワーは<mark>東京</mark>都港区", "東京タワーは東京都港区にある電波塔です。", 1},
		{`北京`, "japanese.txt", "", 1, 3, []int{3},
			"<mark>北京</mark>是中华人民共和国的首都。", "北京是中华人民共和国的首都。", 1},
		{`Hopper`, "people.csv", "name,team,city", 1, 5, []int{3},
			"Grace <mark>Hopper</mark>,compilers,Arlington", "Grace Hopper,compilers,Arlington", 1},
		{`"token bucket"`, "ratelimit.go", "package ratelimit", 1, 18, []int{5},
			"<mark>token</mark> <mark>bucket</mark>: it refills", "// Bucket is a token bucket: it refills at Rate tokens per second up to Burst.", 1},
		{`latency regression`, "notes.txt", "", 1, 9, []int{6},
			"The dashboard <mark>latency</mark> <mark>regression</mark> was traced", "The dashboard latency regression was traced to an unindexed column in", 1},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			res, err := s.Search(t.Context(), Query{StoreID: info.ID, Text: c.query})
			if err != nil {
				t.Fatal(err)
			}
			if res.Total != c.total || len(res.Hits) == 0 {
				t.Fatalf("total %d, want %d: %+v", res.Total, c.total, res.Hits)
			}
			h := res.Hits[0]
			if filepath.Base(h.Path) != c.file || h.Section != c.section || h.FromLine != c.from || h.ToLine != c.to || !slices.Equal(h.MatchLines, c.matchLines) {
				t.Fatalf("top hit %s %q lines %d-%d match %v; want %s %q %d-%d %v", filepath.Base(h.Path), h.Section, h.FromLine, h.ToLine, h.MatchLines, c.file, c.section, c.from, c.to, c.matchLines)
			}
			if !strings.Contains(h.Snippet, c.snippet) {
				t.Fatalf("snippet %q lacks %q", h.Snippet, c.snippet)
			}
			if h.Score <= 0 || h.StoreID != info.ID || !strings.HasPrefix(h.ContentID, info.ID+":") {
				t.Fatalf("hit = %+v", h)
			}
			for i := 1; i < len(res.Hits); i++ {
				if res.Hits[i].Score > res.Hits[i-1].Score {
					t.Fatalf("hits not ranked: %+v", res.Hits)
				}
			}
			ex, err := s.Read(t.Context(), h.ContentID, h.MatchLines[0], h.MatchLines[0])
			if err != nil || ex.Text != c.line {
				t.Fatalf("read line %d = %q, %v; want %q", h.MatchLines[0], ex.Text, err, c.line)
			}
			ex, err = s.Read(t.Context(), h.ContentID, h.FromLine, h.ToLine)
			if err != nil || !strings.Contains(ex.Text, c.line) || strings.Count(ex.Text, "\n") != h.ToLine-h.FromLine {
				t.Fatalf("read hit lines = %+v, %v", ex, err)
			}
		})
	}
	t.Run("script text is not indexed", func(t *testing.T) {
		res, err := s.Search(t.Context(), Query{Text: "trackingpixel"})
		if err != nil || res.Total != 0 {
			t.Fatalf("res = %+v, %v", res, err)
		}
	})
}

func TestSearchFiltersAndStores(t *testing.T) {
	s := openStores(t, testOptions(t.TempDir()))
	info, res := ingestCorpus(t, s)
	ctx := t.Context()
	cjk, err := s.Create(ctx, "日本語メモ", "", "cjk")
	if err != nil || cjk.ID != "store" || cjk.Analyzer != "cjk" {
		t.Fatalf("create cjk = %+v, %v", cjk, err)
	}
	added, err := s.Add(ctx, cjk.ID, Input{Text: "東京の天気は晴れです。\nharbor install notes", Metadata: map[string]string{"lang": "ja"}})
	if err != nil || added.Contents[0].Title != "東京の天気は晴れです。" {
		t.Fatalf("add text = %+v, %v", added, err)
	}
	// A heading sharing one character with a CJK query is no hit: CJK is
	// matched as bigrams, never character by character.
	if _, err := s.Add(ctx, info.ID, Input{Text: "# 京都の寺\n\n寺の話です。\n", Format: extract.Markdown}); err != nil {
		t.Fatal(err)
	}
	guide := res.Contents[1].ID
	cases := []struct {
		name  string
		q     Query
		files []string // titles of the hits, in order
	}{
		{"all stores", Query{Text: "東京"}, []string{"東京の天気は晴れです。", "japanese.txt"}},
		{"one store", Query{Text: "東京", StoreID: cjk.ID}, []string{"東京の天気は晴れです。"}},
		{"format", Query{Text: "harbor", Filters: map[string]string{"format": "md"}}, []string{"Harbor Guide", "Harbor Guide", "Harbor Guide", "Harbor Guide", "Harbor Guide"}},
		{"content id", Query{Text: "install", Filters: map[string]string{"contentId": guide}}, []string{"Harbor Guide", "Harbor Guide", "Harbor Guide"}},
		{"metadata", Query{Text: "harbor install", Filters: map[string]string{"lang": "ja"}}, []string{"東京の天気は晴れです。"}},
		{"path prefix", Query{Text: "install", Filters: map[string]string{"path": corpusDir(t) + "/guide"}}, []string{"Harbor Guide", "Harbor Guide", "Harbor Guide"}},
		{"metadata mismatch", Query{Text: "harbor", Filters: map[string]string{"project": "other"}}, nil},
		{"limit", Query{Text: "harbor", Limit: 2}, []string{"Harbor Guide", "Harbor Guide"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := s.Search(ctx, c.q)
			if err != nil {
				t.Fatal(err)
			}
			var titles []string
			for _, h := range res.Hits {
				titles = append(titles, h.Title)
			}
			if !slices.Equal(titles, c.files) {
				t.Fatalf("hits %q, want %q", titles, c.files)
			}
			for _, h := range res.Hits {
				if !strings.Contains(h.Snippet, MarkStart) || len(h.MatchLines) == 0 {
					t.Fatalf("hit without highlight: %+v", h)
				}
			}
		})
	}
	list, err := s.List(ctx)
	if err != nil || len(list) != 2 || list[0].ID != info.ID || list[0].Documents != 8 || list[0].Chunks != 27 || list[0].Bytes == 0 ||
		list[1].ID != cjk.ID || list[1].Documents != 1 || list[1].Error != "" {
		t.Fatalf("list = %+v, %v", list, err)
	}
}

func TestReplaceDeleteAndReopen(t *testing.T) {
	root := t.TempDir()
	s := openStores(t, testOptions(root))
	ctx := t.Context()
	info, err := s.Create(ctx, "Notes", "", "")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "doc.md")
	long := "# Doc\n" + strings.Repeat("alpha words fill this line of the first version\n", 30)
	os.WriteFile(file, []byte(long), 0o600)
	first, err := s.Add(ctx, info.ID, Input{Path: file})
	if err != nil || first.Contents[0].Chunks < 3 {
		t.Fatalf("first = %+v, %v", first, err)
	}
	os.WriteFile(file, []byte("# Doc\nbeta is the second version\n"), 0o600)
	second, err := s.Add(ctx, info.ID, Input{Path: file})
	if err != nil || second.Contents[0].ID != first.Contents[0].ID || second.Contents[0].Chunks != 1 {
		t.Fatalf("second = %+v, %v", second, err)
	}
	id := second.Contents[0].ID
	if r, _ := s.Search(ctx, Query{Text: "alpha"}); r.Total != 0 {
		t.Fatalf("old version still found: %+v", r.Hits)
	}
	if r, _ := s.Search(ctx, Query{Text: "beta"}); r.Total != 1 {
		t.Fatalf("new version not found: %+v", r)
	}
	// Everything survives a close and reopen.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Search(ctx, Query{Text: "beta"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("search after close: %v", err)
	}
	s = openStores(t, testOptions(root))
	if ex, err := s.Read(ctx, id, 2, 0); err != nil || ex.Text != "beta is the second version" || ex.TotalLines != 2 || ex.More {
		t.Fatalf("read after reopen = %+v, %v", ex, err)
	}
	if _, err := s.DeleteContent(ctx, id); err != nil {
		t.Fatal(err)
	}
	if r, _ := s.Search(ctx, Query{Text: "beta"}); r.Total != 0 {
		t.Fatalf("deleted content found: %+v", r)
	}
	if _, err := s.Read(ctx, id, 1, 1); !errors.Is(err, ErrUnknownContent) {
		t.Fatalf("read deleted: %v", err)
	}
	if err := s.DeleteStore(ctx, info.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, info.ID)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("store dir left: %v", err)
	}
	if list, _ := s.List(ctx); len(list) != 0 {
		t.Fatalf("list after delete = %+v", list)
	}
	// The name is free again.
	if _, err := s.Create(ctx, "Notes", "", ""); err != nil {
		t.Fatal(err)
	}
}

func TestBadInput(t *testing.T) {
	s := openStores(t, testOptions(t.TempDir()))
	ctx := t.Context()
	info, err := s.Create(ctx, "Bad", "", "")
	if err != nil {
		t.Fatal(err)
	}
	dir := corpusDir(t)
	cases := []struct {
		name string
		run  func() error
		want error
		msg  string
	}{
		{"unknown store", func() error { _, err := s.Add(ctx, "nope", Input{Text: "x"}); return err }, ErrUnknownStore, `no such store "nope"; call listStores`},
		{"unknown store search", func() error { _, err := s.Search(ctx, Query{StoreID: "nope", Text: "x"}); return err }, ErrUnknownStore, "listStores"},
		{"bad store id", func() error { _, err := s.Search(ctx, Query{StoreID: "../x", Text: "x"}); return err }, ErrUnknownStore, "listStores"},
		{"empty query", func() error { _, err := s.Search(ctx, Query{Text: "  "}); return err }, ErrEmptyQuery, "the query is empty"},
		{"quotes only", func() error { _, err := s.Search(ctx, Query{Text: `""`}); return err }, ErrEmptyQuery, "the query is empty"},
		{"binary file", func() error {
			_, err := s.Add(ctx, info.ID, Input{Path: filepath.Join(dir, "photo.png")})
			return err
		}, extract.ErrBinary, "photo.png: binary file"},
		{"oversize file", func() error {
			_, err := s.Add(ctx, info.ID, Input{Path: filepath.Join(dir, "big.log")})
			return err
		}, extract.ErrTooLarge, "the limit is 8.0 KB"},
		{"missing path", func() error {
			_, err := s.Add(ctx, info.ID, Input{Path: filepath.Join(dir, "missing.txt")})
			return err
		}, fs.ErrNotExist, "missing.txt: file does not exist"},
		{"empty folder", func() error { _, err := s.Add(ctx, info.ID, Input{Path: t.TempDir()}); return err }, ErrNothingAdded, "holds no files (hidden files and folders"},
		{"folder of files that cannot be added", func() error {
			d := t.TempDir()
			os.WriteFile(filepath.Join(d, "a.png"), []byte("\x89PNG\x00"), 0o600)
			os.WriteFile(filepath.Join(d, "b.txt"), []byte("text\x00with a NUL"), 0o600)
			_, err := s.Add(ctx, info.ID, Input{Path: d})
			return err
		}, ErrNothingAdded, "none of the 2 files in "},
		{"neither text nor path", func() error { _, err := s.Add(ctx, info.ID, Input{}); return err }, ErrInvalid, "pass the text to add"},
		{"both text and path", func() error { _, err := s.Add(ctx, info.ID, Input{Text: "a", Path: dir}); return err }, ErrInvalid, "not several"},
		{"blank text", func() error { _, err := s.Add(ctx, info.ID, Input{Text: " \n "}); return err }, extract.ErrEmpty, "invalid input: no text: the text is blank"},
		{"bad format", func() error { _, err := s.Add(ctx, info.ID, Input{Text: "a", Format: "pdf"}); return err }, extract.ErrUnsupported, "use one of txt"},
		{"dotted metadata key", func() error {
			_, err := s.Add(ctx, info.ID, Input{Text: "a", Metadata: map[string]string{"a.b": "c"}})
			return err
		}, ErrInvalid, "without dots"},
		{"unknown content", func() error { _, err := s.Read(ctx, "bad:0000000000000000", 1, 1); return err }, ErrUnknownContent, "no such content"},
		{"malformed content id", func() error { _, err := s.Read(ctx, "whatever", 1, 1); return err }, ErrUnknownContent, "no such content"},
		{"duplicate name", func() error { _, err := s.Create(ctx, "bad", "", ""); return err }, ErrStoreExists, `"bad" (id bad)`},
		{"empty name", func() error { _, err := s.Create(ctx, " ", "", ""); return err }, ErrInvalid, "needs a name"},
		{"bad analyzer", func() error { _, err := s.Create(ctx, "x", "", "klingon"); return err }, ErrInvalid, `unknown analyzer "klingon"`},
		{"negative limit", func() error { _, err := s.Search(ctx, Query{Text: "x", Limit: -1}); return err }, ErrInvalid, "limit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.run()
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("err = %v; want %v with %q", err, c.want, c.msg)
			}
		})
	}
	added, err := s.Add(ctx, info.ID, Input{Text: "one\ntwo\nthree"})
	if err != nil {
		t.Fatal(err)
	}
	id := added.Contents[0].ID
	reads := []struct {
		from, to int
		msg      string
	}{
		{4, 0, "fromLine 4 is past the end: \"one\" has 3 lines"},
		{3, 2, "toLine 2 is before fromLine 3"},
		{-1, 2, "line numbers start at 1"},
	}
	for _, r := range reads {
		if _, err := s.Read(ctx, id, r.from, r.to); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), r.msg) {
			t.Errorf("Read(%d, %d) = %v, want %q", r.from, r.to, err, r.msg)
		}
	}
	if ex, err := s.Read(ctx, id, 2, 99); err != nil || ex.Text != "two\nthree" || ex.ToLine != 3 {
		t.Errorf("clamped read = %+v, %v", ex, err)
	}
}

// TestSearchDuringIngest runs searches while another goroutine commits
// batches (run with -race).
func TestSearchDuringIngest(t *testing.T) {
	s := openStores(t, testOptions(t.TempDir()))
	ctx := t.Context()
	info, err := s.Create(ctx, "Busy", "", "")
	if err != nil {
		t.Fatal(err)
	}
	const docs = 30
	done := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	wg.Go(func() {
		defer close(done)
		for i := range docs {
			text := fmt.Sprintf("document %d about shared searching words\n%s", i, strings.Repeat(fmt.Sprintf("filler%d ", i), 50))
			if _, err := s.Add(ctx, info.ID, Input{Text: text}); err != nil {
				errs <- err
				return
			}
		}
	})
	for range 4 {
		wg.Go(func() {
			last := uint64(0)
			for {
				select {
				case <-done:
					return
				default:
				}
				res, err := s.Search(ctx, Query{Text: "shared searching", Limit: 5})
				if err != nil {
					errs <- err
					return
				}
				if res.Total < last {
					errs <- fmt.Errorf("hits went down from %d to %d", last, res.Total)
					return
				}
				last = res.Total
				if _, err := s.List(ctx); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	res, err := s.Search(ctx, Query{Text: "shared searching"})
	if err != nil || res.Total != docs {
		t.Fatalf("after ingest: %d hits, %v", res.Total, err)
	}
}

func TestCancelledFolderIngestKeepsCommittedBatches(t *testing.T) {
	opts := testOptions(t.TempDir())
	opts.BatchBytes = 1 // commit after every file
	s := openStores(t, opts)
	info, err := s.Create(t.Context(), "Cancel", "", "")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for i := range 10 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.txt", i)), []byte(fmt.Sprintf("file number %d", i)), 0o600)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	res, err := s.Add(ctx, info.ID, Input{Path: dir, Progress: func(p Progress) {
		if p.Added == 3 {
			cancel()
		}
	}})
	if err == nil || !strings.Contains(err.Error(), "stopped after 3 of 10 files (those 3 are searchable)") || res.Added != 3 {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
	if r, _ := s.Search(t.Context(), Query{Text: "file number"}); r.Total != 3 {
		t.Fatalf("%d searchable, want 3", r.Total)
	}
}

func TestCloseStopsRunningIngest(t *testing.T) {
	opts := testOptions(t.TempDir())
	opts.BatchBytes = 1 // commit after every file
	s := openStores(t, opts)
	info, err := s.Create(t.Context(), "Closing", "", "")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for i := range 50 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.txt", i)), []byte(fmt.Sprintf("file number %d", i)), 0o600)
	}
	closed := make(chan error, 1)
	res, err := s.Add(t.Context(), info.ID, Input{Path: dir, Progress: func(p Progress) {
		if p.Added == 2 {
			go func() { closed <- s.Close() }()
			<-s.done.Done() // Close has begun: it now waits for this ingest
		}
	}})
	if !errors.Is(err, context.Canceled) || res.Added != 2 {
		t.Fatalf("add during close = %d added, %v", res.Added, err)
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
}

func TestSearchOperators(t *testing.T) {
	s := openStores(t, testOptions(t.TempDir()))
	info, _ := ingestCorpus(t, s)
	cases := []struct {
		query   string
		total   uint64
		has     []string // words every hit's text has (stemmed forms match)
		hasNot  string   // a word no hit's text has
		snippet string   // in the top hit's snippet
	}{
		{"install linux", 3, nil, "", "## <mark>Installation</mark>\n\n### <mark>Linux</mark>"},
		{"+install +linux", 1, []string{"install", "linux"}, "", "## <mark>Installation</mark>\n\n### <mark>Linux</mark>"},
		{"+install linux", 3, []string{"install"}, "", "### <mark>Linux</mark>"},
		{"harbor -install", 2, []string{"harbor"}, "install", "<mark>Harbor</mark>"},
		{`+token "token bucket" -harbor`, 1, []string{"token bucket"}, "harbor", "<mark>token</mark> <mark>bucket</mark>"},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			res, err := s.Search(t.Context(), Query{StoreID: info.ID, Text: c.query})
			if err != nil {
				t.Fatal(err)
			}
			if res.Total != c.total || len(res.Hits) == 0 || !strings.Contains(res.Hits[0].Snippet, c.snippet) {
				t.Fatalf("total %d, hits %+v; want %d with top snippet %q", res.Total, res.Hits, c.total, c.snippet)
			}
			for _, h := range res.Hits {
				ex, err := s.Read(t.Context(), h.ContentID, h.FromLine, h.ToLine)
				if err != nil {
					t.Fatal(err)
				}
				text := strings.ToLower(ex.Text)
				for _, w := range c.has {
					if !strings.Contains(text, w) {
						t.Errorf("hit %s lines %d-%d lacks %q", h.Title, h.FromLine, h.ToLine, w)
					}
				}
				if c.hasNot != "" && strings.Contains(text, c.hasNot) {
					t.Errorf("hit %s lines %d-%d has %q", h.Title, h.FromLine, h.ToLine, c.hasNot)
				}
			}
		})
	}
	if _, err := s.Search(t.Context(), Query{Text: "-harbor -linux"}); !errors.Is(err, ErrEmptyQuery) || !strings.Contains(err.Error(), "-word only leaves words out") {
		t.Fatalf("negative-only query: %v", err)
	}
}
