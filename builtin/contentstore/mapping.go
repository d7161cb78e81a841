package contentstore

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/simple"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/standard"
	"github.com/blevesearch/bleve/v2/analysis/char/asciifolding"
	"github.com/blevesearch/bleve/v2/analysis/lang/ar"
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk"
	"github.com/blevesearch/bleve/v2/analysis/lang/da"
	"github.com/blevesearch/bleve/v2/analysis/lang/de"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/lang/es"
	"github.com/blevesearch/bleve/v2/analysis/lang/fi"
	"github.com/blevesearch/bleve/v2/analysis/lang/fr"
	"github.com/blevesearch/bleve/v2/analysis/lang/hi"
	"github.com/blevesearch/bleve/v2/analysis/lang/it"
	"github.com/blevesearch/bleve/v2/analysis/lang/nl"
	"github.com/blevesearch/bleve/v2/analysis/lang/no"
	"github.com/blevesearch/bleve/v2/analysis/lang/pt"
	"github.com/blevesearch/bleve/v2/analysis/lang/ru"
	"github.com/blevesearch/bleve/v2/analysis/lang/sv"
	"github.com/blevesearch/bleve/v2/analysis/lang/tr"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	unicodetok "github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"
	index "github.com/blevesearch/bleve_index_api"
)

// DefaultAnalyzer is the analyzer of a store created without one: English
// (lower-casing, stop words, possessives, Porter stemming).
const DefaultAnalyzer = en.AnalyzerName

// Analyzers are the text analyzers a store can use, by bleve name: "en"
// and the other languages stem words, "cjk" indexes Chinese, Japanese and
// Korean as overlapping bigrams (Korean by its Hangul syllables, see
// cjkAnalyzer), "standard" only lower-cases and drops
// English stop words, "simple" only lower-cases. Whatever the analyzer, text
// holding CJK is also indexed with "cjk" (and CJK in a query is matched
// there), so it is always findable.
var Analyzers = []string{
	en.AnalyzerName, standard.Name, simple.Name, cjk.AnalyzerName,
	ar.AnalyzerName, da.AnalyzerName, de.AnalyzerName, es.AnalyzerName, fi.AnalyzerName, fr.AnalyzerName,
	hi.AnalyzerName, it.AnalyzerName, nl.AnalyzerName, no.AnalyzerName, pt.AnalyzerName, ru.AnalyzerName,
	sv.AnalyzerName, tr.AnalyzerName,
}

func validAnalyzer(name string) bool { return slices.Contains(Analyzers, name) }

// cjkAnalyzer is what "cjk" means in a store's mapping: bleve's cjk
// analyzer, whose bigram filter splits only ideographic tokens (Han, kana),
// with Hangul words made ideographic first. Korean words carry their
// particles ("서울은", "한국의"), so a Hangul word indexed whole is found by
// nothing but itself; as bigrams of syllables, "서울" finds "서울은".
// Registered under a name of its own: bleve refuses a second "cjk", and a
// store's index names its analyzers, so stores made before keep theirs.
const cjkAnalyzer = "switchboard_cjk"

func init() {
	if err := registry.RegisterAnalyzer(cjkAnalyzer, newCJKAnalyzer); err != nil {
		panic(err)
	}
	for _, name := range Analyzers {
		base := mappingAnalyzer(name)
		err := registry.RegisterAnalyzer(schema2Analyzer(name), func(_ map[string]any, cache *registry.Cache) (analysis.Analyzer, error) {
			a, err := cache.AnalyzerNamed(base)
			if err != nil {
				return nil, err
			}
			return identifierAnalyzer{a}, nil
		})
		if err != nil {
			panic(err)
		}
	}
}

// currentSchema is the index layout of the stores Create makes now
// (Info.Schema). Schema 2 analyzes text with identifierAnalyzer and keeps
// sort keys for listing documents; a store's index names its analyzers
// and fields, so stores made with schema 1 keep theirs and work as before.
const currentSchema = 2

// oldSchemaNote is what List says of a store made with schema 1.
const oldSchemaNote = "made by an earlier version: code identifiers (timeout_ms, parseConfig) are found only whole, and accented words " +
	"only as written; to find them by their parts and without accents, create a new store and add the documents again"

