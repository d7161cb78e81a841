package contentstore

import (
	"slices"
	"strings"
	"testing"
)

// addTexts creates a store with analyzer and adds each text (its title is
// its first line), returning the store id.
func addTexts(t *testing.T, s *Stores, name, analyzer string, texts ...string) string {
	t.Helper()
	info, err := s.Create(t.Context(), name, "", analyzer)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range texts {
		if _, err := s.Add(t.Context(), info.ID, Input{Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	return info.ID
}

// titles searches one store and returns the hits' titles, sorted.
func titles(t *testing.T, s *Stores, storeID, text string) ([]string, Results) {
	t.Helper()
	res, err := s.Search(t.Context(), Query{StoreID: storeID, Text: text})
	if err != nil {
		t.Fatalf("search %q: %v", text, err)
	}
	var out []string
	for _, h := range res.Hits {
		out = append(out, h.Title)
	}
	slices.Sort(out)
	return out, res
}

// TestSearchPhraseOperators checks that + and - apply to a "quoted phrase"
// as to a word: -"phrase" used to be required, its - dropped.
func TestSearchPhraseOperators(t *testing.T) {
	s := openStores(t, testOptions(t.TempDir()))
	id := addTexts(t, s, "Logs", "",
		"A: linux install fails with permission denied",
		"B: linux install works fine",
		"C: windows says permission denied",
		"D: linux denied the permission")
	cases := []struct {
		query string
		want  []string
	}{
		{`linux -"permission denied"`, []string{"B: linux install works fine", "D: linux denied the permission"}},
		{`-"permission denied" linux`, []string{"B: linux install works fine", "D: linux denied the permission"}},
		{`linux +"permission denied"`, []string{"A: linux install fails with permission denied", "C: windows says permission denied"}},
		{`+linux +"permission denied"`, []string{"A: linux install fails with permission denied"}},
		{`+"permission denied"`, []string{"A: linux install fails with permission denied", "C: windows says permission denied"}},
		{`"permission denied" -linux`, []string{"C: windows says permission denied"}},
		{`+linux -"permission denied" -works`, []string{"D: linux denied the permission"}},
		{`windows -"permission`, nil}, // the unpaired quote is ignored: -permission
		{`linux -install`, []string{"D: linux denied the permission"}},
		{`linux - install`, []string{"A: linux install fails with permission denied", "B: linux install works fine", "D: linux denied the permission"}},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			if got, _ := titles(t, s, id, c.query); !slices.Equal(got, c.want) {
				t.Fatalf("hits %q, want %q", got, c.want)
			}
		})
	}
	if _, err := s.Search(t.Context(), Query{StoreID: id, Text: `-"permission denied"`}); err == nil || !strings.Contains(err.Error(), "-word only leaves words out") {
		t.Fatalf("negative phrase alone: %v", err)
	}
}

// TestSearchStopWords checks that a clause made only of stop words is left
// out instead of matching nothing (which, required, emptied the results),
// and that a query of nothing but stop words says why it finds nothing.
func TestSearchStopWords(t *testing.T) {
	s := openStores(t, testOptions(t.TempDir()))
	hamlet := "To be or not to be, that is the question."
	en := addTexts(t, s, "Plays", "", hamlet, "A question of taste")
	simple := addTexts(t, s, "Plays simple", "simple", hamlet)
	both := []string{"A question of taste", hamlet}
	cases := []struct {
		store, query string
		want         []string
		note         bool
	}{
		{en, `+the question`, both, false},
		{en, `+be question`, both, false},
		{en, `question -the`, both, false},
		{en, `"the question of taste"`, []string{"A question of taste"}, false},
		{en, `"to be or not to be, that is the question"`, both, false}, // leading stop words are lost
		{en, `"to be or not to be" question`, both, false},
		{en, `"to be or not to be"`, nil, true},
		{en, `be`, nil, true},
		{en, `+the -question`, nil, true},
		{simple, `"to be or not to be"`, []string{hamlet}, false},
		{simple, `be`, []string{hamlet}, false},
	}
	for _, c := range cases {
		t.Run(c.store+" "+c.query, func(t *testing.T) {
			got, res := titles(t, s, c.store, c.query)
			if !slices.Equal(got, c.want) {
				t.Fatalf("hits %q, want %q", got, c.want)
			}
			if c.note != strings.Contains(res.Note, "every word this query looks for is a stop word of the analyzer en") {
				t.Fatalf("note = %q; want one: %v", res.Note, c.note)
			}
		})
	}
	// Across stores, the one that indexes stop words answers.
	res, err := s.Search(t.Context(), Query{Text: "be"})
	if err != nil || res.Total != 1 || res.Note != "" || res.Hits[0].StoreID != simple {
		t.Fatalf("search all = %+v, %v", res, err)
	}
}

// TestSearchKoreanByWord checks that a Hangul word is found inside the
// longer words Korean builds from it ("서울" in "서울은"), in an English store
// (its cjk field) and in a store with analyzer cjk: bleve's bigram filter
// used to leave Hangul words whole, so only the whole word matched.
func TestSearchKoreanByWord(t *testing.T) {
	s := openStores(t, testOptions(t.TempDir()))
	doc := "서울은 한국의 수도입니다"
	for _, analyzer := range []string{"en", "cjk"} {
		id := addTexts(t, s, "Korean "+analyzer, analyzer, doc, "東京は日本の首都です")
		for _, q := range []string{"서울", "한국", "수도", `"한국의 수도"`, "+서울 -東京"} {
			if got, _ := titles(t, s, id, q); !slices.Equal(got, []string{doc}) {
				t.Errorf("%s store: %s finds %q, want the Korean document", analyzer, q, got)
			}
		}
	}
}
