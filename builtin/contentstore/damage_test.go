package contentstore

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// closedStore creates a store named name under root holding one document,
// closes the stores and returns the store's directory.
func closedStore(t *testing.T, root, name string) string {
	t.Helper()
	s, err := Open(testOptions(root))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	info, err := s.Create(t.Context(), name, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(t.Context(), info.ID, Input{Text: "the kept word is marmalade"}); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, info.ID)
}

// TestIndexMetaMissingKeepsDocuments checks that a store whose bleve
// index_meta.json is gone opens with its documents: the store used to be
// wiped (the index deleted and made anew) without a word.
func TestIndexMetaMissingKeepsDocuments(t *testing.T) {
	root := t.TempDir()
	dir := closedStore(t, root, "Kept")
	meta := filepath.Join(dir, indexDir, indexMetaFile)
	if err := os.Remove(meta); err != nil {
		t.Fatal(err)
	}
	s := openStores(t, testOptions(root))
	list, err := s.List(t.Context())
	if err != nil || len(list) != 1 || list[0].Documents != 1 || list[0].Error != "" {
		t.Fatalf("list = %+v, %v", list, err)
	}
	if res, err := s.Search(t.Context(), Query{Text: "marmalade"}); err != nil || res.Total != 1 {
		t.Fatalf("search = %+v, %v", res, err)
	}
	if _, err := os.Stat(meta); err != nil {
		t.Fatalf("%s not written again: %v", indexMetaFile, err)
	}
}

// TestIndexMetaMissingWithoutIndexIsDamage checks what is made anew and
// what is reported: an index folder holding no file (a crash in Create) is
// created again; one holding files but no index root is damage, kept as it
// is.
func TestIndexMetaMissingWithoutIndexIsDamage(t *testing.T) {
	root := t.TempDir()
	empty := closedStore(t, root, "Empty")
	odd := closedStore(t, root, "Odd")
	for _, dir := range []string{empty, odd} {
		if err := os.RemoveAll(filepath.Join(dir, indexDir)); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, indexDir, "store"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	stray := filepath.Join(odd, indexDir, "store", "000000000002.zap")
	if err := os.WriteFile(stray, []byte("segment"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := openStores(t, testOptions(root))
	if docs, err := s.Contents(t.Context(), filepath.Base(empty), 0, 0); err != nil || len(docs.Documents) != 0 {
		t.Fatalf("empty index: %v, %v", docs, err)
	}
	_, err := s.Contents(t.Context(), filepath.Base(odd), 0, 0)
	var oe *OpenError
	if !errors.Is(err, ErrStoreDamaged) || !errors.As(err, &oe) || !strings.Contains(err.Error(), "index_meta.json is missing") {
		t.Fatalf("index without root: %v", err)
	}
	if _, err := os.Stat(stray); err != nil {
		t.Fatalf("damaged index touched: %v", err)
	}
}

// TestDamagedStoreIsListedAndDeletable damages a store's files and checks
// that it is listed and reported with what to do, and that deleteStore
// removes it: it used to vanish from the list (store.json) or fail every
// call, deleteStore included, with a bleve message about mapping JSON. (A
// truncated segment is not a case here: bleve then opens the snapshot
// before it, when there is one, and logs the loss itself.)
func TestDamagedStoreIsListedAndDeletable(t *testing.T) {
	cases := []struct {
		name   string
		damage func(t *testing.T, dir string)
		reason string
	}{
		{"empty root.bolt", func(t *testing.T, dir string) {
			if err := os.Truncate(filepath.Join(dir, indexDir, "store", "root.bolt"), 0); err != nil {
				t.Fatal(err)
			}
		}, "its index at"},
		{"empty store.json", func(t *testing.T, dir string) {
			if err := os.Truncate(filepath.Join(dir, metaFile), 0); err != nil {
				t.Fatal(err)
			}
		}, "store.json cannot be read"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			dir := closedStore(t, root, "Broken")
			closedStore(t, root, "Fine")
			c.damage(t, dir)
			s := openStores(t, testOptions(root))
			checkDamagedListed(t, s, c.reason)
			if err := s.DeleteStore(t.Context(), "broken"); err != nil {
				t.Fatalf("delete: %v", err)
			}
			if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("store folder left: %v", err)
			}
			if _, err := s.Create(t.Context(), "Broken", "", ""); err != nil {
				t.Fatalf("create again: %v", err)
			}
		})
	}
}

// checkDamagedListed checks that the store "broken" is listed, searched
// around and refused with reason and what to do, beside "fine".
func checkDamagedListed(t *testing.T, s *Stores, reason string) {
	t.Helper()
	list, err := s.List(t.Context())
	if err != nil || len(list) != 2 || list[0].ID != "broken" || list[1].Error != "" {
		t.Fatalf("list = %+v, %v", list, err)
	}
	if msg := list[0].Error; !strings.Contains(msg, reason) || !strings.Contains(msg, "delete the store with deleteStore") {
		t.Fatalf("listed error %q; want %q and what to do", msg, reason)
	}
	res, err := s.Search(t.Context(), Query{Text: "marmalade"})
	if err != nil || res.Total != 1 || len(res.Unavailable) != 1 || !strings.Contains(res.Unavailable[0], reason) {
		t.Fatalf("search all = %+v, %v", res, err)
	}
	if _, err := s.Search(t.Context(), Query{StoreID: "broken", Text: "marmalade"}); !errors.Is(err, ErrStoreDamaged) {
		t.Fatalf("search the damaged store: %v", err)
	}
}