// schema2Analyzer is the name schema 2 mappings give the store analyzer name.
func schema2Analyzer(name string) string { return "switchboard2_" + name }

func newCJKAnalyzer(_ map[string]any, cache *registry.Cache) (analysis.Analyzer, error) {
	tokenizer, err := cache.TokenizerNamed(unicodetok.Name)
	width, werr := cache.TokenFilterNamed(cjk.WidthName)
	lower, lerr := cache.TokenFilterNamed(lowercase.Name)
	bigram, berr := cache.TokenFilterNamed(cjk.BigramName)
	if err := errors.Join(err, werr, lerr, berr); err != nil {
		return nil, err
	}
	return &analysis.DefaultAnalyzer{Tokenizer: tokenizer, TokenFilters: []analysis.TokenFilter{width, lower, hangulFilter{}, bigram}}, nil
}

// hangulFilter marks tokens written in Hangul as ideographic, so the cjk
// bigram filter after it splits them into syllable bigrams.
type hangulFilter struct{}

func (hangulFilter) Filter(in analysis.TokenStream) analysis.TokenStream {
	for _, tok := range in {
		if tok.Type != analysis.Ideographic && isHangul(tok.Term) {
			tok.Type = analysis.Ideographic
		}
	}
	return in
}

// isHangul reports whether term is all Hangul.
func isHangul(term []byte) bool {
	for _, r := range string(term) {
		if !unicode.Is(unicode.Hangul, r) {
			return false
		}
	}
	return len(term) > 0
}

// mappingAnalyzer is the analyzer a store's mapping names for the store's
// analyzer: the same, but for "cjk".
func mappingAnalyzer(analyzer string) string {
	if analyzer == cjk.AnalyzerName {
		return cjkAnalyzer
	}
	return analyzer
}

// identifierAnalyzer is a store analyzer (schema 2) that also finds code
// identifiers by their parts and folds accents. A token written as an
// identifier — dotted (config.settings.timeout_ms), snake_case
// (parse_config_file) or camelCase (parseConfigFile) — is indexed whole
// and, at consecutive positions from its own, as its parts, each analyzed
// by the base analyzer (so "settings" is stemmed as the word is): "timeout"
// and "settings" find config.settings.timeout_ms, and a phrase of the parts
// ("parse config") finds it too. Every term is then folded to ASCII where
// a letter has an ASCII form, so "naive" finds "naïve" and "zurich"
// "Zürich"; folding the terms, not the text, keeps every token's offsets
// on the original text for highlighting.
type identifierAnalyzer struct{ base analysis.Analyzer }

// maxTermBytes bounds a term identifierAnalyzer keeps: a longer "word" (a
// base64 blob, a line of one character repeated) is nobody's search, and one
// term of megabytes made every first search of the store's text, after each
// open, take seconds (bleve loads the field's dictionary whole).
const maxTermBytes = 256

// Analyze implements analysis.Analyzer.
func (a identifierAnalyzer) Analyze(text []byte) analysis.TokenStream {
	// The base analyzer's filters change its tokens' bytes in place, and
	// those are the text's own (lower-casing would erase camelCase).
	text = bytes.Clone(text)
	toks := a.base.Analyze(bytes.Clone(text))
	out := make(analysis.TokenStream, 0, len(toks))
	shift := 0
	for _, tok := range toks {
		if len(tok.Term) > maxTermBytes {
			continue
		}
		tok.Position += shift
		tok.Term = fold(tok.Term)
		out = append(out, tok)
		if tok.Start < 0 || tok.End > len(text) || tok.Start >= tok.End {
			continue
		}
		parts := identifierParts(text[tok.Start:tok.End])
		if len(parts) < 2 {
			continue
		}
		n := 0
		for _, p := range parts {
			sub := a.base.Analyze(text[tok.Start+p.start : tok.Start+p.end])
			for _, st := range sub {
				st.Start += tok.Start + p.start
				st.End += tok.Start + p.start
				st.Position = tok.Position + n
				st.Term = fold(st.Term)
				if len(st.Term) <= maxTermBytes && (st.Position != tok.Position || !bytes.Equal(st.Term, tok.Term)) {
					out = append(out, st)
				}
			}
			if len(sub) > 0 {
				n++
			}
		}
		shift += max(n-1, 0)
	}
	return out
}

