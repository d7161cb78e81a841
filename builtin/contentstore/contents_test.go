package contentstore

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// A store lists its documents newest first with their source and size;
// re-indexing reads an edited file again (the new words are found, the
// old ones not), and one whose file is gone from the kept text.
func TestContentsAndReindex(t *testing.T) {
	s := openStores(t, testOptions(t.TempDir()))
	ctx := t.Context()
	st, err := s.Create(ctx, "notes", "", "")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "plan.md")
	if err := os.WriteFile(file, []byte("# Plan\n\nThe launch is on Tuesday.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(ctx, st.ID, Input{Path: file}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(ctx, st.ID, Input{Text: "Remember the zebra crossing.", Title: "Memo"}); err != nil {
		t.Fatal(err)
	}
	page, err := s.Contents(ctx, st.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	docs := page.Documents
	if len(docs) != 2 || page.Total != 2 || page.More {
		t.Fatalf("Contents = %+v, want 2 documents", docs)
	}
	var plan, memo Content
	for _, d := range docs {
		switch d.Title {
		case "Plan":
			plan = d
		case "Memo":
			memo = d
		}
	}
	if plan.Path != file || plan.Bytes == 0 || plan.Added.IsZero() || memo.Path != "" || memo.ID == "" {
		t.Fatalf("Contents = %+v", docs)
	}

	if err := os.WriteFile(file, []byte("# Plan\n\nThe launch moved to Friday.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := s.Reindex(ctx, plan.ID)
	if err != nil || got.Content.ID != plan.ID || got.Note != "" {
		t.Fatalf("Reindex = %+v, %v", got, err)
	}
	if n := hits(t, s, st.ID, "Friday"); n != 1 {
		t.Errorf("Friday found %d times after re-indexing, want 1", n)
	}
	if n := hits(t, s, st.ID, "Tuesday"); n != 0 {
		t.Errorf("Tuesday still found %d times after re-indexing", n)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	// A file that is gone is said to be gone: the kept text was indexed.
	if got, err := s.Reindex(ctx, plan.ID); err != nil || !strings.Contains(got.Note, "the file "+file+" is gone") ||
		!strings.Contains(got.Note, "indexed again from the text the store kept") {
		t.Fatalf("Reindex of a document whose file is gone = %+v, %v", got, err)
	}
	if n := hits(t, s, st.ID, "Friday"); n != 1 {
		t.Errorf("the kept text was not indexed again: Friday found %d times", n)
	}
	if _, err := s.Reindex(ctx, memo.ID); err != nil {
		t.Fatal(err)
	}
	if docs, _ := s.Contents(ctx, st.ID, 0, 0); len(docs.Documents) != 2 {
		t.Fatalf("re-indexing added documents: %+v", docs)
	}
	if _, err := s.Contents(ctx, "nope", 0, 0); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("Contents of an unknown store = %v", err)
	}
}

func hits(t *testing.T, s *Stores, storeID, q string) int {
	t.Helper()
	res, err := s.Search(t.Context(), Query{Text: q, StoreID: storeID})
	if err != nil {
		t.Fatal(err)
	}
	return len(res.Hits)
}

// createWithSchema makes a store with an index of the given schema, as an
// earlier version made it (schema 1) or as Create does now.
func createWithSchema(t *testing.T, s *Stores, name string, schema int) Info {
	t.Helper()
	info := Info{ID: slug(name), Name: name, Analyzer: DefaultAnalyzer, Created: time.Now().UTC().Truncate(time.Second), Schema: schema}
	dir := filepath.Join(s.opts.Root, info.ID)
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := writeInfo(dir, info); err != nil {
		t.Fatal(err)
	}
	st, err := s.acquire(info.ID)
	if err != nil {
		t.Fatal(err)
	}
	st.release()
	return info
}

// TestContentsPages lists 250 documents 100 at a time, newest first and,
// among those added in the same second, by title with numbers by value
// ("doc 9" before "doc 10"), with the total and where the next page
// starts. It used to list 1,000 at most, silently, not the newest (bleve
// chose which), titles sorted as strings. A store made by an earlier
// version (schema 1, no sort keys) lists in the same order.
func TestContentsPages(t *testing.T) {
	for _, schema := range []int{1, currentSchema} {
		t.Run(fmt.Sprintf("schema %d", schema), func(t *testing.T) {
			s := openStores(t, Options{Root: t.TempDir(), BatchBytes: 64 << 10})
			ctx := t.Context()
			info := createWithSchema(t, s, "Many", schema)
			var want []string
			t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			for _, batch := range []struct {
				from, to int
				at       time.Time
			}{{1, 120, t0}, {121, 250, t0.Add(time.Minute)}} {
				dir := t.TempDir()
				var names []string
				for i := batch.from; i <= batch.to; i++ {
					name := fmt.Sprintf("doc %d.txt", i)
					os.WriteFile(filepath.Join(dir, name), []byte(fmt.Sprintf("document %d\n", i)), 0o600)
					names = append(names, name)
				}
				s.now = func() time.Time { return batch.at }
				if _, err := s.Add(ctx, info.ID, Input{Path: dir}); err != nil {
					t.Fatal(err)
				}
				want = append(names, want...) // newer first; in a batch, by number
			}
			var got []string
			for offset, pages := 0, 0; ; pages++ {
				page, err := s.Contents(ctx, info.ID, offset, 100)
				if err != nil || page.Total != 250 || page.Offset != offset || pages > 3 {
					t.Fatalf("page at %d = %d documents of %d, %v", offset, len(page.Documents), page.Total, err)
				}
				for _, d := range page.Documents {
					got = append(got, d.Title)
				}
				if !page.More {
					if page.NextOffset != 0 || len(page.Documents) != 50 {
						t.Fatalf("last page = %d documents, next %d", len(page.Documents), page.NextOffset)
					}
					break
				}
				if page.NextOffset != offset+100 {
					t.Fatalf("next offset %d after %d", page.NextOffset, offset)
				}
				offset = page.NextOffset
			}
			if !slices.Equal(got, want) {
				t.Fatalf("order:\n%v\nwant\n%v", got[:12], want[:12])
			}
		})
	}
}

// TestStoresListInNaturalOrder: stores are listed by name as people read
// them: case and accents aside, numbers by value.
func TestStoresListInNaturalOrder(t *testing.T) {
	s := openStores(t, testOptions(t.TempDir()))
	for _, name := range []string{"Notes 10", "notes 9", "Zeta", "Älpha"} {
		if _, err := s.Create(t.Context(), name, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	list, err := s.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, in := range list {
		names = append(names, in.Name)
	}
	if want := []string{"Älpha", "notes 9", "Notes 10", "Zeta"}; !slices.Equal(names, want) {
		t.Fatalf("stores %q, want %q", names, want)
	}
}
