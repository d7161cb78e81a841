package contentstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/switchboard-app/switchboard/builtin/contentstore/chunk"
	"github.com/switchboard-app/switchboard/builtin/contentstore/extract"
)

// maxListed bounds the contents and skipped files an AddResult lists.
const maxListed = 100

// Input is what to add: Text (with an optional Title and Format) or Path, a
// file or a folder (added recursively, streamed in batches).
type Input struct {
	Text   string
	Title  string
	Format extract.Format // of Text; "" is plain text
	Path   string
	// Metadata is attached to every chunk; search can filter on it.
	Metadata map[string]string
	// Progress, if set, receives this ingest's progress (as well as
	// Options.OnProgress): once at the start (Files 0), after each
	// committed batch but the last, once before the last commit with every
	// file processed, then once with Done set. It must not block.
	Progress func(Progress)
}

// Progress is the state of one ingest.
type Progress struct {
	StoreID string `json:"storeId"`
	Files   int    `json:"files"`   // files (or texts) processed: added or skipped
	Total   int    `json:"total"`   // files to process
	Added   int    `json:"added"`   // documents committed
	Chunks  int    `json:"chunks"`  // chunks committed
	Bytes   int64  `json:"bytes"`   // text committed
	Current string `json:"current"` // the last file processed
	Done    bool   `json:"done"`
}

// Content describes one stored document.
type Content struct {
	ID       string            `json:"contentId"`
	StoreID  string            `json:"storeId"`
	Title    string            `json:"title"`
	Path     string            `json:"path,omitempty"`
	Format   string            `json:"format"`
	Lines    int               `json:"lines"`
	Bytes    int               `json:"bytes"`
	Chunks   int               `json:"chunks"`
	Metadata map[string]string `json:"metadata,omitempty"`
	Added    time.Time         `json:"added"`
}

// Skipped is a file of a folder that was not added.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// AddResult is what an ingest committed. Every content it lists (and every
// one it counts) is searchable and survives a crash.
type AddResult struct {
	StoreID      string    `json:"storeId"`
	Added        int       `json:"added"`
	Chunks       int       `json:"chunks"`
	Contents     []Content `json:"contents"`          // the first 100
	Skipped      []Skipped `json:"skipped,omitempty"` // the first 100
	SkippedCount int       `json:"skippedCount,omitempty"`
}

