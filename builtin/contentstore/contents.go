package contentstore

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/switchboard-app/switchboard/builtin/contentstore/extract"
)

// MaxContents is how many documents Contents lists at most.
const MaxContents = 1000

// Contents lists the documents of a store, newest first (at most
// MaxContents): title, source path (empty for text added as text), size,
// chunks and when it was added.
func (s *Stores) Contents(ctx context.Context, storeID string) ([]Content, error) {
	st, err := s.acquire(storeID)
	if err != nil {
		return nil, err
	}
	defer st.release()
	q := query.NewTermQuery(kindContent)
	q.SetField("kind")
	req := bleve.NewSearchRequestOptions(q, MaxContents, 0, false)
	req.Fields = []string{"contentId", "title", "path", "format", "lines", "bytes", "chunks", "metadata", "added"}
	res, err := st.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("store %q: list documents: %w", storeID, err)
	}
	out := make([]Content, 0, len(res.Hits))
	for _, h := range res.Hits {
		f := h.Fields
		c := Content{
			ID: h.ID, StoreID: storeID, Title: str(f["title"]), Path: str(f["path"]), Format: str(f["format"]),
			Lines: num(f["lines"]), Bytes: num(f["bytes"]), Chunks: num(f["chunks"]),
		}
		if m := str(f["metadata"]); m != "" && m != "null" {
			_ = json.Unmarshal([]byte(m), &c.Metadata)
		}
		c.Added, _ = time.Parse(time.RFC3339, str(f["added"]))
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Added.Equal(out[j].Added) {
			return out[i].Added.After(out[j].Added)
		}
		return out[i].Title < out[j].Title
	})
	return out, nil
}

// Reindex reads a document again and indexes it anew under the same
// contentId: from its file when it came from one that is still there (so
// an edited file is searchable as it is now), else (the file is gone, or it
// was text, or a file dropped on the window, which is not kept) from the
// text the store kept. A file that is there but cannot be read is an error
// naming it; the document then stays as it was.
func (s *Stores) Reindex(ctx context.Context, contentID string) (Content, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	st, err := s.acquireContent(contentID)
	if err != nil {
		return Content{}, err
	}
	defer st.release()
	st.write.Lock()
	defer st.write.Unlock()
	rec, err := st.content(ctx, contentID)
	if err != nil {
		return Content{}, err
	}
	doc := extract.Doc{Title: rec.Title, Text: rec.Body, Format: extract.Format(rec.Format)}
	if rec.Path != "" {
		if _, serr := os.Stat(rec.Path); serr == nil {
			if doc, err = extract.File(rec.Path, s.opts.MaxFileBytes); err != nil {
				return Content{}, err
			}
		}
	}
	ing := &ingest{s: s, st: st, in: Input{Metadata: rec.Metadata}, res: AddResult{StoreID: st.info.ID, Contents: []Content{}}, batch: st.idx.NewBatch()}
	ing.progress.StoreID = st.info.ID
	ing.progress.Total = 1
	if err := ing.stage(ctx, contentID, doc, rec.Path); err != nil {
		return Content{}, err
	}
	res, err := ing.finish(ctx)
	if err != nil || len(res.Contents) == 0 {
		return Content{}, err
	}
	return res.Contents[0], nil
}
