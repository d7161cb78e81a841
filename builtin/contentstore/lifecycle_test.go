package contentstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Two Stores on one root stand for two processes (the window and the
// CLI): bolt's file lock is taken per open file, so the second is refused
// as another process is.

// TestIdleStoreIsLetGo checks that a store this process no longer uses is
// closed after IdleClose, so another process can open it, and that the
// next use here opens it again. It used to stay locked for the life of the
// process once touched.
func TestIdleStoreIsLetGo(t *testing.T) {
	root := t.TempDir()
	a := openStores(t, Options{Root: root, IdleClose: 20 * time.Millisecond})
	if _, err := a.Create(t.Context(), "Shared", "", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Add(t.Context(), "shared", Input{Text: "the window added this"}); err != nil {
		t.Fatal(err)
	}
	// The other process waits at most its OpenTimeout: long enough for the
	// idle time to pass, so no sleep is needed here.
	b := openStores(t, Options{Root: root, OpenTimeout: 10 * time.Second, IdleClose: 20 * time.Millisecond})
	if res, err := b.Search(t.Context(), Query{StoreID: "shared", Text: "window"}); err != nil || res.Total != 1 {
		t.Fatalf("the other process's search = %+v, %v", res, err)
	}
	if _, err := b.Add(t.Context(), "shared", Input{Text: "the cli added that"}); err != nil {
		t.Fatal(err)
	}
	if res, err := a.Search(t.Context(), Query{StoreID: "shared", Text: "cli"}); err != nil || res.Total != 1 {
		t.Fatalf("back in the first process: %+v, %v", res, err)
	}
}

// TestHeldStoreIsNamedAndListedAtOnce: a store another process holds is
// refused naming that process and what to do; listing every store does not
// wait for it (its last counts are shown, marked in use), and a search of
// every store waits for all held stores at once, not one after another.
func TestHeldStoreIsNamedAndListedAtOnce(t *testing.T) {
	root := t.TempDir()
	holder := openStores(t, Options{Root: root, IdleClose: -1})
	ids := []string{"one", "two", "three"}
	for _, id := range ids {
		if _, err := holder.Create(t.Context(), id, "", ""); err != nil {
			t.Fatal(err)
		}
		if _, err := holder.Add(t.Context(), id, Input{Text: "text of " + id}); err != nil {
			t.Fatal(err)
		}
	}
	// The stores were closed once (counts written), then held again.
	if err := holder.Close(); err != nil {
		t.Fatal(err)
	}
	holder = openStores(t, Options{Root: root, IdleClose: -1})
	for _, id := range ids {
		if _, err := holder.Search(t.Context(), Query{StoreID: id, Text: "text"}); err != nil {
			t.Fatal(err)
		}
	}

	const timeout = 500 * time.Millisecond
	other := openStores(t, Options{Root: root, OpenTimeout: timeout})
	_, err := other.Search(t.Context(), Query{StoreID: "one", Text: "text"})
	want := fmt.Sprintf(`store "one" is in use by process %d (this process, since `, os.Getpid())
	if !errors.Is(err, ErrStoreLocked) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "try again in a moment") {
		t.Fatalf("search of a held store = %v; want ErrStoreLocked with %q", err, want)
	}

	start := time.Now()
	res, err := other.Search(t.Context(), Query{Text: "text"})
	if took := time.Since(start); err != nil || len(res.Unavailable) != 3 || took > 2*timeout {
		t.Fatalf("search of all = %+v, %v after %s; want 3 unavailable within about one open timeout (%s)", res, err, took, timeout)
	}

	list, err := other.List(t.Context())
	if err != nil || len(list) != 3 {
		t.Fatalf("list = %+v, %v", list, err)
	}
	for _, in := range list {
		if !in.InUse || in.Documents != 1 || !strings.Contains(in.Error, "is in use by process") {
			t.Errorf("listed %+v; want in use, with the 1 document it had", in)
		}
	}
	// Once the holder lets go, the stores are listed as usual, without
	// being opened.
	if err := holder.Close(); err != nil {
		t.Fatal(err)
	}
	list, err = other.List(t.Context())
	if err != nil || len(list) != 3 || list[0].InUse || list[0].Error != "" || list[0].Documents != 1 || other.isOpen(list[0].ID) {
		t.Fatalf("list after the holder closed = %+v, %v", list, err)
	}
}

// TestDeleteStoreStopsItsIngest deletes a store while a folder is being
// added to it: the add stops at its next file instead of running to its
// end, every other call on the store is told it is being deleted (it used
// to be told another process had it), and the store goes.
func TestDeleteStoreStopsItsIngest(t *testing.T) {
	opts := testOptions(t.TempDir())
	opts.BatchBytes = 1 // a commit (and a progress report) per file
	s := openStores(t, opts)
	info, err := s.Create(t.Context(), "Doomed", "", "")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for i := range 40 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.txt", i)), []byte(fmt.Sprintf("file number %d", i)), 0o600)
	}
	deleted := make(chan error, 1)
	var during error
	res, err := s.Add(t.Context(), info.ID, Input{Path: dir, Progress: func(p Progress) {
		if p.Added != 2 {
			return
		}
		go func() { deleted <- s.DeleteStore(context.Background(), info.ID) }()
		for !s.isDeleting(info.ID) {
			runtime.Gosched()
		}
		_, during = s.Search(t.Context(), Query{StoreID: info.ID, Text: "file"})
	}})
	if !errors.Is(err, context.Canceled) || res.Added != 2 {
		t.Fatalf("add during delete = %d added, %v; want it stopped after 2", res.Added, err)
	}
	if !errors.Is(during, ErrUnknownStore) || !strings.Contains(during.Error(), `store "doomed" is being deleted`) {
		t.Fatalf("search during delete = %v", during)
	}
	if err := <-deleted; err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(opts.Root, info.ID)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("store folder left: %v", err)
	}
}

func (s *Stores) isDeleting(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.deleting[id]
}

// TestCloseEndsAnAddWaitingForTheStore: an add waiting for another add of
// the same store to finish ends when the Stores close, instead of holding
// Close up.
func TestCloseEndsAnAddWaitingForTheStore(t *testing.T) {
	s := openStores(t, testOptions(t.TempDir()))
	info, err := s.Create(t.Context(), "Busy", "", "")
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	first := make(chan error, 1)
	started := make(chan struct{})
	go func() {
		_, err := s.Add(context.Background(), info.ID, Input{Text: "first", Progress: func(p Progress) {
			if p.Files == 0 {
				close(started)
				<-release
			}
		}})
		first <- err
	}()
	<-started
	second := make(chan error, 1)
	go func() { _, err := s.Add(context.Background(), info.ID, Input{Text: "second"}); second <- err }()
	st, err := s.acquire(info.ID)
	if err != nil {
		t.Fatal(err)
	}
	for st.waiting.Load() == 0 {
		runtime.Gosched()
	}
	st.release()
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	<-s.done.Done()
	if err := <-second; !errors.Is(err, context.Canceled) {
		t.Fatalf("waiting add = %v; want it cancelled", err)
	}
	close(release)
	<-first
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
}
