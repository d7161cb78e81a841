//go:build bench

// The content store's rows of the benchmark table of 'make bench': bleve
// (through the store's real ingest and search paths) against SQLite FTS5
// (modernc.org/sqlite) doing the same work on the same generated corpus,
// measured side by side in one run. Run:
//
//	go test -tags bench -run TestBenchTable -v ./builtin/contentstore/
package contentstore

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/switchboard-app/switchboard/builtin/contentstore/chunk"
	"github.com/switchboard-app/switchboard/builtin/contentstore/extract"
)

// Corpus size: at least this many documents and bytes.
const (
	benchDocs  = 10_000
	benchBytes = 50 << 20
	benchReps  = 25 // times each query runs on each engine
	benchLimit = 10 // hits per query on both sides
)

type benchRow struct{ name, ours, base, ratio, target string }

func TestBenchTable(t *testing.T) {
	ctx := t.Context()
	corpus := generateCorpus(t, filepath.Join(t.TempDir(), "corpus"), benchDocs, benchBytes)
	t.Logf("corpus: %d documents, %.1f MB, %d queries", corpus.docs, float64(corpus.bytes)/(1<<20), len(corpus.queries))

	// bleve through the store (walk, extract, chunk, batch, commit) and
	// SQLite FTS5 doing the same: the same walk, extraction and chunks, in
	// transactions of the same size, as durable (WAL, synchronous=FULL: a
	// commit is on disk when it returns). The corpus is ingested a tenth at
	// a time, alternating, so both see the same machine state.
	s, err := Open(Options{Root: filepath.Join(t.TempDir(), "stores")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	info, err := s.Create(ctx, "Bench", "", "")
	if err != nil {
		t.Fatal(err)
	}
	fts, err := openFTS(filepath.Join(t.TempDir(), "fts.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer fts.Close()
	groups, err := filepath.Glob(filepath.Join(corpus.dir, "g*"))
	if err != nil || len(groups) != 10 {
		t.Fatalf("corpus groups %v, %v", groups, err)
	}
	var oursIngest, baseIngest time.Duration
	var added AddResult
	var ftsDocs, ftsChunks int
	for _, g := range groups {
		t0 := time.Now()
		res, err := s.Add(ctx, info.ID, Input{Path: g})
		if err != nil {
			t.Fatal(err)
		}
		oursIngest += time.Since(t0)
		added.Added, added.Chunks, added.SkippedCount = added.Added+res.Added, added.Chunks+res.Chunks, added.SkippedCount+res.SkippedCount
		t0 = time.Now()
		docs, chunks, err := fts.ingest(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		baseIngest += time.Since(t0)
		ftsDocs, ftsChunks = ftsDocs+docs, ftsChunks+chunks
	}
	if added.Added != corpus.docs || added.SkippedCount != 0 {
		t.Fatalf("bleve added %d of %d documents (%d skipped)", added.Added, corpus.docs, added.SkippedCount)
	}
	if ftsDocs != added.Added || ftsChunks != added.Chunks {
		t.Fatalf("FTS5 ingested %d documents, %d chunks; bleve %d, %d: not the same work", ftsDocs, ftsChunks, added.Added, added.Chunks)
	}
	t.Logf("chunks: %d", added.Chunks)

	// Both find the same chunks for every query (same tokens: the words
	// are made so neither stemmer changes them), and both find some.
	for _, q := range corpus.queries {
		res, err := s.Search(ctx, Query{StoreID: info.ID, Text: q.ours, Limit: benchLimit})
		if err != nil {
			t.Fatal(err)
		}
		n, err := fts.count(ctx, q.base)
		if err != nil {
			t.Fatal(err)
		}
		hits, err := fts.search(ctx, q.base)
		if err != nil {
			t.Fatal(err)
		}
		if res.Total == 0 || res.Total != n || len(res.Hits) != len(hits) || !strings.Contains(res.Hits[0].Snippet, MarkStart) || !strings.Contains(hits[0].snippet, MarkStart) {
			t.Fatalf("%s query %q: bleve %d matches (%d hits), FTS5 %d (%d hits)", q.kind, q.ours, res.Total, len(res.Hits), n, len(hits))
		}
	}

	// Queries, interleaved so both see the same machine state.
	ours, base := map[string][]time.Duration{}, map[string][]time.Duration{}
	for range benchReps {
		for _, q := range corpus.queries {
			t0 := time.Now()
			if _, err := s.Search(ctx, Query{StoreID: info.ID, Text: q.ours, Limit: benchLimit}); err != nil {
				t.Fatal(err)
			}
			ours[q.kind] = append(ours[q.kind], time.Since(t0))
			t0 = time.Now()
			if _, err := fts.search(ctx, q.base); err != nil {
				t.Fatal(err)
			}
			base[q.kind] = append(base[q.kind], time.Since(t0))
		}
	}

	mb := float64(corpus.bytes) / (1 << 20)
	rows := []benchRow{
		{fmt.Sprintf("content store ingest MB/s (%d docs, %.0f MB): bleve vs SQLite FTS5", corpus.docs, mb),
			fmt.Sprintf("%.2f", mb/oursIngest.Seconds()), fmt.Sprintf("%.2f", mb/baseIngest.Seconds()),
			fmt.Sprintf("%.2f×", baseIngest.Seconds()/oursIngest.Seconds()), "≥ 0.5×"},
		{"content store ingest docs/s: bleve vs SQLite FTS5",
			fmt.Sprintf("%.0f", float64(corpus.docs)/oursIngest.Seconds()), fmt.Sprintf("%.0f", float64(corpus.docs)/baseIngest.Seconds()),
			fmt.Sprintf("%.2f×", baseIngest.Seconds()/oursIngest.Seconds()), "≥ 0.5×"},
	}
	for _, kind := range []string{"one word", "two words AND", "phrase"} {
		for _, p := range []struct {
			name   string
			q      float64
			target string
		}{{"p50", 0.5, "≤ 2×"}, {"p95", 0.95, "≤ 3×"}} {
			o, b := benchPct(ours[kind], p.q), benchPct(base[kind], p.q)
			rows = append(rows, benchRow{fmt.Sprintf("content store search %s %s (limit %d, snippets): bleve vs SQLite FTS5", kind, p.name, benchLimit),
				o.Round(time.Microsecond).String(), b.Round(time.Microsecond).String(), fmt.Sprintf("%.2f×", float64(o)/float64(b)), p.target})
		}
	}
	oursSize, baseSize := dirSize(filepath.Join(s.opts.Root, info.ID)), fts.size()
	rows = append(rows, benchRow{"content store index size on disk: bleve vs SQLite FTS5",
		extract.HumanBytes(oursSize), extract.HumanBytes(baseSize), fmt.Sprintf("%.2f×", float64(oursSize)/float64(baseSize)), ""})

	var b strings.Builder
	fmt.Fprintf(&b, "\n| measure | switchboard | baseline | ratio | target |\n|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.name, r.ours, r.base, r.ratio, r.target)
	}
	fmt.Fprintf(&b, "\nmachine: %s/%s, %d CPUs, %s; ingest ratios are throughput (higher is better), search ratios are latency (lower is better)\n",
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	fmt.Print(b.String())
	if out := os.Getenv("BENCH_OUT"); out != "" {
		f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(b.String()); err != nil {
			t.Fatal(err)
		}
	}
}

func benchPct(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

// benchQuery is one query in each engine's syntax.
type benchQuery struct {
	kind string // "one word", "two words AND", "phrase"
	ours string // the store's query syntax
	base string // FTS5 MATCH syntax
}

type benchCorpus struct {
	dir     string
	docs    int
	bytes   int64
	queries []benchQuery
}

// functionWords are the most frequent ranks of the vocabulary, as in
// English text (most are stop words for bleve's "en" analyzer, while FTS5
// indexes them: each engine does what it would do with real text).
var functionWords = strings.Fields(`the of and to a in is that for it as with was on be by this are or from at
which an but not have has had were been their its they we you he she will would can if so no all more one about
there when up out into than them these other some what only also then may such each most over after any new
first made many like just our very where through between both those same under while own well should could`)

// generateCorpus writes at least minDocs Markdown documents and minBytes
// to dir: titles, sections and
// paragraphs of sentences whose words follow a Zipf distribution over a
// vocabulary of function words and 40,000 made-up words. Made-up words end
// in a syllable that neither Porter stemmer (bleve's Snowball "en", FTS5's
// porter) changes, so both engines index the same terms. The same seed
// always gives the same corpus and queries.
func generateCorpus(t *testing.T, dir string, minDocs int, minBytes int64) benchCorpus {
	t.Helper()
	rng := rand.New(rand.NewPCG(2024, 7))
	vocab := slices.Clone(functionWords)
	seen := map[string]bool{}
	for _, w := range vocab {
		seen[w] = true
	}
	inner := strings.Fields("ka lo mi ne ru sa te vi do ga he ji ko lu ma no pe ri so tu va we ya zo bra cle dri flo gra pli sto tre")
	final := strings.Fields("bak dok gup lix mot nak pud rux tig vop zak kub deb fam hox jun lem nir pov sid taf wem yul zop")
	for len(vocab) < len(functionWords)+40_000 {
		var b strings.Builder
		for range rng.IntN(3) + 1 {
			b.WriteString(inner[rng.IntN(len(inner))])
		}
		b.WriteString(final[rng.IntN(len(final))])
		if w := b.String(); !seen[w] {
			seen[w] = true
			vocab = append(vocab, w)
		}
	}
	zipf := rand.NewZipf(rand.New(rand.NewPCG(1, 2)), 1.07, 2, uint64(len(vocab)-1))
	word := func() string { return vocab[zipf.Uint64()] }
	made := func(w string) bool { return !slices.Contains(functionWords, w) }

	c := benchCorpus{dir: dir}
	var phrases [][2]string
	for c.docs < minDocs || c.bytes < minBytes {
		// Ten groups (ingested in turn) of ten folders.
		sub := filepath.Join(dir, fmt.Sprintf("g%d", c.docs%10), fmt.Sprintf("d%d", c.docs/10%10))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		size := int(math.Exp(rng.NormFloat64()*0.55 + math.Log(4500)))
		size = min(max(size, 300), 64<<10)
		var doc strings.Builder
		sentence := func() []string {
			ws := make([]string, 6+rng.IntN(15))
			for i := range ws {
				ws[i] = word()
			}
			return ws
		}
		title := sentence()[:3+rng.IntN(3)]
		fmt.Fprintf(&doc, "# %s\n\n", strings.Join(title, " "))
		section := 0
		for doc.Len() < size {
			if doc.Len() >= section {
				fmt.Fprintf(&doc, "## %s\n\n", strings.Join(sentence()[:2+rng.IntN(3)], " "))
				section = doc.Len() + 800 + rng.IntN(1200)
			}
			// A paragraph, wrapped at 80 columns.
			line := 0
			for range 2 + rng.IntN(5) {
				ws := sentence()
				// One phrase from every 400th document.
				if c.docs%400 == 0 && len(phrases) < 8 && len(phrases) == c.docs/400 && made(ws[2]) && made(ws[3]) {
					phrases = append(phrases, [2]string{ws[2], ws[3]})
				}
				ws[0] = strings.ToUpper(ws[0][:1]) + ws[0][1:]
				ws[len(ws)-1] += "."
				for _, w := range ws {
					if line > 0 && line+1+len(w) > 80 {
						doc.WriteByte('\n')
						line = 0
					} else if line > 0 {
						doc.WriteByte(' ')
						line++
					}
					doc.WriteString(w)
					line += len(w)
				}
			}
			doc.WriteString("\n\n")
		}
		path := filepath.Join(sub, fmt.Sprintf("doc%05d.md", c.docs))
		if err := os.WriteFile(path, []byte(doc.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		c.docs++
		c.bytes += int64(doc.Len())
	}
	if len(phrases) < 8 {
		t.Fatalf("only %d phrases collected", len(phrases))
	}

	// Words from frequent to rare (made-up words only: not stop words).
	ranks := []int{0, 1, 5, 20, 80, 300, 1000, 3000}
	at := func(i int) string { return vocab[len(functionWords)+ranks[i]] }
	for i := range ranks {
		c.queries = append(c.queries, benchQuery{"one word", at(i), at(i)})
	}
	for i := range ranks {
		a, b := at(i), at((i+3)%len(ranks))
		c.queries = append(c.queries, benchQuery{"two words AND", "+" + a + " +" + b, fmt.Sprintf("text : %s AND text : %s", a, b)})
	}
	for _, p := range phrases {
		c.queries = append(c.queries, benchQuery{"phrase", fmt.Sprintf("%q", p[0]+" "+p[1]), fmt.Sprintf("text : %q", p[0]+" "+p[1])})
	}
	return c
}

// ftsIndex is the baseline: chunks in an FTS5 table (porter unicode61, as
// bleve's "en" analyzer stems and folds case), whole documents in a table
// beside it, as the store keeps them for readContent.
type ftsIndex struct {
	db   *sql.DB
	path string
}

func openFTS(path string) (*ftsIndex, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	for _, stmt := range []string{
		`CREATE TABLE content (id TEXT PRIMARY KEY, title TEXT, path TEXT, format TEXT, lines INTEGER, chunks INTEGER, body TEXT)`,
		`CREATE VIRTUAL TABLE chunks USING fts5(text, section, content_id UNINDEXED, from_line UNINDEXED, to_line UNINDEXED, tokenize = 'porter unicode61')`,
	} {
		if _, err := db.Exec(stmt); err != nil {
			db.Close()
			return nil, err
		}
	}
	return &ftsIndex{db: db, path: path}, nil
}

func (f *ftsIndex) Close() error { return f.db.Close() }

func (f *ftsIndex) size() int64 {
	var n int64
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if fi, err := os.Stat(f.path + suffix); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// ingest does what Stores.Add does for a folder: walk, extract, chunk,
// and commit a transaction per DefaultBatchBytes of text.
func (f *ftsIndex) ingest(ctx context.Context, root string) (docs, chunks int, err error) {
	tx, err := f.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, 0, err
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	batch := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		doc, err := extract.File(ctx, p, DefaultMaxFileBytes)
		if err != nil {
			return err
		}
		cs := chunk.Split(doc.Text, styleOf(doc.Format), chunk.Options{})
		id := contentID("bench", "path:"+p)
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO content VALUES (?, ?, ?, ?, ?, ?, ?)`,
			id, doc.Title, p, string(doc.Format), len(chunk.Lines(doc.Text)), len(cs), doc.Text); err != nil {
			return err
		}
		for _, c := range cs {
			if _, err := tx.ExecContext(ctx, `INSERT INTO chunks VALUES (?, ?, ?, ?, ?)`, c.Text, c.Section, id, c.FromLine, c.ToLine); err != nil {
				return err
			}
		}
		docs++
		chunks += len(cs)
		if batch += len(doc.Text); batch >= DefaultBatchBytes {
			if err := tx.Commit(); err != nil {
				return err
			}
			if tx, err = f.db.BeginTx(ctx, nil); err != nil {
				return err
			}
			batch = 0
		}
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	return docs, chunks, tx.Commit()
}

type ftsHit struct {
	contentID, title, path, section, snippet string
	from, to                                 int
	score                                    float64
}

// search is the FTS5 side of Stores.Search: the best benchLimit chunks by
// BM25 with a highlighted snippet, line range and the document's title.
func (f *ftsIndex) search(ctx context.Context, match string) ([]ftsHit, error) {
	rows, err := f.db.QueryContext(ctx, `SELECT h.content_id, c.title, c.path, h.section, h.snip, h.from_line, h.to_line, h.score
		FROM (SELECT content_id, section, from_line, to_line, rank AS score,
		             snippet(chunks, 0, '<mark>', '</mark>', '…', 48) AS snip
		      FROM chunks WHERE chunks MATCH ? ORDER BY rank LIMIT ?) h
		JOIN content c ON c.id = h.content_id ORDER BY h.score`, match, benchLimit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ftsHit
	for rows.Next() {
		var h ftsHit
		if err := rows.Scan(&h.contentID, &h.title, &h.path, &h.section, &h.snippet, &h.from, &h.to, &h.score); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

func (f *ftsIndex) count(ctx context.Context, match string) (uint64, error) {
	var n uint64
	err := f.db.QueryRowContext(ctx, `SELECT count(*) FROM chunks WHERE chunks MATCH ?`, match).Scan(&n)
	return n, err
}
