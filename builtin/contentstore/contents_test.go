package contentstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	docs, err := s.Contents(ctx, st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 2 {
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
	if err != nil || got.ID != plan.ID {
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
	if _, err := s.Reindex(ctx, plan.ID); err != nil {
		t.Fatalf("Reindex of a document whose file is gone: %v", err)
	}
	if n := hits(t, s, st.ID, "Friday"); n != 1 {
		t.Errorf("the kept text was not indexed again: Friday found %d times", n)
	}
	if _, err := s.Reindex(ctx, memo.ID); err != nil {
		t.Fatal(err)
	}
	if docs, _ := s.Contents(ctx, st.ID); len(docs) != 2 {
		t.Fatalf("re-indexing added documents: %+v", docs)
	}
	if _, err := s.Contents(ctx, "nope"); err == nil || !strings.Contains(err.Error(), "nope") {
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
