package contentstore

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/switchboard-app/switchboard/builtin/contentstore/extract"
)

// Page sizes of Contents.
const (
	DefaultPageSize = 100
	MaxPageSize     = 1000
)

// Page is one page of a store's documents, newest first.
type Page struct {
	Documents []Content `json:"documents"`
	// Total counts every document of the store.
	Total  int `json:"total"`
	Offset int `json:"offset"`
	// More is set when documents follow this page: list again from
	// NextOffset.
	More       bool `json:"more"`
	NextOffset int  `json:"nextOffset,omitempty"`
}

// contentListFields are the stored fields a listing reads (not the body).
var contentListFields = []string{"contentId", "title", "path", "file", "format", "lines", "bytes", "chunks", "metadata", "added"}

// Contents lists a page of a store's documents, newest first (documents
// added in the same second by title, numbers by value): title, source path
// (empty for text and for a file's bytes), size, chunks and when each was
// added. limit 0 is DefaultPageSize; at most MaxPageSize are listed.
//
// Stores of schema 2 are sorted by the index itself. Older ones keep no
// sort keys, so their documents are read (without their text) and sorted
// here: the same order, at a cost that grows with the store.
func (s *Stores) Contents(ctx context.Context, storeID string, offset, limit int) (Page, error) {
	switch {
	case offset < 0:
		return Page{}, invalid("offset must be 0 or more")
	case limit < 0:
		return Page{}, invalid("limit must be positive")
	case limit == 0:
		limit = DefaultPageSize
	}
	limit = min(limit, MaxPageSize)
	st, err := s.acquire(storeID)
	if err != nil {
		return Page{}, err
	}
	defer st.release()
	total, err := st.count(ctx, kindContent)
	if err != nil {
		return Page{}, fmt.Errorf("store %q: list documents: %w", storeID, err)
	}
	q := query.NewTermQuery(kindContent)
	q.SetField("kind")
	var req *bleve.SearchRequest
	if st.info.Schema >= 2 {
		req = bleve.NewSearchRequestOptions(q, limit, offset, false)
		req.SortBy([]string{"-sortAdded", "sortTitle", "_id"})
	} else {
		req = bleve.NewSearchRequestOptions(q, int(total), 0, false)
	}
	req.Fields = contentListFields
	res, err := st.idx.SearchInContext(ctx, req)
	if err != nil {
		return Page{}, fmt.Errorf("store %q: list documents: %w", storeID, err)
	}
	docs := make([]Content, 0, len(res.Hits))
	for _, h := range res.Hits {
		docs = append(docs, listed(storeID, h))
	}
	if st.info.Schema < 2 {
		slices.SortStableFunc(docs, newestFirst)
		docs = docs[min(offset, len(docs)):min(offset+limit, len(docs))]
	}
	p := Page{Documents: docs, Total: int(total), Offset: offset}
	if next := offset + len(docs); next < p.Total && len(docs) > 0 {
		p.More, p.NextOffset = true, next
	}
	return p, nil
}

// listed reads a listed document's stored fields.
func listed(storeID string, h *search.DocumentMatch) Content {
	f := h.Fields
	c := Content{
		ID: h.ID, StoreID: storeID, Title: str(f["title"]), Path: str(f["path"]), File: str(f["file"]), Format: str(f["format"]),
		Lines: num(f["lines"]), Bytes: num(f["bytes"]), Chunks: num(f["chunks"]),
	}
	if m := str(f["metadata"]); m != "" && m != "null" {
		_ = json.Unmarshal([]byte(m), &c.Metadata)
	}
	c.Added, _ = time.Parse(time.RFC3339, str(f["added"]))
	return c
}

// newestFirst is Contents' order: newest first, then by title (numbers by
// value), then by id.
func newestFirst(a, b Content) int {
	if c := b.Added.Compare(a.Added); c != 0 {
		return c
	}
	if c := strings.Compare(sortTitle(a.Title), sortTitle(b.Title)); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

// Reindexed is a document Reindex indexed again, and from what when that
// is not its file.
type Reindexed struct {
	Content Content `json:"reindexed"`
	// Note says where the text came from when it is not the file: the file
	// is gone, or the document never had one.
	Note string `json:"note,omitempty"`
}

// Reindex reads a document again and indexes it anew under the same
// contentId: from its file when it came from one that is still there (so
// an edited file is searchable as it is now), else (the file is gone, or it
// was text, or a file's bytes, which are not kept) from the text the store
// kept, which Note then says. A file that is there but cannot be read is
// an error naming it; the document then stays as it was.
func (s *Stores) Reindex(ctx context.Context, contentID string) (Reindexed, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	st, err := s.acquireContent(contentID)
	if err != nil {
		return Reindexed{}, err
	}
	defer st.release()
	ctx, cancelStore := st.boundTo(ctx)
	defer cancelStore()
	if err := st.lockWrite(ctx); err != nil {
		return Reindexed{}, err
	}
	defer st.unlockWrite()
	rec, err := st.content(ctx, contentID)
	if err != nil {
		return Reindexed{}, err
	}
	doc := extract.Doc{Title: rec.Title, Text: rec.Body, Format: extract.Format(rec.Format)}
	var note string
	switch _, serr := os.Stat(rec.Path); {
	case rec.Path != "" && serr == nil:
		if doc, err = extract.File(ctx, rec.Path, s.opts.MaxFileBytes); err != nil {
			return Reindexed{}, err
		}
	case rec.Path != "":
		note = fmt.Sprintf("the file %s is gone (%v): the document was indexed again from the text the store kept, "+
			"as it was when it was added; delete it with deleteContent if it should go too", rec.Path, serr)
	case rec.File != "":
		note = fmt.Sprintf("%s was added as bytes, not by its path, so it cannot be read again: the document was indexed again "+
			"from the text the store kept; to take in an edited copy, add the file again", rec.File)
	default:
		note = "added as text: indexed again from the text the store kept"
	}
	ing := &ingest{s: s, st: st, in: Input{Metadata: rec.Metadata}, res: AddResult{StoreID: st.info.ID, Contents: []Content{}},
		batch: st.idx.NewBatch(), file: rec.File}
	ing.progress.StoreID = st.info.ID
	ing.progress.Total = 1
	if err := ing.stage(ctx, contentID, doc, rec.Path); err != nil {
		return Reindexed{}, err
	}
	res, err := ing.finish(ctx)
	if err != nil || len(res.Contents) == 0 {
		return Reindexed{}, err
	}
	c := res.Contents[0]
	c.Replaced = false
	return Reindexed{Content: c, Note: note}, nil
}
