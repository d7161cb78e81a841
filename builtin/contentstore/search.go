package contentstore

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/switchboard-app/switchboard/builtin/contentstore/chunk"
)

// Search limits.
const (
	DefaultLimit = 10
	MaxLimit     = 50
	MaxReadLines = 500
	snippetBytes = 320
	maxQueryLen  = 1000
)

// Highlight markers around matched words in a snippet.
const (
	MarkStart = "<mark>"
	MarkEnd   = "</mark>"
)

// Query is a search.
type Query struct {
	// StoreID limits the search to one store; "" searches every store.
	StoreID string
	// Text is matched against chunk text (stemmed with the store's analyzer;
	// "quoted phrases" must match as phrases, +word must appear, -word must
	// not) and, less strongly, against the chunk's section headings.
	Text  string
	Limit int // 0: DefaultLimit; at most MaxLimit
	// Filters narrow the hits, each exactly: "contentId", "format" (txt, md,
	// html, json, csv, code, pdf), "title", "path" (a prefix: a folder), and any
	// other key is a metadata key given to addContent.
	Filters map[string]string
}

// Hit is one matching chunk.
type Hit struct {
	StoreID   string  `json:"storeId"`
	ContentID string  `json:"contentId"`
	Title     string  `json:"title"`
	Path      string  `json:"path,omitempty"`
	Section   string  `json:"section,omitempty"`
	Score     float64 `json:"score"` // BM25
	FromLine  int     `json:"fromLine"`
	ToLine    int     `json:"toLine"`
	// MatchLines are the lines holding matched words (at most 20).
	MatchLines []int `json:"matchLines,omitempty"`
	// Snippet is the part of the chunk around the best match, matched
	// words wrapped in <mark>…</mark>; "…" marks a cut.
	Snippet string `json:"snippet"`
}

// Results are the hits of a search, best first.
type Results struct {
	Query string `json:"query"`
	Total uint64 `json:"total"` // matching chunks
	Hits  []Hit  `json:"hits"`
	// Unavailable lists stores that could not be searched, with why.
	Unavailable []string `json:"unavailable,omitempty"`
}