var asciiFolder = asciifolding.New()

// fold writes term's letters without their accents (ü → u, ß → ss).
func fold(term []byte) []byte {
	for _, c := range term {
		if c >= utf8.RuneSelf {
			return asciiFolder.Filter(term)
		}
	}
	return term
}

// identifierParts splits a token written as a code identifier into its
// parts (byte spans): at dots, underscores and colons, and where camelCase
// starts a word (parseConfig → parse, Config; HTTPServer → HTTP, Server).
// A token of one part, or without letters, gives none.
func identifierParts(raw []byte) []span {
	if !bytes.ContainsFunc(raw, unicode.IsLetter) {
		return nil
	}
	rs := []rune(string(raw))
	offs := make([]int, len(rs)+1)
	for i, r := range rs {
		offs[i+1] = offs[i] + utf8.RuneLen(r)
	}
	var parts []span
	start := -1
	for i, r := range rs {
		switch {
		case r == '.' || r == '_' || r == ':':
			if start >= 0 {
				parts = append(parts, span{offs[start], offs[i]})
			}
			start = -1
		case start < 0:
			start = i
		case (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])) && unicode.IsUpper(r),
			// HTTPServer: the S that a lower-case letter follows starts a word.
			unicode.IsUpper(rs[i-1]) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
			parts = append(parts, span{offs[start], offs[i]})
			start = i
		}
	}
	if start >= 0 {
		parts = append(parts, span{offs[start], offs[len(rs)]})
	}
	if len(parts) < 2 {
		return nil
	}
	return parts
}

// Document kinds (the "kind" field): a chunk is what search finds, a content
// record keeps the whole text for readContent.
const (
	kindChunk   = "chunk"
	kindContent = "content"
)

// chunkDoc is one searchable chunk; its id is <contentId>#<index>.
type chunkDoc struct {
	Kind      string            `json:"kind"`
	ContentID string            `json:"contentId"`
	Text      string            `json:"text"`
	CJK       string            `json:"cjk"` // Text again when it holds CJK (whatever the store analyzer)
	Section   string            `json:"section"`
	FromLine  int               `json:"fromLine"`
	ToLine    int               `json:"toLine"`
	Title     string            `json:"title"`
	Path      string            `json:"path"`
	Format    string            `json:"format"`
	Meta      map[string]string `json:"meta"`
}

func (chunkDoc) BleveType() string { return kindChunk }

// contentDoc keeps a whole document; its id is the contentId.
type contentDoc struct {
	Kind      string `json:"kind"`
	ContentID string `json:"contentId"`
	Body      string `json:"body"`
	Title     string `json:"title"`
	Path      string `json:"path"`
	Format    string `json:"format"`
	Lines     int    `json:"lines"`
	Bytes     int    `json:"bytes"`
	Chunks    int    `json:"chunks"`
	Metadata  string `json:"metadata"` // JSON object
	Added     string `json:"added"`    // RFC 3339
	// File is the name of a file whose bytes were sent (the window's
	// adds), which has no path; stored in schema 2 only.
	File string `json:"file"`
	// Sort keys of listContent (schema 2; indexed, not stored): the time
	// added, and the title with its numbers padded so they sort by value.
	SortAdded string `json:"sortAdded"`
	SortTitle string `json:"sortTitle"`
}

func (contentDoc) BleveType() string { return kindContent }

// Stored fields read back.
var (
	chunkFields   = []string{"contentId", "text", "section", "fromLine", "toLine", "title", "path", "format"}
	contentFields = []string{"contentId", "body", "title", "path", "format", "lines", "bytes", "chunks", "metadata", "added", "file"}
)

