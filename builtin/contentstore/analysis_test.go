package contentstore

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"
)

// registryAnalyzer builds the analyzer registered under name.
func registryAnalyzer(name string) (analysis.Analyzer, error) {
	return registry.NewCache().AnalyzerNamed(name)
}

// TestSearchIdentifiersAndAccents: in a store made now (schema 2), code
// identifiers are found by their parts as well as whole, and words without
// their accents; highlights fall on the original text. A store made by an
// earlier version keeps its analyzer: identifiers only whole, accents as
// written, and listStores says so.
func TestSearchIdentifiersAndAccents(t *testing.T) {
	s := openStores(t, testOptions(t.TempDir()))
	config := "put config.settings.timeout_ms at 30"
	parser := "call parse_config_file first"
	camel := "then parseConfigFile and HTTPServer"
	cafe := "a naïve café in Zürich"
	plain := "the settings page and a parse tree"
	docs := []string{config, parser, camel, cafe, plain}
	now := addTexts(t, s, "Code", "", docs...)
	old := createWithSchema(t, s, "Old", 1).ID
	for _, d := range docs {
		if _, err := s.Add(t.Context(), old, Input{Text: d}); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		query    string
		now, old []string
	}{
		{"timeout_ms", []string{config}, nil},
		{"timeout", []string{config}, nil},
		{"settings", []string{config, plain}, []string{plain}},
		{"config.settings.timeout_ms", []string{config}, []string{config}},
		{"config.settings", []string{config}, nil},
		{"parse", []string{camel, parser, plain}, []string{plain}},
		{"parse_config_file", []string{camel, parser}, []string{parser}},
		{`"parse config"`, []string{camel, parser}, nil},
		{"parseConfigFile", []string{camel, parser}, []string{camel}},
		{"server", []string{camel}, nil},
		{"naive", []string{cafe}, nil},
		{"zurich", []string{cafe}, nil},
		{"Zürich", []string{cafe}, []string{cafe}},
		{"cafe", []string{cafe}, nil},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			for _, st := range []struct {
				id   string
				want []string
			}{{now, c.now}, {old, c.old}} {
				want := slices.Clone(st.want)
				slices.Sort(want)
				if got, _ := titles(t, s, st.id, c.query); !slices.Equal(got, want) {
					t.Errorf("%s store: %s finds %q, want %q", st.id, c.query, got, want)
				}
			}
		})
	}
	// Highlights fall on the words as written.
	res, err := s.Search(t.Context(), Query{StoreID: now, Text: "zurich timeout"})
	if err != nil || len(res.Hits) != 2 {
		t.Fatalf("search = %+v, %v", res, err)
	}
	var snippets []string
	for _, h := range res.Hits {
		snippets = append(snippets, h.Snippet)
	}
	slices.Sort(snippets)
	if want := []string{"a naïve café in <mark>Zürich</mark>", "put config.settings.<mark>timeout</mark>_ms at 30"}; !slices.Equal(snippets, want) {
		t.Errorf("snippets %q, want %q", snippets, want)
	}
	list, err := s.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range list {
		if (in.ID == old) != strings.Contains(in.Note, "made by an earlier version: code identifiers (timeout_ms, parseConfig) are found only whole") {
			t.Errorf("store %s (schema %d) note %q", in.ID, in.Schema, in.Note)
		}
	}
}

// TestIdentifierParts checks how identifiers are cut.
func TestIdentifierParts(t *testing.T) {
	cases := map[string][]string{
		"config.settings.timeout_ms": {"config", "settings", "timeout", "ms"},
		"parse_config_file":          {"parse", "config", "file"},
		"parseConfigFile":            {"parse", "Config", "File"},
		"HTTPServer":                 {"HTTP", "Server"},
		"std::vector":                {"std", "vector"},
		"_private":                   nil,
		"Zürich":                     nil,
		"plain":                      nil,
		"3.14":                       nil,
		"utf8Decode":                 {"utf8", "Decode"},
	}
	for in, want := range cases {
		var got []string
		for _, p := range identifierParts([]byte(in)) {
			got = append(got, in[p.start:p.end])
		}
		if !slices.Equal(got, want) {
			t.Errorf("identifierParts(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestQueryNotesAndLimits: a query of symbols only says it has no words
// (not that they are stop words); the length limit counts characters, so
// 400 Chinese characters (1,200 bytes) are a query.
func TestQueryNotesAndLimits(t *testing.T) {
	s := openStores(t, testOptions(t.TempDir()))
	id := addTexts(t, s, "Notes", "", "a party 🎉 at the office")
	for _, q := range []string{"🎉", "*", "?", "/", "🎉 *"} {
		_, res := titles(t, s, id, q)
		if !strings.Contains(res.Note, "the query has no words to search for, only symbols or emoji") {
			t.Errorf("%q: note %q", q, res.Note)
		}
	}
	if _, err := s.Search(t.Context(), Query{StoreID: id, Text: strings.Repeat("字", 400)}); err != nil {
		t.Errorf("400 characters: %v", err)
	}
	_, err := s.Search(t.Context(), Query{StoreID: id, Text: strings.Repeat("字", 1001)})
	if want := fmt.Sprintf("the query is 1001 characters; the limit is %d", maxQueryLen); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("1001 characters: %v, want %q", err, want)
	}
}

// TestHugeWordIsNotIndexed: a "word" of megabytes (a line of one letter, a
// base64 blob) is left out of the index of a schema 2 store, while the
// words around it are found: one such term made the first search of the
// store's text after each open take seconds.
func TestHugeWordIsNotIndexed(t *testing.T) {
	opts := testOptions(t.TempDir())
	opts.MaxFileBytes = 4 << 20
	s := openStores(t, opts)
	huge := strings.Repeat("a", 2<<20)
	id := addTexts(t, s, "Huge", "", "a needle beside "+huge+" and a haystack")
	res, err := s.Search(t.Context(), Query{StoreID: id, Text: "needle haystack"})
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("search = %+v, %v", res, err)
	}
	a, err := registryAnalyzer(schema2Analyzer("en"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range a.Analyze([]byte("short " + huge)) {
		if len(tok.Term) > maxTermBytes {
			t.Fatalf("a term of %d bytes was kept", len(tok.Term))
		}
	}
}
