package contentstore

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"
)

// countsFile keeps a store's document and chunk counts from when it was
// last closed, with a stamp of its index (the size and time of bleve's
// root file, which every commit rewrites): List reads them instead of
// opening the store, so listing neither takes a store's lock nor waits for
// another process that has it. Counts whose stamp no longer matches are
// not used (something committed since), except to show a store another
// process holds.
const countsFile = "counts.json"

type counts struct {
	Documents uint64    `json:"documents"`
	Chunks    uint64    `json:"chunks"`
	Size      int64     `json:"indexSize"`
	Modified  time.Time `json:"indexModified"`
}

// rootFile is the index file every commit rewrites.
func rootFile(dir string) string { return filepath.Join(dir, indexDir, "store", "root.bolt") }

// writeCounts records c with the index's stamp; a hint, so failures are
// ignored (List then opens the store).
func writeCounts(dir string, c counts) {
	fi, err := os.Stat(rootFile(dir))
	if err != nil {
		return
	}
	c.Size, c.Modified = fi.Size(), fi.ModTime()
	if b, err := json.Marshal(c); err == nil {
		writeQuick(dir, countsFile, b)
	}
}

// readCounts returns the store's counts when the index is as it was when
// they were written.
func readCounts(dir string) (counts, bool) {
	c, ok := readCountsAnyway(dir)
	if !ok {
		return c, false
	}
	fi, err := os.Stat(rootFile(dir))
	return c, err == nil && fi.Size() == c.Size && fi.ModTime().Equal(c.Modified)
}

// readCountsAnyway returns the counts last written, however old.
func readCountsAnyway(dir string) (counts, bool) {
	var c counts
	b, err := os.ReadFile(filepath.Join(dir, countsFile))
	if err != nil || json.Unmarshal(b, &c) != nil {
		return counts{}, false
	}
	return c, true
}
