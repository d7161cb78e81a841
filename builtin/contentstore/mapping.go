package contentstore

import (
	"errors"
	"slices"
	"strings"
	"unicode"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/simple"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/standard"
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
}

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
}

func (contentDoc) BleveType() string { return kindContent }

// Stored fields read back.
var (
	chunkFields   = []string{"contentId", "text", "section", "fromLine", "toLine", "title", "path", "format"}
	contentFields = []string{"contentId", "body", "title", "path", "format", "lines", "bytes", "chunks", "metadata", "added"}
)

// newMapping is a store's index mapping: BM25 scoring, chunk text analyzed
// with the store's analyzer (term vectors for match positions), CJK text
// also with cjk, keyword fields for filters, content records stored only.
func newMapping(analyzer string) mapping.IndexMapping {
	analyzer = mappingAnalyzer(analyzer)
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
	im.AddDocumentMapping(kindContent, content)
	return im
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
