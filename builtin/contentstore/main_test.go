package contentstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Child processes: the test binary re-executes itself with envChild set to
// one of these roles, against the stores under envRoot.
const (
	envChild = "SWITCHBOARD_CONTENTSTORE_CHILD"
	envRoot  = "SWITCHBOARD_CONTENTSTORE_ROOT"
	envStore = "SWITCHBOARD_CONTENTSTORE_STORE"

	childIngest = "ingest" // add documents forever, printing "ack <i> <contentId>" after each
	childOpen   = "open"   // try to search a store, printing the error
	// childFolder adds the folder envFolder a file per batch, printing
	// "files <n>" as each is committed, and stops (to be killed) after
	// envStopAt files.
	childFolder = "folder"

	envFolder = "SWITCHBOARD_CONTENTSTORE_FOLDER"
	envStopAt = "SWITCHBOARD_CONTENTSTORE_STOP_AT"
)

func TestMain(m *testing.M) {
	if role := os.Getenv(envChild); role != "" {
		os.Exit(runChild(role, os.Getenv(envRoot), os.Getenv(envStore)))
	}
	os.Exit(m.Run())
}

// crashDoc is document i of the crash test: a unique token plus filler, so
// batches carry real work when the kill lands.
func crashDoc(i int) string {
	return fmt.Sprintf("# Document %d\n\nunique token crashtok%05d\n\n%s\n", i, i, strings.Repeat(fmt.Sprintf("filler text %d for the crash test\n", i), 40))
}

func runChild(role, root, storeID string) int {
	ctx := context.Background()
	s, err := Open(Options{Root: root, OpenTimeout: 500 * time.Millisecond, ChunkSize: 400})
	if err != nil {
		fmt.Println("open:", err)
		return 1
	}
	switch role {
	case childIngest:
		for i := 0; ; i++ {
			res, err := s.Add(ctx, storeID, Input{Text: crashDoc(i), Title: fmt.Sprintf("doc %d", i)})
			if err != nil {
				fmt.Println("add:", err)
				return 1
			}
			// Printed only once Add has returned: the document is acknowledged.
			fmt.Printf("ack %d %s\n", i, res.Contents[0].ID)
		}
	case childFolder:
		s.opts.BatchBytes = 1
		stopAt, _ := strconv.Atoi(os.Getenv(envStopAt))
		_, err := s.Add(ctx, storeID, Input{Path: os.Getenv(envFolder), Progress: func(p Progress) {
			fmt.Printf("files %d\n", p.Files)
			if p.Files == stopAt {
				select {} // the parent kills the process here, mid-add
			}
		}})
		fmt.Println("add:", err)
		return 1
	case childOpen:
		start := time.Now()
		_, err := s.Search(ctx, Query{StoreID: storeID, Text: "anything"})
		fmt.Printf("after %s: %v\n", time.Since(start).Round(time.Millisecond), err)
		// Listing and searching every store report the held one instead of failing.
		if list, lerr := s.List(ctx); lerr == nil && len(list) == 1 {
			fmt.Printf("listed with error: %s\n", list[0].Error)
		}
		if res, serr := s.Search(ctx, Query{Text: "anything"}); serr == nil {
			fmt.Printf("searched all, unavailable: %d\n", len(res.Unavailable))
		}
		if errors.Is(err, ErrStoreLocked) {
			return 3
		}
		return 0
	}
	return 2
}