// Search finds the chunks that best match q, ranked by BM25.
func (s *Stores) Search(ctx context.Context, q Query) (Results, error) {
	if s.isClosed() {
		return Results{}, ErrClosed
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	text := strings.TrimSpace(q.Text)
	if text == "" {
		return Results{}, fmt.Errorf("%w: pass the words to search for", ErrEmptyQuery)
	}
	if len(text) > maxQueryLen {
		return Results{}, invalid("the query is %d characters; the limit is %d", len(text), maxQueryLen)
	}
	limit := q.Limit
	switch {
	case limit == 0:
		limit = DefaultLimit
	case limit < 0:
		return Results{}, invalid("limit must be positive")
	case limit > MaxLimit:
		limit = MaxLimit
	}
	main, err := buildQuery(text)
	if err != nil {
		return Results{}, err
	}
	bq := query.NewBooleanQuery([]query.Query{main}, nil, nil)
	bq.AddFilter(filterQuery(q.Filters))

	out := Results{Query: text, Hits: []Hit{}}
	var ids []string
	if q.StoreID != "" {
		ids = []string{q.StoreID}
	} else {
		infos, err := s.infos()
		if err != nil {
			return Results{}, err
		}
		for _, in := range infos {
			ids = append(ids, in.ID)
		}
	}
	var stores []*store
	defer func() {
		for _, st := range stores {
			st.release()
		}
	}()
	for _, id := range ids {
		st, err := s.acquire(id)
		if err != nil {
			if q.StoreID != "" {
				return Results{}, err
			}
			out.Unavailable = append(out.Unavailable, err.Error())
			continue
		}
		stores = append(stores, st)
	}
	if len(stores) == 0 {
		return out, nil
	}
	searcher := stores[0].idx
	if len(stores) > 1 {
		idxs := make([]bleve.Index, len(stores))
		for i, st := range stores {
			idxs[i] = st.idx
		}
		searcher = bleve.NewIndexAlias(idxs...)
	}
	req := bleve.NewSearchRequestOptions(bq, limit, 0, false)
	req.Fields = chunkFields
	req.IncludeLocations = true
	res, err := searcher.SearchInContext(ctx, req)
	if err != nil {
		return Results{}, fmt.Errorf("search: %w", err)
	}
	out.Total = res.Total
	for _, h := range res.Hits {
		out.Hits = append(out.Hits, toHit(h))
	}
	return out, nil
}

var phrase = regexp.MustCompile(`"([^"]+)"`)

// buildQuery turns the user's text into: every "quoted phrase" and every
// +word must match (in the text or, for CJK, the cjk field), no -word may;
// the other words are matched with OR, scored by BM25, against text, cjk
// and (boost 0.3) section.
func buildQuery(text string) (query.Query, error) {
	var must, mustNot []query.Query
	for _, m := range phrase.FindAllStringSubmatch(text, -1) {
		p := strings.TrimSpace(m[1])
		if p == "" {
			continue
		}
		must = append(must, query.NewDisjunctionQuery(fieldQueries(p, true)))
	}
	var loose []string
	for _, w := range strings.Fields(strings.ReplaceAll(phrase.ReplaceAllString(text, " "), `"`, " ")) {
		switch {
		case len(w) > 1 && w[0] == '+':
			must = append(must, query.NewDisjunctionQuery(fieldQueries(w[1:], false)))
		case len(w) > 1 && w[0] == '-':
			mustNot = append(mustNot, query.NewDisjunctionQuery(fieldQueries(w[1:], false)))
		case w != "+" && w != "-":
			loose = append(loose, w)
		}
	}
	rest := strings.Join(loose, " ")
	var should []query.Query
	if rest != "" {
		should = fieldQueries(rest, false)
		// CJK is left out here as in the text field: most analyzers would
		// match a heading sharing one character with the query.
		if latin := strings.TrimSpace(stripCJK(rest)); latin != "" {
			sec := query.NewMatchQuery(latin)
			sec.SetField("section")
			sec.SetBoost(0.3)
			should = append(should, sec)
		}
	}
	var q query.Query
	switch {
	case len(must) == 0 && len(should) == 0 && len(mustNot) > 0:
		return nil, fmt.Errorf("%w: -word only leaves words out; add a word or \"phrase\" to find", ErrEmptyQuery)
	case len(must) == 0 && len(should) == 0:
		return nil, fmt.Errorf("%w: pass the words to search for", ErrEmptyQuery)
	case len(must) == 0:
		q = query.NewDisjunctionQuery(should)
	case len(should) == 0:
		q = query.NewConjunctionQuery(must)
	default:
		q = query.NewBooleanQuery(must, should, nil)
	}
	if len(mustNot) > 0 {
		q = query.NewBooleanQuery([]query.Query{q}, nil, mustNot)
	}
	return q, nil
}

// fieldQueries matches text against the chunk text and, for CJK, against
// the cjk field (bigrams): CJK runes are left out of the text-field query,
// where most analyzers would match their characters one by one.
func fieldQueries(text string, asPhrase bool) []query.Query {
	match := func(text, field string) query.Query {
		if asPhrase {
			q := query.NewMatchPhraseQuery(text)
			q.SetField(field)
			return q
		}
		q := query.NewMatchQuery(text)
		q.SetField(field)
		return q
	}
	if !hasCJK(text) {
		return []query.Query{match(text, "text")}
	}
	qs := []query.Query{match(text, "cjk")}
	if rest := strings.TrimSpace(stripCJK(text)); rest != "" && !asPhrase {
		qs = append(qs, match(rest, "text"))
	}
	return qs
}

// filterQuery restricts hits to chunks (and the caller's filters) without
// touching their scores.
func filterQuery(filters map[string]string) query.Query {
	kind := query.NewTermQuery(kindChunk)
	kind.SetField("kind")
	qs := []query.Query{kind}
	keys := make([]string, 0, len(filters))
	for k := range filters {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := filters[k]
		switch k {
		case "path":
			q := query.NewPrefixQuery(v)
			q.SetField("path")
			qs = append(qs, q)
		case "contentId", "format", "title":
			q := query.NewTermQuery(v)
			q.SetField(k)
			qs = append(qs, q)
		default:
			q := query.NewTermQuery(v)
			q.SetField("meta." + k)
			qs = append(qs, q)
		}
	}
	return query.NewConjunctionQuery(qs)
}

type span struct{ start, end int }

func toHit(h *search.DocumentMatch) Hit {
	f := h.Fields
	hit := Hit{
		ContentID: str(f["contentId"]), Title: str(f["title"]), Path: str(f["path"]), Section: str(f["section"]),
		Score: h.Score, FromLine: num(f["fromLine"]), ToLine: num(f["toLine"]),
	}
	hit.StoreID, _ = storeOf(hit.ContentID)
	text := str(f["text"])
	var spans []span
	for _, field := range []string{"text", "cjk"} {
		for _, locs := range h.Locations[field] {
			for _, l := range locs {
				if int(l.End) <= len(text) && l.Start < l.End {
					spans = append(spans, span{int(l.Start), int(l.End)})
				}
			}
		}
	}
	spans = mergeSpans(spans)
	hit.Snippet = snippet(text, spans)
	for _, sp := range spans {
		line := hit.FromLine + strings.Count(text[:sp.start], "\n")
		if !slices.Contains(hit.MatchLines, line) {
			hit.MatchLines = append(hit.MatchLines, line)
		}
		if len(hit.MatchLines) == 20 {
			break
		}
	}
	return hit
}

func mergeSpans(spans []span) []span {
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	var out []span
	for _, sp := range spans {
		if n := len(out); n > 0 && sp.start <= out[n-1].end {
			out[n-1].end = max(out[n-1].end, sp.end)
			continue
		}
		out = append(out, sp)
	}
	return out
}

// snippet cuts about snippetBytes of text around the densest run of spans
// and marks the spans in it.
func snippet(text string, spans []span) string {
	if len(spans) == 0 {
		end := min(len(text), snippetBytes)
		for end < len(text) && !utf8.RuneStart(text[end]) {
			end++
		}
		s := strings.TrimSpace(text[:end])
		if end < len(text) {
			s += "…"
		}
		return s
	}
	best, bestN := 0, 0
	for i, sp := range spans {
		n := 0
		for _, o := range spans[i:] {
			if o.end-sp.start > snippetBytes*3/4 {
				break
			}
			n++
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	// Start at the beginning of the match's line when that is close.
	start := spans[best].start
	if ls := strings.LastIndexByte(text[:start], '\n') + 1; start-ls <= snippetBytes/4 {
		start = ls
	} else {
		start -= snippetBytes / 4
	}
	end := min(len(text), start+snippetBytes)
	for start > 0 && !utf8.RuneStart(text[start]) {
		start--
	}
	for end < len(text) && !utf8.RuneStart(text[end]) {
		end++
	}
	var b strings.Builder
	if start > 0 && text[start-1] != '\n' {
		b.WriteString("…")
	}
	pos := start
	for _, sp := range spans {
		if sp.end <= start || sp.start >= end {
			continue
		}
		from, to := max(sp.start, start), min(sp.end, end)
		b.WriteString(text[pos:from])
		b.WriteString(MarkStart + text[from:to] + MarkEnd)
		pos = to
	}
	b.WriteString(text[pos:end])
	s := strings.TrimRight(b.String(), " \t\n")
	if end < len(text) {
		s += "…"
	}
	return s
}

// Excerpt is a line range of a stored document.
type Excerpt struct {
	ContentID  string `json:"contentId"`
	StoreID    string `json:"storeId"`
	Title      string `json:"title"`
	Path       string `json:"path,omitempty"`
	FromLine   int    `json:"fromLine"`
	ToLine     int    `json:"toLine"`
	TotalLines int    `json:"totalLines"`
	Text       string `json:"text"`
	// More is set when the document goes on after ToLine.
	More bool `json:"more"`
}

// Read returns lines from..to (1-based, inclusive) of a stored document;
// to == 0 reads up to MaxReadLines lines, and at most MaxReadLines are read.
func (s *Stores) Read(ctx context.Context, contentID string, from, to int) (Excerpt, error) {
	if _, ok := storeOf(contentID); !ok { // a malformed id is reported before bad line numbers
		return Excerpt{}, unknownContent(contentID)
	}
	if from == 0 {
		from = 1
	}
	if from < 0 || to < 0 {
		return Excerpt{}, invalid("line numbers start at 1")
	}
	if to != 0 && to < from {
		return Excerpt{}, invalid("toLine %d is before fromLine %d", to, from)
	}
	st, err := s.acquireContent(contentID)
	if err != nil {
		return Excerpt{}, err
	}
	defer st.release()
	rec, err := st.content(ctx, contentID)
	if err != nil {
		return Excerpt{}, err
	}
	lines := chunk.Lines(rec.Body)
	if from > len(lines) {
		return Excerpt{}, invalid("fromLine %d is past the end: %q has %d lines", from, rec.Title, len(lines))
	}
	if to == 0 || to > len(lines) {
		to = len(lines)
	}
	to = min(to, from+MaxReadLines-1)
	return Excerpt{
		ContentID: contentID, StoreID: rec.StoreID, Title: rec.Title, Path: rec.Path,
		FromLine: from, ToLine: to, TotalLines: len(lines),
		Text: strings.Join(lines[from-1:to], "\n"), More: to < len(lines),
	}, nil
}

// acquireContent acquires the store holding contentID; an id that is not
// well formed, or names a store that does not exist, is an unknown content.
// The caller releases the store.
func (s *Stores) acquireContent(contentID string) (*store, error) {
	storeID, ok := storeOf(contentID)
	if !ok {
		return nil, unknownContent(contentID)
	}
	st, err := s.acquire(storeID)
	if errors.Is(err, ErrUnknownStore) {
		return nil, unknownContent(contentID)
	}
	return st, err
}

// DeleteContent removes a document and its chunks.
func (s *Stores) DeleteContent(ctx context.Context, contentID string) (Content, error) {
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
	b := st.idx.NewBatch()
	b.Delete(contentID)
	for i := range rec.Chunks {
		b.Delete(chunkID(contentID, i))
	}
	if err := st.idx.Batch(b); err != nil {
		return Content{}, fmt.Errorf("store %q: delete %s: %w", rec.StoreID, contentID, err)
	}
	return rec.Content, nil
}
