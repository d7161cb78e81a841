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

// Input is what to add: Text (with an optional Title and Format), the
// bytes of a file (Data, with its Name), or Path, a file or a folder (added
// recursively, streamed in batches).
type Input struct {
	Text   string
	Title  string
	Format extract.Format // of Text; "" is plain text
	// Data are the bytes of a file named Name (a name, not a path), read
	// as the file would be (format from the name and the bytes, text in
	// any encoding File reads). Adding the same Name again replaces the
	// document: the window sends files this way, and a file added again
	// after an edit is one document, not two. A Name with no Data is an
	// empty file.
	Data []byte
	Name string
	// Path is a file or folder; a leading ~ is the home folder.
	Path string
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
	ID      string `json:"contentId"`
	StoreID string `json:"storeId"`
	Title   string `json:"title"`
	Path    string `json:"path,omitempty"`
	// File is the name of a file whose bytes were added (Input.Data); such
	// a document has no Path (in stores made before schema 2, not kept).
	File     string            `json:"file,omitempty"`
	Format   string            `json:"format"`
	Lines    int               `json:"lines"`
	Bytes    int               `json:"bytes"`
	Chunks   int               `json:"chunks"`
	Metadata map[string]string `json:"metadata,omitempty"`
	Added    time.Time         `json:"added"`
	// Replaced is set (by an add) when the document replaced an earlier
	// version with the same id: the same path, file name, or title and text.
	Replaced bool `json:"replaced,omitempty"`
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

// Add adds text, a file's bytes or files to a store. Adding the same path
// (or file name, or title and text) again replaces the earlier version.
// Add returns once everything it reports is committed to disk. A single
// file that cannot be read is an error; in a folder, such files are
// skipped and listed. If ctx ends during a folder (or the store is
// deleted, or the Stores close), what was committed so far is returned
// with the error. A folder none of whose files can be added is
// ErrNothingAdded. Text and files over Options.MaxFileBytes are refused.
func (s *Stores) Add(ctx context.Context, storeID string, in Input) (AddResult, error) {
	path, err := s.checkInput(&in)
	if err != nil {
		return AddResult{}, err
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	st, err := s.acquire(storeID)
	if err != nil {
		return AddResult{}, err
	}
	defer st.release()
	ctx, cancelStore := st.boundTo(ctx)
	defer cancelStore()
	if err := st.lockWrite(ctx); err != nil {
		return AddResult{}, err
	}
	defer st.unlockWrite()

	ing := &ingest{s: s, st: st, in: in, res: AddResult{StoreID: storeID, Contents: []Content{}}, batch: st.idx.NewBatch()}
	ing.progress.StoreID = storeID
	switch {
	case in.Text != "":
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
	case in.Name != "":
		doc, err := extract.Bytes(in.Name, in.Data)
		if err != nil {
			return AddResult{}, err
		}
		if doc.Format != extract.PDF {
			doc.Title = in.Name // the file the user picked goes by its name, as it did when the window sent its text; a PDF by its own title
		}
		ing.start(1)
		ing.begin(in.Name, false)
		ing.file = in.Name
		return ing.one(ctx, contentID(storeID, "file:"+in.Name), doc, "")
	}
	return ing.addPath(ctx, path)
}

// checkInput validates in and returns the absolute path to add ("" for
// text and bytes), with in.Name reduced to a file name.
func (s *Stores) checkInput(in *Input) (string, error) {
	n := 0
	for _, set := range []bool{in.Text != "", in.Name != "" || in.Data != nil, strings.TrimSpace(in.Path) != ""} {
		if set {
			n++
		}
	}
	switch {
	case n > 1:
		return "", invalid("pass one of text, a file's bytes (data with fileName) or path, not several")
	case n == 0:
		return "", invalid("pass the text to add, a file's bytes (data with fileName), or the path of a file or folder")
	}
	for k := range in.Metadata {
		if k == "" || strings.ContainsAny(k, ".") {
			return "", invalid("metadata key %q: keys must be non-empty and without dots", k)
		}
	}
	limit := s.opts.MaxFileBytes
	switch {
	case int64(len(in.Text)) > limit:
		return "", fmt.Errorf("%w: %w: the text is %s; split it into parts and add each as its own text (or save it to a file under the limit)",
			ErrInvalid, extract.ErrTooLarge, extract.SizeOver(int64(len(in.Text)), limit))
	case in.Name != "" || in.Data != nil:
		name := filepath.Base(filepath.Clean("/" + filepath.ToSlash(in.Name)))
		if name == "/" || name == "." || name == "" {
			return "", invalid("fileName must name the file whose bytes are sent, e.g. \"notes.md\"")
		}
		in.Name = name
		if int64(len(in.Data)) > limit {
			return "", &extract.FileError{Path: name, Err: extract.ErrTooLarge, Detail: extract.SizeOver(int64(len(in.Data)), limit) +
				"; split it into smaller files and add those"}
		}
		return "", nil
	case in.Text != "":
		return "", nil
	}
	path, err := filepath.Abs(expandHome(strings.TrimSpace(in.Path)))
	if err != nil {
		return "", invalid("path %q: %v", in.Path, err)
	}
	if place := credentialPlace(path, true); place != "" {
		return "", errCredentials(path, place)
	}
	return path, nil
}

// addPath adds a file, or a folder's files in batches.
func (ing *ingest) addPath(ctx context.Context, path string) (AddResult, error) {
	s, storeID := ing.s, ing.st.info.ID
	fi, err := os.Stat(path)
	if err != nil {
		_, err = extract.File(ctx, path, s.opts.MaxFileBytes) // the same clear error as for a file
		return AddResult{}, err
	}
	if !fi.IsDir() {
		doc, err := extract.File(ctx, path, s.opts.MaxFileBytes)
		if err != nil {
			return AddResult{}, err
		}
		ing.start(1)
		ing.begin(path, false)
		return ing.one(ctx, contentID(storeID, "path:"+path), doc, path)
	}
	if name := extract.PseudoFS(path); name != "" {
		return AddResult{}, &extract.FileError{Path: path, Err: extract.ErrPseudoFile, Detail: extract.PseudoDetail(name)}
	}
	ing.start(countFiles(ctx, path))
	ing.begin(path, true)
	err = walkFiles(ctx, path, func(p string, werr error) error {
		if werr != nil {
			ing.skip(p, werr)
			return ing.flushIfFull(ctx)
		}
		doc, err := extract.File(ctx, p, s.opts.MaxFileBytes)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			ing.skip(p, err)
			return ing.flushIfFull(ctx)
		}
		if err := ing.stage(ctx, contentID(storeID, "path:"+p), doc, p); err != nil {
			return err
		}
		return ing.flushIfFull(ctx)
	})
	if err != nil {
		ferr := ing.flush(ctx)
		ing.end(false)
		if ferr != nil {
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

// one stages and commits a single document, ending the ingest's journal.
func (ing *ingest) one(ctx context.Context, id string, doc extract.Doc, path string) (AddResult, error) {
	if err := ing.stage(ctx, id, doc, path); err != nil {
		ing.end(false)
		return AddResult{}, err
	}
	return ing.finish(ctx)
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

	file    string   // the name of a file whose bytes are added
	journal *journal // of an add of files (nil for text)
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
		ID: id, StoreID: st.info.ID, Title: doc.Title, Path: path, File: ing.file, Format: string(doc.Format),
		Lines: len(chunk.Lines(doc.Text)), Bytes: len(doc.Text), Chunks: len(chunks),
		Metadata: ing.in.Metadata, Added: ing.s.now().UTC().Truncate(time.Second), Replaced: old != nil,
	}
	b := ing.batch
	if err := b.Index(id, contentDoc{
		Kind: kindContent, ContentID: id, Body: doc.Text, Title: c.Title, Path: path, File: c.File, Format: c.Format,
		Lines: c.Lines, Bytes: c.Bytes, Chunks: c.Chunks, Metadata: string(meta), Added: c.Added.Format(time.RFC3339),
		SortAdded: c.Added.Format(time.RFC3339), SortTitle: sortTitle(c.Title),
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

// flush commits the batch, brings the journal up to date and reports
// progress.
func (ing *ingest) flush(ctx context.Context) error {
	reported := len(ing.pending) > 0 || ing.files > 0
	if err := ing.commit(); err != nil {
		return err
	}
	if reported {
		ing.saveJournal()
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
		ing.end(false)
		return ing.res, err
	}
	ing.end(true)
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
		ID: id, StoreID: st.info.ID, Title: str(f["title"]), Path: str(f["path"]), File: str(f["file"]), Format: str(f["format"]),
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

// skipped is why a folder walk passes over an entry it lists.
type skipped string

func (r skipped) Error() string { return string(r) }

// walkFiles calls fn for every file under root that a folder ingest
// considers, in lexical order, without reading the tree into memory.
// Hidden files and folders and skipDirs are passed over silently. Known
// binary and office formats, special files (pipes, sockets, devices),
// links whose target is missing, links to folders (not followed: they can
// loop), places of credentials and mount points of other filesystems (a
// walk stays on the filesystem it starts on, so "/" does not walk into
// /proc, /sys or a network drive) are given to fn with the reason.
func walkFiles(ctx context.Context, root string, fn func(path string, err error) error) error {
	var rootDev uint64
	haveDev := false
	if fi, err := os.Stat(root); err == nil {
		rootDev, haveDev = deviceOf(fi)
	}
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
		if p == root {
			return nil
		}
		if strings.HasPrefix(name, ".") || d.IsDir() && skipDirs[name] {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if place := credentialPlace(p, d.Type()&fs.ModeSymlink != 0); place != "" {
			err := fn(p, skipped(fmt.Sprintf("in %s, where keys, tokens and passwords are kept: not added", place)))
			if d.IsDir() {
				return fs.SkipDir
			}
			return err
		}
		if d.IsDir() {
			if fi, err := d.Info(); err == nil && haveDev {
				if dev, ok := deviceOf(fi); ok && dev != rootDev {
					_ = fn(p, skipped(mountSkip(p)))
					return fs.SkipDir
				}
			}
			return nil
		}
		if !d.Type().IsRegular() {
			if reason := special(p, d); reason != "" {
				return fn(p, skipped(reason))
			}
		}
		if err := extract.Refused(p); err != nil {
			return fn(p, err)
		}
		return fn(p, nil)
	})
}

// special says why a walk does not add p, an entry that is not a regular
// file, or "" for a link to a regular file (added as the file).
func special(p string, d fs.DirEntry) string {
	fi, err := os.Stat(p)
	switch {
	case err != nil && d.Type()&fs.ModeSymlink != 0:
		return "a link whose target is missing"
	case err != nil:
		return err.Error()
	case fi.IsDir():
		return "a link to a folder: links to folders are not followed (they can loop); add that folder by its own path"
	case fi.Mode().IsRegular():
		return ""
	case fi.Mode()&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO), not a file: not read"
	case fi.Mode()&fs.ModeSocket != 0:
		return "a socket, not a file: not read"
	case fi.Mode()&fs.ModeDevice != 0:
		return "a device, not a file: not read"
	}
	return "a special file, not a regular file: not read"
}

// countFiles counts what walkFiles would visit (names only).
func countFiles(ctx context.Context, root string) int {
	n := 0
	_ = walkFiles(ctx, root, func(string, error) error { n++; return nil })
	return n
}