// newMapping is a store's index mapping: BM25 scoring, chunk text analyzed
// with the store's analyzer (term vectors for match positions), CJK text
// also with cjk, keyword fields for filters, content records stored only
// but (schema 2) for their sort keys.
func newMapping(analyzer string, schema int) mapping.IndexMapping {
	if schema >= 2 {
		analyzer = schema2Analyzer(analyzer)
	} else {
		analyzer = mappingAnalyzer(analyzer)
	}
	im := bleve.NewIndexMapping()
	im.ScoringModel = index.BM25Scoring
	im.DefaultAnalyzer = analyzer
	im.TypeField = "kind"
	im.StoreDynamic = false
	im.DocValuesDynamic = false
	im.DefaultMapping = bleve.NewDocumentDisabledMapping()

	keywordField := func(store bool) *mapping.FieldMapping {
		f := bleve.NewKeywordFieldMapping()
		f.Store, f.IncludeInAll, f.IncludeTermVectors, f.DocValues = store, false, false, false
		return f
	}
	textField := func(analyzer string, store, vectors bool) *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = analyzer
		f.Store, f.IncludeInAll, f.IncludeTermVectors, f.DocValues = store, false, vectors, false
		return f
	}
	storedText := func() *mapping.FieldMapping {
		f := textField(keyword.Name, true, false)
		f.Index = false
		return f
	}
	storedNumber := func() *mapping.FieldMapping {
		f := bleve.NewNumericFieldMapping()
		f.Index, f.Store, f.IncludeInAll, f.DocValues = false, true, false, false
		return f
	}

	chunk := bleve.NewDocumentStaticMapping()
	chunk.AddFieldMappingsAt("kind", keywordField(false))
	chunk.AddFieldMappingsAt("contentId", keywordField(true))
	chunk.AddFieldMappingsAt("text", textField(analyzer, true, true))
	chunk.AddFieldMappingsAt("cjk", textField(cjkAnalyzer, false, true))
	chunk.AddFieldMappingsAt("section", textField(analyzer, true, false))
	chunk.AddFieldMappingsAt("fromLine", storedNumber())
	chunk.AddFieldMappingsAt("toLine", storedNumber())
	chunk.AddFieldMappingsAt("title", keywordField(true))
	chunk.AddFieldMappingsAt("path", keywordField(true))
	chunk.AddFieldMappingsAt("format", keywordField(true))
	meta := bleve.NewDocumentMapping() // dynamic: every metadata key is a keyword field meta.<key>
	meta.DefaultAnalyzer = keyword.Name
	chunk.AddSubDocumentMapping("meta", meta)
	im.AddDocumentMapping(kindChunk, chunk)

	content := bleve.NewDocumentStaticMapping()
	content.AddFieldMappingsAt("kind", keywordField(false))
	content.AddFieldMappingsAt("contentId", keywordField(true))
	for _, f := range []string{"body", "title", "path", "format", "metadata", "added"} {
		content.AddFieldMappingsAt(f, storedText())
	}
	for _, f := range []string{"lines", "bytes", "chunks"} {
		content.AddFieldMappingsAt(f, storedNumber())
	}
	if schema >= 2 {
		content.AddFieldMappingsAt("file", storedText())
		for _, f := range []string{"sortAdded", "sortTitle"} {
			k := keywordField(false)
			k.DocValues = true // what bleve sorts by
			content.AddFieldMappingsAt(f, k)
		}
	}
	im.AddDocumentMapping(kindContent, content)
	return im
}

// sortTitle is title as a sort key: folded, lower case, each run of
// digits padded to 20, so "Part 10" sorts after "part 9".
func sortTitle(title string) string {
	t := strings.ToLower(string(fold([]byte(title))))
	var b strings.Builder
	for i := 0; i < len(t) && b.Len() < 400; {
		if t[i] < '0' || t[i] > '9' {
			b.WriteByte(t[i])
			i++
			continue
		}
		j := i
		for j < len(t) && t[j] >= '0' && t[j] <= '9' {
			j++
		}
		digits := strings.TrimLeft(t[i:j], "0")
		if len(digits) < 20 {
			b.WriteString(strings.Repeat("0", 20-len(digits)))
		}
		b.WriteString(digits)
		i = j
	}
	return b.String()
}

func isCJK(r rune) bool {
	// Every CJK script starts at or above U+1100 (Hangul Jamo): most text
	// is decided by this comparison alone.
	return r >= 0x1100 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// stripCJK replaces CJK runes with spaces.
func stripCJK(s string) string {
	return strings.Map(func(r rune) rune {
		if isCJK(r) {
			return ' '
		}
		return r
	}, s)
}

// hasCJK reports whether s holds Chinese, Japanese or Korean script.
func hasCJK(s string) bool {
	return strings.IndexFunc(s, isCJK) >= 0
}
