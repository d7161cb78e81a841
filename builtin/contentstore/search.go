package contentstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/switchboard-app/switchboard/builtin/contentstore/extract"
)

// Search limits.
const (
	DefaultLimit = 10
	MaxLimit     = 50
	MaxReadLines = 500
	// MaxReadBytes bounds the text one read returns (a line longer than
	// this is read in parts), so a reply stays well inside what MCP
	// clients accept in one message.
	MaxReadBytes = 256 << 10
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
	// "quoted phrases" must match as phrases, +word or +"phrase" must
	// appear, -word or -"phrase" must not; words the analyzer drops as stop
	// words are left out) and, less strongly, against the chunk's section
	// headings.
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
	// Note says why nothing could match, when the query itself is the
	// reason (every word it looks for is a stop word the index leaves out).
	Note string `json:"note,omitempty"`
}

// Search finds the chunks that best match q, ranked by BM25.
func (s *Stores) Search(ctx context.Context, q Query) (Results, error) {
	if s.isClosed() {
		return Results{}, ErrClosed
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	text, limit, t, err := checkQuery(q)
	if err != nil {
		return Results{}, err
	}
	out := Results{Query: text, Hits: []Hit{}}
	stores, err := s.acquireAll(q.StoreID, &out)
	defer func() {
		for _, st := range stores {
			st.release()
		}
	}()
	if err != nil || len(stores) == 0 {
		return out, err
	}
	if out.Note = stopWordsOnly(t, stores); out.Note != "" {
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
	bq := query.NewBooleanQuery([]query.Query{userQuery{t}}, nil, nil)
	bq.AddFilter(filterQuery(q.Filters))
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

// checkQuery validates q and parses its text.
func checkQuery(q Query) (text string, limit int, t terms, err error) {
	text = strings.TrimSpace(q.Text)
	if text == "" {
		return "", 0, t, fmt.Errorf("%w: pass the words to search for", ErrEmptyQuery)
	}
	if n := utf8.RuneCountInString(text); n > maxQueryLen {
		return "", 0, t, invalid("the query is %d characters; the limit is %d: search with fewer words", n, maxQueryLen)
	}
	limit = q.Limit
	switch {
	case limit == 0:
		limit = DefaultLimit
	case limit < 0:
		return "", 0, t, invalid("limit must be positive")
	case limit > MaxLimit:
		limit = MaxLimit
	}
	t, err = parseQuery(text)
	return text, limit, t, err
}

// acquireAll acquires the store id, or every store when id is "" (listing
// those that cannot be opened in out.Unavailable). The caller releases
// what it returns, also with an error.
func (s *Stores) acquireAll(id string, out *Results) ([]*store, error) {
	if id != "" {
		st, err := s.acquire(id)
		if err != nil {
			return nil, err
		}
		return []*store{st}, nil
	}
	infos, err := s.infos()
	if err != nil {
		return nil, err
	}
	// All at once: a store another process holds costs one OpenTimeout,
	// not one each.
	got := make([]*store, len(infos))
	errs := make([]error, len(infos))
	var wg sync.WaitGroup
	for i, in := range infos {
		wg.Go(func() { got[i], errs[i] = s.acquire(in.ID) })
	}
	wg.Wait()
	var stores []*store
	for i := range infos {
		if errs[i] != nil {
			out.Unavailable = append(out.Unavailable, errs[i].Error())
			continue
		}
		stores = append(stores, got[i])
	}
	return stores, nil
}

// stopWordsOnly explains, when no store searched can match anything of t,
// why: it has no words at all (only symbols, which no analyzer keeps), or
// its words are all stop words there; else it returns "".
func stopWordsOnly(t terms, stores []*store) string {
	var analyzers []string
	for _, st := range stores {
		if _, ok := t.build(st.idx.Mapping()); ok {
			return ""
		}
		if !slices.Contains(analyzers, st.info.Analyzer) {
			analyzers = append(analyzers, st.info.Analyzer)
		}
	}
	if !t.hasWords() {
		return "nothing can match: the query has no words to search for, only symbols or emoji, which the index does not keep; " +
			"search with words (or numbers) from the text"
	}
	return fmt.Sprintf("nothing can match: every word this query looks for is a stop word of the analyzer %s "+
		"(words such as \"the\", \"to\" and \"be\"), which the index leaves out; search with a word that carries "+
		"the meaning, or keep text that must be found by such words in a store created with analyzer \"simple\"",
		strings.Join(analyzers, ", "))
}

// clause is one part of a query: a word, or a "phrase" (whose words must
// follow each other).
type clause struct {
	text   string
	phrase bool
}

// terms is a query as the user wrote it: "quoted phrases", +word and
// +"phrase" must match, -word and -"phrase" must not, other words may.
type terms struct {
	must, should, mustNot []clause
}

// hasWords reports whether any clause of t holds a letter or a digit.
func (t terms) hasWords() bool {
	for _, cs := range [][]clause{t.must, t.should, t.mustNot} {
		for _, c := range cs {
			if strings.IndexFunc(c.text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) >= 0 {
				return true
			}
		}
	}
	return false
}

// parseQuery splits the user's text into terms. An unpaired quote is
// ignored (-"word is -word); a lone + or - is dropped.
func parseQuery(text string) (terms, error) {
	if strings.Count(text, `"`)%2 == 1 {
		i := strings.LastIndexByte(text, '"')
		if i > 0 && (text[i-1] == '+' || text[i-1] == '-') {
			text = text[:i] + text[i+1:]
		} else {
			text = text[:i] + " " + text[i+1:]
		}
	}
	var t terms
	for rest := strings.TrimSpace(text); rest != ""; rest = strings.TrimLeftFunc(rest, unicode.IsSpace) {
		var op byte
		if (rest[0] == '+' || rest[0] == '-') && len(rest) > 1 && !unicode.IsSpace(rune(rest[1])) {
			op, rest = rest[0], rest[1:]
		}
		var c clause
		c, rest = nextClause(rest)
		switch {
		case c.text == "" || c.text == "+" || c.text == "-":
		case op == '-':
			t.mustNot = append(t.mustNot, c)
		case op == '+' || c.phrase:
			t.must = append(t.must, c)
		default:
			t.should = append(t.should, c)
		}
	}
	switch {
	case len(t.must) == 0 && len(t.should) == 0 && len(t.mustNot) > 0:
		return t, fmt.Errorf("%w: -word only leaves words out; add a word or \"phrase\" to find", ErrEmptyQuery)
	case len(t.must) == 0 && len(t.should) == 0:
		return t, fmt.Errorf("%w: pass the words to search for", ErrEmptyQuery)
	}
	return t, nil
}

// nextClause reads the "phrase" (quotes paired) or the word rest starts
// with; a word ends at a space or a quote.
func nextClause(rest string) (clause, string) {
	if rest[0] == '"' {
		end := strings.IndexByte(rest[1:], '"') + 1
		return clause{text: strings.TrimSpace(rest[1:end]), phrase: true}, rest[end+1:]
	}
	end := strings.IndexFunc(rest, func(r rune) bool { return unicode.IsSpace(r) || r == '"' })
	if end < 0 {
		end = len(rest)
	}
	return clause{text: rest[:end]}, rest[end:]
}

// userQuery is a parsed query that each index it runs on turns into bleve
// queries with its own analyzers (stores differ): a clause whose words are
// all stop words there is left out, where bleve would make it match
// nothing, and so empty the results when it is required.
type userQuery struct{ terms terms }

// Searcher implements query.Query.
func (q userQuery) Searcher(ctx context.Context, i index.IndexReader, m mapping.IndexMapping, options search.SearcherOptions) (search.Searcher, error) {
	bq, _ := q.terms.build(m)
	return bq.Searcher(ctx, i, m, options)
}

// build makes t a bleve query for an index with mapping m: every must
// clause and none of the mustNot ones (in the text or, for CJK, the cjk
// field), the should words matched with OR and scored by BM25 against text,
// cjk and (boost 0.3) section. ok is false when nothing in t can match in
// that index (every word it looks for is a stop word there).
func (t terms) build(m mapping.IndexMapping) (q query.Query, ok bool) {
	must := required(m, t.must)
	mustNot := required(m, t.mustNot)
	should := loose(m, t.should)
	switch {
	case len(must) == 0 && len(should) == 0:
		return query.NewMatchNoneQuery(), false
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
	return q, true
}

// required makes one query per clause that has words to look for in m.
func required(m mapping.IndexMapping, cs []clause) []query.Query {
	var out []query.Query
	for _, c := range cs {
		if qs := analyzable(m, fieldQueries(c.text, c.phrase || isIdentifier(c.text))); len(qs) > 0 {
			out = append(out, query.NewDisjunctionQuery(qs))
		}
	}
	return out
}

// isIdentifier reports whether a query word is written as a code
// identifier (timeout_ms, parseConfig): it is matched as a phrase, so it
// finds the identifier whole or its parts in a row, and not any text
// holding one of its parts.
func isIdentifier(word string) bool {
	return !hasCJK(word) && identifierParts([]byte(word)) != nil
}

// loose matches the optional words together, and against the section
// headings too.
func loose(m mapping.IndexMapping, cs []clause) []query.Query {
	var words, plain []string
	var qs []query.Query
	for _, c := range cs {
		words = append(words, c.text)
		if isIdentifier(c.text) {
			qs = append(qs, fieldQueries(c.text, true)...)
		} else {
			plain = append(plain, c.text)
		}
	}
	rest := strings.Join(words, " ")
	if rest == "" {
		return nil
	}
	if len(plain) > 0 {
		qs = append(qs, fieldQueries(strings.Join(plain, " "), false)...)
	}
	// CJK is left out here as in the text field: most analyzers would
	// match a heading sharing one character with the query.
	if latin := strings.TrimSpace(stripCJK(rest)); latin != "" {
		sec := query.NewMatchQuery(latin)
		sec.SetField("section")
		sec.SetBoost(0.3)
		qs = append(qs, sec)
	}
	return analyzable(m, qs)
}

// analyzable keeps the match queries whose text leaves at least one token
// after the analyzer of their field in m.
func analyzable(m mapping.IndexMapping, qs []query.Query) []query.Query {
	out := qs[:0:0]
	for _, q := range qs {
		var text, field string
		switch q := q.(type) {
		case *query.MatchQuery:
			text, field = q.Match, q.FieldVal
		case *query.MatchPhraseQuery:
			text, field = q.MatchPhrase, q.FieldVal
		}
		if a := m.AnalyzerNamed(m.AnalyzerNameForPath(field)); a == nil || len(a.Analyze([]byte(text))) > 0 {
			out = append(out, q)
		}
	}
	return out
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
	ContentID string `json:"contentId"`
	StoreID   string `json:"storeId"`
	Title     string `json:"title"`
	Path      string `json:"path,omitempty"`
	FromLine  int    `json:"fromLine"`
	// FromChar is the character of FromLine the text starts at when the
	// read started inside the line (1-based; unset: at its start).
	FromChar   int    `json:"fromChar,omitempty"`
	ToLine     int    `json:"toLine"`
	TotalLines int    `json:"totalLines"`
	Text       string `json:"text"`
	// More is set when the document goes on after the text: Next says
	// where to read on.
	More bool      `json:"more"`
	Next *Position `json:"next,omitempty"`
	// Note says why the text stops before the lines asked for: at most
	// MaxReadLines lines and MaxReadBytes bytes come back at once, and a
	// longer line is cut (at a character) with the rest read from FromChar.
	Note string `json:"note,omitempty"`
}

// Position is a place in a document: a line, and a character of it
// (1-based; unset: the line's start).
type Position struct {
	FromLine int `json:"fromLine"`
	FromChar int `json:"fromChar,omitempty"`
}

// Range is what ReadRange reads: lines FromLine..ToLine (1-based,
// inclusive; ToLine 0: MaxReadLines lines), the first from its character
// FromChar (0 or 1: from its start).
type Range struct {
	ContentID        string
	FromLine, ToLine int
	FromChar         int
}

// Read returns lines from..to (1-based, inclusive) of a stored document;
// to == 0 reads up to MaxReadLines lines, and at most MaxReadLines lines
// and MaxReadBytes bytes are read (see ReadRange).
func (s *Stores) Read(ctx context.Context, contentID string, from, to int) (Excerpt, error) {
	return s.ReadRange(ctx, Range{ContentID: contentID, FromLine: from, ToLine: to})
}

// ReadRange returns a range of a stored document's lines, at most
// MaxReadLines lines and MaxReadBytes bytes of text: the whole lines that
// fit, or, when the first line alone is longer, its first MaxReadBytes
// (cut at a character), with Next pointing at the rest. Only the lines
// read are split out of the document's text.
func (s *Stores) ReadRange(ctx context.Context, r Range) (Excerpt, error) {
	if _, ok := storeOf(r.ContentID); !ok { // a malformed id is reported before bad line numbers
		return Excerpt{}, unknownContent(r.ContentID)
	}
	from, to := r.FromLine, r.ToLine
	if from == 0 {
		from = 1
	}
	switch {
	case from < 0 || to < 0:
		return Excerpt{}, invalid("line numbers start at 1")
	case r.FromChar < 0:
		return Excerpt{}, invalid("fromChar starts at 1")
	case to != 0 && to < from:
		return Excerpt{}, invalid("toLine %d is before fromLine %d", to, from)
	}
	st, err := s.acquireContent(r.ContentID)
	if err != nil {
		return Excerpt{}, err
	}
	defer st.release()
	rec, err := st.content(ctx, r.ContentID)
	if err != nil {
		return Excerpt{}, err
	}
	body := strings.TrimSuffix(rec.Body, "\n")
	total := 0
	if body != "" {
		total = strings.Count(body, "\n") + 1
	}
	if from > total {
		return Excerpt{}, invalid("fromLine %d is past the end: %q has %d lines", from, rec.Title, total)
	}
	if to == 0 || to > total {
		to = total
	}
	to = min(to, from+MaxReadLines-1)
	ex := Excerpt{ContentID: r.ContentID, StoreID: rec.StoreID, Title: rec.Title, Path: rec.Path, FromLine: from, TotalLines: total}
	if err := ex.cut(body, r.FromChar, to); err != nil {
		return Excerpt{}, err
	}
	return ex, nil
}

// cut fills in the text of lines ex.FromLine..to of body (from character
// fromChar of the first), within MaxReadBytes, and where to read on.
func (ex *Excerpt) cut(body string, fromChar, to int) error {
	lineEnd := func(at int) int {
		if j := strings.IndexByte(body[at:], '\n'); j >= 0 {
			return at + j
		}
		return len(body)
	}
	start := 0
	for range ex.FromLine - 1 {
		start = lineEnd(start) + 1
	}
	if fromChar > 1 {
		line := body[start:lineEnd(start)]
		n := utf8.RuneCountInString(line)
		if fromChar > n {
			return invalid("fromChar %d is past the end of line %d, which has %d characters", fromChar, ex.FromLine, n)
		}
		for range fromChar - 1 {
			_, size := utf8.DecodeRuneInString(body[start:])
			start += size
		}
		ex.FromChar = fromChar
	}
	end, last := start, ex.FromLine-1
	for line, at := ex.FromLine, start; line <= to; line++ {
		le := lineEnd(at)
		if le-start > MaxReadBytes {
			if line == ex.FromLine { // one line longer than a read: its first part
				end = start + MaxReadBytes
				for end > start && !utf8.RuneStart(body[end]) {
					end--
				}
				next := max(fromChar, 1) + utf8.RuneCountInString(body[start:end])
				ex.Text, ex.ToLine, ex.More = body[start:end], line, true
				ex.Next = &Position{FromLine: line, FromChar: next}
				ex.Note = fmt.Sprintf("line %d goes on: a read returns at most %s; call readContent with fromLine=%d and fromChar=%d to read on",
					line, extract.HumanBytes(MaxReadBytes), line, next)
				return nil
			}
			ex.Note = fmt.Sprintf("a read returns at most %s; call readContent with fromLine=%d to read on", extract.HumanBytes(MaxReadBytes), line)
			break
		}
		end, last, at = le, line, le+1
	}
	ex.Text, ex.ToLine = body[start:end], last
	if ex.More = last < ex.TotalLines; ex.More {
		ex.Next = &Position{FromLine: last + 1}
		if ex.Note == "" && last == ex.FromLine+MaxReadLines-1 {
			ex.Note = fmt.Sprintf("a read returns at most %d lines; call readContent with fromLine=%d to read on", MaxReadLines, last+1)
		}
	}
	return nil
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
	if err := st.lockWrite(ctx); err != nil {
		return Content{}, err
	}
	defer st.unlockWrite()
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