// Add adds text or files to a store. Adding the same path (or the same
// title and text) again replaces the earlier version. Add returns once
// everything it reports is committed to disk. A single file that cannot be
// read is an error; in a folder, such files are skipped and listed. If ctx
// ends during a folder, what was committed so far is returned with the error.
// A folder none of whose files can be added is ErrNothingAdded.
func (s *Stores) Add(ctx context.Context, storeID string, in Input) (AddResult, error) {
	hasText, hasPath := in.Text != "", strings.TrimSpace(in.Path) != ""
	switch {
	case hasText && hasPath:
		return AddResult{}, invalid("pass either text or path, not both")
	case !hasText && !hasPath:
		return AddResult{}, invalid("pass the text to add, or the path of a file or folder")
	}
	for k := range in.Metadata {
		if k == "" || strings.ContainsAny(k, ".") {
			return AddResult{}, invalid("metadata key %q: keys must be non-empty and without dots", k)
		}
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	st, err := s.acquire(storeID)
	if err != nil {
		return AddResult{}, err
	}
	defer st.release()
	st.write.Lock()
	defer st.write.Unlock()

	ing := &ingest{s: s, st: st, in: in, res: AddResult{StoreID: storeID, Contents: []Content{}}, batch: st.idx.NewBatch()}
	ing.progress.StoreID = storeID
	if hasText {
		doc, err := extract.FromText(in.Format, in.Title, in.Text)
		if err != nil {
			return AddResult{}, fmt.Errorf("%w: %w", ErrInvalid, err)
		}
		if doc.Title == "" {
			doc.Title = firstLine(doc.Text)
		}
		ing.start(1)
		if err := ing.stage(ctx, contentID(storeID, "text:"+in.Title+"\x00"+in.Text), doc, ""); err != nil {
			return AddResult{}, err
		}
		return ing.finish(ctx)
	}
	path, err := filepath.Abs(strings.TrimSpace(in.Path))
	if err != nil {
		return AddResult{}, invalid("path %q: %v", in.Path, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		_, err = extract.File(path, s.opts.MaxFileBytes) // the same clear error as for a file
		return AddResult{}, err
	}
	if !fi.IsDir() {
		doc, err := extract.File(path, s.opts.MaxFileBytes)
		if err != nil {
			return AddResult{}, err
		}
		ing.start(1)
		if err := ing.stage(ctx, contentID(storeID, "path:"+path), doc, path); err != nil {
			return AddResult{}, err
		}
		return ing.finish(ctx)
	}
	ing.start(countFiles(ctx, path))
	err = walkFiles(ctx, path, func(p string, werr error) error {
		if werr != nil {
			ing.skip(p, werr)
			return nil
		}
		doc, err := extract.File(p, s.opts.MaxFileBytes)
		if err != nil {
			ing.skip(p, err)
			return ing.flushIfFull(ctx)
		}
		if err := ing.stage(ctx, contentID(storeID, "path:"+p), doc, p); err != nil {
			return err
		}
		return ing.flushIfFull(ctx)
	})
	if err != nil {
		if ferr := ing.flush(ctx); ferr != nil {
			return ing.res, errors.Join(err, ferr)
		}
		return ing.res, fmt.Errorf("stopped after %d of %d files (those %d are searchable): %w", ing.progress.Files, ing.progress.Total, ing.res.Added, err)
	}
	res, err := ing.finish(ctx)
	if err == nil && res.Added == 0 {
		return res, nothingAdded(path, res)
	}
	return res, err
}

// nothingAdded explains a folder none of whose files could be added.
func nothingAdded(dir string, res AddResult) error {
	if res.SkippedCount == 0 {
		return fmt.Errorf("%w: the folder %s holds no files (hidden files and folders, and folders such as node_modules, are passed over); pick a folder of documents", ErrNothingAdded, dir)
	}
	var reasons []string
	for _, sk := range res.Skipped[:min(3, len(res.Skipped))] {
		reasons = append(reasons, filepath.Base(sk.Path)+": "+sk.Reason)
	}
	more := ""
	if res.SkippedCount > len(reasons) {
		more = fmt.Sprintf("; and %d more", res.SkippedCount-len(reasons))
	}
	return fmt.Errorf("%w: none of the %d files in %s can be added (%s%s); add text, Markdown, HTML, JSON, CSV, source code or PDF files",
		ErrNothingAdded, res.SkippedCount, dir, strings.Join(reasons, "; "), more)
}

// ingest accumulates one Add's batches.
type ingest struct {
	s        *Stores
	st       *store
	in       Input
	res      AddResult
	progress Progress

	batch   *bleve.Batch
	pending []Content // staged, not yet committed
	bytes   int
	files   int // processed, not yet reported
}

func (ing *ingest) skip(path string, err error) {
	ing.files++
	ing.res.SkippedCount++
	if len(ing.res.Skipped) < maxListed {
		reason := err.Error()
		var fe *extract.FileError
		if errors.As(err, &fe) {
			reason = strings.TrimPrefix(fe.Error(), fe.Path+": ")
		}
		ing.res.Skipped = append(ing.res.Skipped, Skipped{Path: path, Reason: reason})
	}
	ing.progress.Current = path
}

// stage puts a document and its chunks in the batch, replacing an earlier
// version with the same id.
func (ing *ingest) stage(ctx context.Context, id string, doc extract.Doc, path string) error {
	st := ing.st
	old, err := st.content(ctx, id)
	if err != nil && !errors.Is(err, ErrUnknownContent) {
		return err
	}
	chunks := chunk.Split(doc.Text, styleOf(doc.Format), chunk.Options{Size: ing.s.opts.ChunkSize, Overlap: ing.s.opts.ChunkOverlap})
	meta, _ := json.Marshal(ing.in.Metadata)
	c := Content{
		ID: id, StoreID: st.info.ID, Title: doc.Title, Path: path, Format: string(doc.Format),
		Lines: len(chunk.Lines(doc.Text)), Bytes: len(doc.Text), Chunks: len(chunks),
		Metadata: ing.in.Metadata, Added: time.Now().UTC().Truncate(time.Second),
	}
	b := ing.batch
	if err := b.Index(id, contentDoc{
		Kind: kindContent, ContentID: id, Body: doc.Text, Title: c.Title, Path: path, Format: c.Format,
		Lines: c.Lines, Bytes: c.Bytes, Chunks: c.Chunks, Metadata: string(meta), Added: c.Added.Format(time.RFC3339),
	}); err != nil {
		return fmt.Errorf("index %s: %w", id, err)
	}
	for _, ch := range chunks {
		d := chunkDoc{
			Kind: kindChunk, ContentID: id, Text: ch.Text, Section: ch.Section, FromLine: ch.FromLine, ToLine: ch.ToLine,
			Title: c.Title, Path: path, Format: c.Format, Meta: ing.in.Metadata,
		}
		if hasCJK(ch.Text) {
			d.CJK = ch.Text
		}
		if err := b.Index(chunkID(id, ch.Index), d); err != nil {
			return fmt.Errorf("index %s: %w", id, err)
		}
	}
	for i := len(chunks); old != nil && i < old.Chunks; i++ {
		b.Delete(chunkID(id, i))
	}
	ing.pending = append(ing.pending, c)
	ing.bytes += len(doc.Text)
	ing.files++
	ing.progress.Current = path
	return nil
}

func (ing *ingest) flushIfFull(ctx context.Context) error {
	if ing.bytes >= ing.s.opts.BatchBytes || ing.batch.Size() >= 2000 {
		return ing.flush(ctx)
	}
	return nil
}

// start reports that the ingest of total files begins, so a caller sees
// progress even when everything goes in one batch.
func (ing *ingest) start(total int) {
	ing.progress.Total = total
	ing.report()
}

// flush commits the batch and reports progress.
func (ing *ingest) flush(ctx context.Context) error {
	reported := len(ing.pending) > 0 || ing.files > 0
	if err := ing.commit(); err != nil {
		return err
	}
	if reported {
		ing.report()
	}
	return nil
}

// commit commits the batch (bleve returns once it is persisted) and counts
// what it held.
func (ing *ingest) commit() error {
	if ing.batch.Size() > 0 {
		if err := ing.st.idx.Batch(ing.batch); err != nil {
			return fmt.Errorf("store %q: commit: %w", ing.st.info.ID, err)
		}
		// A new batch, not Reset: bleve's analysis goroutine may still be
		// finishing its range over the old batch's map when Batch returns.
		ing.batch = ing.st.idx.NewBatch()
	}
	for _, c := range ing.pending {
		ing.res.Added++
		ing.res.Chunks += c.Chunks
		ing.progress.Bytes += int64(c.Bytes)
		if len(ing.res.Contents) < maxListed {
			ing.res.Contents = append(ing.res.Contents, c)
		}
	}
	ing.progress.Added, ing.progress.Chunks = ing.res.Added, ing.res.Chunks
	ing.progress.Files += ing.files
	ing.progress.Total = max(ing.progress.Total, ing.progress.Files)
	ing.pending, ing.bytes, ing.files = ing.pending[:0], 0, 0
	return nil
}

// finish commits the last batch and reports twice: before the commit, with
// every file processed (Added still counting the committed ones), and
// after it, with Done set. A caller relaying progress to a client drops the
// last report, which adds no file: its first one then goes out while the
// commit runs, well ahead of the result, which a report sent just before
// the result may not be (see awaitNotifications).
func (ing *ingest) finish(context.Context) (AddResult, error) {
	if ing.files > 0 {
		p := ing.progress
		p.Files += ing.files
		p.Total = max(p.Total, p.Files)
		ing.reportAs(p)
	}
	if err := ing.commit(); err != nil {
		return ing.res, err
	}
	ing.progress.Done = true
	ing.report()
	return ing.res, nil
}

func (ing *ingest) report() { ing.reportAs(ing.progress) }

func (ing *ingest) reportAs(p Progress) {
	if ing.in.Progress != nil {
		ing.in.Progress(p)
	}
	if ing.s.opts.OnProgress != nil {
		ing.s.opts.OnProgress(p)
	}
}

// content reads a content record (nil, ErrUnknownContent if there is none).
func (st *store) content(ctx context.Context, id string) (*contentRecord, error) {
	req := bleve.NewSearchRequestOptions(query.NewDocIDQuery([]string{id}), 1, 0, false)
	req.Fields = contentFields
	res, err := st.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("store %q: %w", st.info.ID, err)
	}
	if len(res.Hits) == 0 || str(res.Hits[0].Fields["body"]) == "" && num(res.Hits[0].Fields["lines"]) == 0 {
		return nil, unknownContent(id)
	}
	f := res.Hits[0].Fields
	r := &contentRecord{Content: Content{
		ID: id, StoreID: st.info.ID, Title: str(f["title"]), Path: str(f["path"]), Format: str(f["format"]),
		Lines: num(f["lines"]), Bytes: num(f["bytes"]), Chunks: num(f["chunks"]),
	}, Body: str(f["body"])}
	if m := str(f["metadata"]); m != "" && m != "null" {
		_ = json.Unmarshal([]byte(m), &r.Metadata)
	}
	r.Added, _ = time.Parse(time.RFC3339, str(f["added"]))
	return r, nil
}

type contentRecord struct {
	Content
	Body string
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func num(v any) int {
	f, _ := v.(float64)
	return int(f)
}

// contentID is a store-qualified id: <storeId>:<16 hex digits of the key's hash>.
func contentID(storeID, key string) string {
	sum := sha256.Sum256([]byte(key))
	return storeID + ":" + hex.EncodeToString(sum[:8])
}

func chunkID(contentID string, i int) string { return fmt.Sprintf("%s#%d", contentID, i) }

// storeOf returns the store id part of a content id.
func storeOf(contentID string) (string, bool) {
	id, rest, ok := strings.Cut(contentID, ":")
	return id, ok && validID(id) && len(rest) == 16
}

func styleOf(f extract.Format) chunk.Style {
	switch f {
	case extract.Markdown, extract.HTML:
		return chunk.Markdown
	case extract.CSV:
		return chunk.Table
	case extract.Code:
		return chunk.Code
	}
	return chunk.Plain
}

func firstLine(s string) string {
	for l := range strings.SplitSeq(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if len([]rune(l)) > 80 {
				l = string([]rune(l)[:80]) + "…"
			}
			return l
		}
	}
	return ""
}

// skipDirs are folders a folder ingest never enters (besides hidden ones).
var skipDirs = map[string]bool{"node_modules": true, "__pycache__": true, "venv": true}

// walkFiles calls fn for every file under root that a folder ingest
// considers, in lexical order, without reading the tree into memory.
// Hidden files and folders, skipDirs and known binary types are passed over.
func walkFiles(ctx context.Context, root string, fn func(path string, err error) error) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if err != nil {
			if p == root {
				return err
			}
			if d != nil && d.IsDir() {
				_ = fn(p, err)
				return fs.SkipDir
			}
			return fn(p, err)
		}
		name := d.Name()
		if p != root && strings.HasPrefix(name, ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p != root && skipDirs[name] {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
				return nil // a link to a folder or a device: not followed
			}
		}
		if extract.Skippable(name) {
			return fn(p, &extract.FileError{Path: p, Err: extract.ErrBinary, Detail: "skipped by its extension"})
		}
		return fn(p, nil)
	})
}

// countFiles counts what walkFiles would visit (names only).
func countFiles(ctx context.Context, root string) int {
	n := 0
	_ = walkFiles(ctx, root, func(string, error) error { n++; return nil })
	return n
}
