package contentstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Defaults of Options.
const (
	DefaultMaxFileBytes = 10 << 20
	DefaultOpenTimeout  = 2 * time.Second
	DefaultIdleClose    = time.Second
	DefaultBatchBytes   = 4 << 20
)

// Limits of names and descriptions.
const (
	maxNameLen        = 100
	maxDescriptionLen = 2000
)

// Options configure Stores.
type Options struct {
	// Root holds one directory per store (the app passes <data dir>/stores).
	Root string
	// MaxFileBytes is the largest file, or text, addContent accepts
	// (default 10 MiB).
	MaxFileBytes int64
	// OpenTimeout is how long opening a store waits for another process to
	// let go of it before failing with ErrStoreLocked (default 2 s).
	OpenTimeout time.Duration
	// IdleClose is how long a store stays open after its last use (default
	// 1 s; negative: until Close). Closing it lets go of its file lock, so
	// the window, the daemon, the CLI and 'switchboard builtin
	// content-store' use the same stores in turn; opening one again takes
	// milliseconds.
	IdleClose time.Duration
	// BatchBytes is how much text one ingest batch holds before it is
	// committed (default 4 MiB).
	BatchBytes int
	// ChunkSize and ChunkOverlap tune chunking (0: the chunk package defaults).
	ChunkSize, ChunkOverlap int
	// OnProgress, if set, receives the progress of every ingest (as
	// Input.Progress does); the app turns it into events. It must not block.
	OnProgress func(Progress)
}

// Info describes a store.
type Info struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Analyzer    string    `json:"analyzer"`
	Created     time.Time `json:"created"`
	// Schema is the version of the store's index layout: 2 for stores made
	// by this version (code identifiers are found by their parts, accents
	// are folded, documents are listed newest first in pages), 1 (or 0,
	// unset) for stores made before, which keep working as they were.
	Schema int `json:"schema,omitempty"`
	// Counts, filled in by List.
	Documents uint64 `json:"documents"`
	Chunks    uint64 `json:"chunks"`
	Bytes     int64  `json:"bytes"` // on disk
	// Error says why a listed store cannot be used right now.
	Error string `json:"error,omitempty"`
	// InUse is set with Error when another process holds the store (it
	// lets go once it is done with it); the counts are then those the
	// store had when it was last closed.
	InUse bool `json:"inUse,omitempty"`
	// Interrupted is an add that stopped before its end because the
	// process adding it ended (a crash, a kill), with what it left out.
	Interrupted *Interrupted `json:"interrupted,omitempty"`
	// Note says what a store made by an earlier version lacks.
	Note string `json:"note,omitempty"`
}

// Stores is the set of content stores under one root directory. Each store
// is a bleve index, opened on first use and closed again once it has been
// idle for Options.IdleClose (or at Close or DeleteStore), so other
// processes can use it in between. Stores is safe for concurrent use:
// searches run while an ingest commits its batches.
type Stores struct {
	opts Options

	createMu sync.Mutex // serializes Create (unique names and ids)

	// done ends with Close, stopping running ingests and searches so Close
	// does not wait for a whole folder.
	done     context.Context
	shutdown context.CancelFunc

	mu   sync.Mutex
	open map[string]*store
	// closing are stores being closed after their idle time: an acquire
	// waits for the close to end, then opens the store again.
	closing map[string]chan struct{}
	// deleting are stores DeleteStore is deleting: they are refused.
	deleting map[string]bool
	closed   bool

	// now is the clock of the time a document is added (tests set it).
	now func() time.Time
}

// store is one open (or opening) store.
type store struct {
	s     *Stores
	info  Info
	dir   string
	ready chan struct{} // closed when idx/err are set
	idx   bleve.Index
	err   error

	// ctx ends when the store is deleted or the Stores close: its ingests
	// stop at their next file.
	ctx    context.Context
	cancel context.CancelFunc

	// users counts acquisitions not yet released, and idle closes the
	// store once it has had none for IdleClose; both guarded by Stores.mu.
	users int
	idle  *time.Timer

	// life is held shared by every operation and exclusively by close, so a
	// store is never closed under a running search or ingest.
	life sync.RWMutex
	gone bool
	// write serializes ingests and deletions within the store: a channel,
	// so waiting for it ends with the waiter's context. waiting counts
	// those waiting for it.
	write   chan struct{}
	waiting atomic.Int32
}

const (
	metaFile      = "store.json"
	indexDir      = "index"
	indexMetaFile = "index_meta.json" // bleve's, in indexDir
	trashName     = ".trash-"
)

// Open prepares the root directory; stores themselves open on first use.
func Open(opts Options) (*Stores, error) {
	if opts.Root == "" {
		return nil, invalid("content stores need a root directory")
	}
	if opts.MaxFileBytes <= 0 {
		opts.MaxFileBytes = DefaultMaxFileBytes
	}
	if opts.OpenTimeout <= 0 {
		opts.OpenTimeout = DefaultOpenTimeout
	}
	if opts.IdleClose == 0 {
		opts.IdleClose = DefaultIdleClose
	}
	if opts.BatchBytes <= 0 {
		opts.BatchBytes = DefaultBatchBytes
	}
	if err := os.MkdirAll(opts.Root, 0o700); err != nil {
		return nil, fmt.Errorf("content stores: %w", err)
	}
	// Remove what a DeleteStore interrupted by a crash left behind.
	if ents, err := os.ReadDir(opts.Root); err == nil {
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), trashName) {
				_ = os.RemoveAll(filepath.Join(opts.Root, e.Name()))
			}
		}
	}
	done, shutdown := context.WithCancel(context.Background())
	return &Stores{opts: opts, open: map[string]*store{}, closing: map[string]chan struct{}{}, deleting: map[string]bool{},
		done: done, shutdown: shutdown, now: time.Now}, nil
}

// MaxFileBytes is the largest file or text an add accepts.
func (s *Stores) MaxFileBytes() int64 { return s.opts.MaxFileBytes }

// Close closes every open store. Running ingests stop at their next file
// (what they committed stays) and running searches are cancelled.
func (s *Stores) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.shutdown()
	all := make([]*store, 0, len(s.open))
	for _, st := range s.open {
		if st.idle != nil {
			st.idle.Stop()
		}
		all = append(all, st)
	}
	s.open = map[string]*store{}
	closing := make([]chan struct{}, 0, len(s.closing))
	for _, ch := range s.closing {
		closing = append(closing, ch)
	}
	s.mu.Unlock()
	var errs []error
	for _, st := range all {
		errs = append(errs, st.close(true))
	}
	for _, ch := range closing {
		<-ch
	}
	return errors.Join(errs...)
}

// close closes the store's index once no operation holds it; keep writes
// its counts beside it for List and removes its lock file (false: the
// store is being deleted).
func (st *store) close(keep bool) error {
	<-st.ready
	if st.cancel != nil {
		st.cancel()
	}
	st.life.Lock()
	defer st.life.Unlock()
	if st.gone || st.idx == nil {
		st.gone = true
		return nil
	}
	st.gone = true
	var c counts
	if keep {
		c.Documents, _ = st.count(context.Background(), kindContent)
		c.Chunks, _ = st.count(context.Background(), kindChunk)
	}
	if err := st.idx.Close(); err != nil {
		return fmt.Errorf("close store %q: %w", st.info.ID, err)
	}
	if keep {
		writeCounts(st.dir, c)
	}
	removeLockInfo(st.dir)
	return nil
}

// errDeleting is an operation on a store DeleteStore is deleting.
func errDeleting(id string) error {
	return fmt.Errorf("%w: store %q is being deleted", ErrUnknownStore, id)
}

// acquire returns the open store id, holding it against close; the caller
// must call release.
func (s *Stores) acquire(id string) (*store, error) { return s.acquireFor(id, false) }

// acquireFor is acquire; deleting lets DeleteStore open the store it is
// deleting, which everyone else is refused.
func (s *Stores) acquireFor(id string, deleting bool) (*store, error) {
	if !validID(id) {
		return nil, unknownStore(id)
	}
	for {
		s.mu.Lock()
		switch {
		case s.closed:
			s.mu.Unlock()
			return nil, ErrClosed
		case s.deleting[id] && !deleting:
			s.mu.Unlock()
			return nil, errDeleting(id)
		}
		if ch := s.closing[id]; ch != nil {
			s.mu.Unlock()
			<-ch // closed after its idle time: open it again
			continue
		}
		st, ok := s.open[id]
		if !ok {
			var err error
			if st, err = s.openStore(id); err != nil {
				return nil, err
			}
		} else {
			st.users++
			if st.idle != nil {
				st.idle.Stop()
				st.idle = nil
			}
			s.mu.Unlock()
		}
		<-st.ready
		if st.err != nil {
			s.unuse(st)
			return nil, st.err
		}
		st.life.RLock()
		if st.gone {
			st.life.RUnlock()
			s.unuse(st)
			s.mu.Lock()
			closed, del := s.closed, s.deleting[id]
			s.mu.Unlock()
			switch {
			case closed:
				return nil, ErrClosed
			case del && !deleting:
				return nil, errDeleting(id)
			}
			return nil, unknownStore(id)
		}
		return st, nil
	}
}

// openStore registers store id as opening and opens its index; it is
// called with s.mu held and returns with it released, the store used once.
func (s *Stores) openStore(id string) (*store, error) {
	dir := filepath.Join(s.opts.Root, id)
	info, err := readInfo(dir)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	st := &store{s: s, info: info, dir: dir, ready: make(chan struct{}), users: 1, write: make(chan struct{}, 1)}
	st.ctx, st.cancel = context.WithCancel(s.done)
	s.open[id] = st
	s.mu.Unlock()
	st.idx, st.err = s.openIndex(st)
	if st.err == nil {
		writeLockInfo(dir)
	}
	close(st.ready)
	if st.err != nil {
		st.cancel()
		// Forget the failure so the next call tries again (the other
		// process may have let go by then).
		s.mu.Lock()
		if s.open[id] == st {
			delete(s.open, id)
		}
		s.mu.Unlock()
	}
	return st, nil
}

// release lets go of a store acquire returned.
func (st *store) release() {
	st.life.RUnlock()
	st.s.unuse(st)
}

// unuse ends one use of st; the last starts its idle time.
func (s *Stores) unuse(st *store) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st.users--
	if st.users > 0 || s.open[st.info.ID] != st || s.closed || s.deleting[st.info.ID] || s.opts.IdleClose < 0 {
		return
	}
	st.idle = time.AfterFunc(s.opts.IdleClose, func() { s.closeIdle(st) })
}

// closeIdle closes st if it is still unused, so other processes can open
// it; the next use here opens it again.
func (s *Stores) closeIdle(st *store) {
	s.mu.Lock()
	id := st.info.ID
	if st.users > 0 || s.open[id] != st || s.closed || s.deleting[id] {
		s.mu.Unlock()
		return
	}
	delete(s.open, id)
	done := make(chan struct{})
	s.closing[id] = done
	s.mu.Unlock()
	if err := st.close(true); err != nil {
		slog.Warn("content store: close an idle store", "store", id, "err", err)
	}
	s.mu.Lock()
	delete(s.closing, id)
	close(done)
	s.mu.Unlock()
}

// lockWrite takes the store's write lock, or fails when ctx ends first.
func (st *store) lockWrite(ctx context.Context) error {
	st.waiting.Add(1)
	defer st.waiting.Add(-1)
	select {
	case st.write <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (st *store) unlockWrite() { <-st.write }

// bound returns ctx, also cancelled when s closes.
func (s *Stores) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(s.done, cancel)
	return ctx, func() { stop(); cancel() }
}

// boundTo returns ctx, also cancelled when st is deleted or s closes.
func (st *store) boundTo(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(st.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

func (s *Stores) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// openIndex opens the store's index, creating it if a crash came between
// writing store.json and creating it. Nothing in an index that holds data
// is ever deleted here: an index that cannot be opened is an OpenError
// (ErrStoreDamaged when its files are at fault).
func (s *Stores) openIndex(st *store) (bleve.Index, error) {
	path := filepath.Join(st.dir, indexDir)
	cfg := map[string]any{"bolt_timeout": s.opts.OpenTimeout.String()}
	idx, err := bleve.OpenUsing(path, cfg)
	switch {
	case errors.Is(err, bleve.ErrorIndexPathDoesNotExist):
		idx, err = newIndex(path, st.info, cfg)
	case errors.Is(err, bleve.ErrorIndexMetaMissing), errors.Is(err, bleve.ErrorIndexMetaCorrupt):
		idx, err = reopenWithoutMeta(path, st.info, cfg)
	}
	if err != nil {
		oe := &OpenError{Store: st.info.ID, Path: path, Err: classify(err)}
		if errors.Is(oe.Err, ErrStoreLocked) {
			oe.Holder = readLockInfo(st.dir).describe()
		}
		return nil, oe
	}
	return idx, nil
}

func newIndex(path string, info Info, cfg map[string]any) (bleve.Index, error) {
	return bleve.NewUsing(path, newMapping(info.Analyzer, info.Schema), bleve.Config.DefaultIndexType, bleve.Config.DefaultKVStore, cfg)
}

// reopenWithoutMeta opens an index whose index_meta.json is missing or
// unreadable. That file only names the index type and storage, both this
// package's defaults, while everything stored (documents, their text, the
// mapping) is in index/store. A directory holding no file is what a crash
// during Create leaves: it is made anew. One holding a scorch root
// (store/root.bolt) gets its meta file written again and is opened with
// everything in it. Anything else is damage, and is left as it is.
func reopenWithoutMeta(path string, info Info, cfg map[string]any) (bleve.Index, error) {
	if !holdsFiles(path) {
		if err := os.RemoveAll(path); err != nil {
			return nil, err
		}
		return newIndex(path, info, cfg)
	}
	if _, err := os.Stat(filepath.Join(path, "store", "root.bolt")); err != nil {
		return nil, damaged("%s is missing and there is no index to reopen without it (%v)", indexMetaFile, err)
	}
	meta, err := json.Marshal(map[string]string{"storage": bleve.Config.DefaultKVStore, "index_type": bleve.Config.DefaultIndexType})
	if err != nil {
		return nil, err
	}
	if err := writeAtomic(path, indexMetaFile, meta); err != nil {
		return nil, err
	}
	return bleve.OpenUsing(path, cfg)
}

// holdsFiles reports whether dir (or a folder in it) holds a file.
func holdsFiles(dir string) bool {
	found := false
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			found = true
			return fs.SkipAll
		}
		return nil
	})
	return found
}

// classify tells an index that cannot be opened because another process
// holds it (ErrStoreLocked) or because the system refused (permissions, no
// space, too many open files: reported as they are) from one whose files
// are damaged (ErrStoreDamaged).
func classify(err error) error {
	var errno syscall.Errno
	switch {
	case errors.Is(err, bolterrors.ErrTimeout):
		return ErrStoreLocked
	case errors.Is(err, ErrStoreDamaged), errors.Is(err, fs.ErrPermission), errors.As(err, &errno):
		return err
	}
	// bleve's own messages may go on over lines (the mapping it read).
	first, _, _ := strings.Cut(err.Error(), "\n")
	return damaged("%s", strings.TrimSpace(first))
}

// Create makes a new, empty store and returns its info. name must be unique
// (case-insensitively); analyzer "" means DefaultAnalyzer.
func (s *Stores) Create(ctx context.Context, name, description, analyzer string) (Info, error) {
	name, description = strings.TrimSpace(name), strings.TrimSpace(description)
	switch {
	case name == "":
		return Info{}, invalid("a store needs a name")
	case len(name) > maxNameLen:
		return Info{}, invalid("the name is %d characters; the limit is %d", len(name), maxNameLen)
	case len(description) > maxDescriptionLen:
		return Info{}, invalid("the description is %d characters; the limit is %d", len(description), maxDescriptionLen)
	}
	if analyzer == "" {
		analyzer = DefaultAnalyzer
	}
	if !validAnalyzer(analyzer) {
		return Info{}, invalid("unknown analyzer %q; use one of %s", analyzer, strings.Join(Analyzers, ", "))
	}
	if s.isClosed() {
		return Info{}, ErrClosed
	}
	s.createMu.Lock()
	defer s.createMu.Unlock()
	infos, err := s.infos()
	if err != nil {
		return Info{}, err
	}
	for _, in := range infos {
		if in.Error == "" && strings.EqualFold(in.Name, name) {
			return Info{}, fmt.Errorf("%w: %q (id %s); pick another name or add to that store", ErrStoreExists, name, in.ID)
		}
	}
	id := slug(name)
	for n := 2; ; n++ {
		if _, err := os.Lstat(filepath.Join(s.opts.Root, id)); errors.Is(err, fs.ErrNotExist) {
			break
		}
		id = fmt.Sprintf("%s-%d", slug(name), n)
	}
	info := Info{ID: id, Name: name, Description: description, Analyzer: analyzer, Created: time.Now().UTC().Truncate(time.Second), Schema: currentSchema}
	dir := filepath.Join(s.opts.Root, id)
	if err := os.Mkdir(dir, 0o700); err != nil {
		return Info{}, fmt.Errorf("create store %q: %w", name, err)
	}
	if err := writeInfo(dir, info); err != nil {
		_ = os.RemoveAll(dir)
		return Info{}, err
	}
	st, err := s.acquire(id) // creates the index
	if err != nil {
		return Info{}, err
	}
	st.release()
	return info, nil
}

// List returns every store, sorted by name, with document and chunk counts
// and its size on disk. A store that cannot be opened (another process has
// it, or it is damaged) is listed with Error set, saying what to do.
//
// A store open here is counted from its index. One that is not is counted
// from the counts its last close wrote beside it, as long as its index has
// not changed since, so listing neither waits for nor takes a store
// another process uses; only a store without valid counts is opened, all
// of them at once.
func (s *Stores) List(ctx context.Context) ([]Info, error) {
	if s.isClosed() {
		return nil, ErrClosed
	}
	infos, err := s.infos()
	if err != nil {
		return nil, err
	}
	var wg sync.WaitGroup
	for i := range infos {
		wg.Go(func() { s.describe(ctx, &infos[i]) })
	}
	wg.Wait()
	return infos, nil
}

// describe fills in a listed store's counts, size, note and interrupted add.
func (s *Stores) describe(ctx context.Context, in *Info) {
	dir := filepath.Join(s.opts.Root, in.ID)
	in.Bytes = dirSize(dir)
	if in.Error != "" {
		return // its store.json cannot be read
	}
	if in.Schema < currentSchema {
		in.Note = oldSchemaNote
	}
	in.Interrupted = s.interrupted(in.ID, dir)
	if !s.isOpen(in.ID) {
		held := readLockInfo(dir)
		if held != nil && held.PID == os.Getpid() {
			held = nil // a lock file this process left: it holds nothing now
		}
		if c, ok := readCounts(dir); ok && held == nil {
			in.Documents, in.Chunks = c.Documents, c.Chunks
			return
		}
		if held != nil { // in use elsewhere: said at once, not after OpenTimeout
			s.inUse(in, &OpenError{Store: in.ID, Path: filepath.Join(dir, indexDir), Err: ErrStoreLocked, Holder: held.describe()})
			return
		}
	}
	st, err := s.acquire(in.ID)
	if err != nil {
		in.Error = err.Error()
		if errors.Is(err, ErrStoreLocked) {
			s.inUse(in, err)
		}
		return
	}
	defer st.release()
	in.Documents, _ = st.count(ctx, kindContent)
	in.Chunks, _ = st.count(ctx, kindChunk)
}

// inUse marks a listed store as held by another process, with the counts
// it had when last closed.
func (s *Stores) inUse(in *Info, err error) {
	in.Error, in.InUse = err.Error(), true
	c, _ := readCountsAnyway(filepath.Join(s.opts.Root, in.ID))
	in.Documents, in.Chunks = c.Documents, c.Chunks
}

// isOpen reports whether store id is open (or opening) in this process.
func (s *Stores) isOpen(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.open[id]
	return ok
}

func (st *store) count(ctx context.Context, kind string) (uint64, error) {
	q := query.NewTermQuery(kind)
	q.SetField("kind")
	req := bleve.NewSearchRequestOptions(q, 0, 0, false)
	res, err := st.idx.SearchInContext(ctx, req)
	if err != nil {
		return 0, err
	}
	return res.Total, nil
}

// DeleteStore deletes a store and everything in it, a damaged one too; it
// refuses only a store another process has open (ErrStoreLocked). An
// ingest running into the store here is stopped (what it committed goes
// with the store), and until the store is gone every other call on it is
// told it is being deleted.
func (s *Stores) DeleteStore(ctx context.Context, id string) error {
	if !validID(id) {
		return unknownStore(id)
	}
	s.mu.Lock()
	switch {
	case s.closed:
		s.mu.Unlock()
		return ErrClosed
	case s.deleting[id]:
		s.mu.Unlock()
		return errDeleting(id)
	}
	s.deleting[id] = true
	if st := s.open[id]; st != nil && st.cancel != nil {
		st.cancel() // its ingests stop at their next file
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.deleting, id)
		s.mu.Unlock()
	}()
	st, err := s.acquireFor(id, true) // proves no other process has it
	switch {
	case err == nil:
		st.release()
		s.mu.Lock()
		if s.open[id] == st {
			delete(s.open, id)
		}
		if st.idle != nil {
			st.idle.Stop()
		}
		s.mu.Unlock()
		if err := st.close(false); err != nil {
			return err
		}
	case errors.Is(err, ErrStoreLocked), errors.Is(err, ErrUnknownStore), errors.Is(err, ErrClosed):
		return err
	default:
		// It cannot be opened (damaged, or the system refused): nothing of
		// it is open here, and its files go as they are.
	}
	// Rename first: a crash mid-removal leaves trash, not a broken store.
	dir := filepath.Join(s.opts.Root, id)
	trash := filepath.Join(s.opts.Root, fmt.Sprintf("%s%s-%d", trashName, id, time.Now().UnixNano()))
	if err := os.Rename(dir, trash); err != nil {
		return fmt.Errorf("delete store %q: %w", id, err)
	}
	if err := os.RemoveAll(trash); err != nil {
		return fmt.Errorf("delete store %q: %w", id, err)
	}
	return nil
}

// infos reads every store's store.json, sorted by name (naturally).
func (s *Stores) infos() ([]Info, error) {
	ents, err := os.ReadDir(s.opts.Root)
	if err != nil {
		return nil, fmt.Errorf("list stores in %s: %w", s.opts.Root, err)
	}
	var out []Info
	for _, e := range ents {
		if !e.IsDir() || !validID(e.Name()) {
			continue
		}
		in, err := readInfo(filepath.Join(s.opts.Root, e.Name()))
		switch {
		case errors.Is(err, ErrUnknownStore):
			continue // not a store (or one whose creation never finished)
		case err != nil:
			// Listed, so the user sees it, and why, and can delete it.
			in = Info{ID: e.Name(), Name: e.Name(), Error: err.Error()}
		}
		out = append(out, in)
	}
	// By name as people read it: case and accents aside, numbers by value.
	slices.SortFunc(out, func(a, b Info) int { return strings.Compare(sortTitle(a.Name), sortTitle(b.Name)) })
	return out, nil
}

func readInfo(dir string) (Info, error) {
	id := filepath.Base(dir)
	b, err := os.ReadFile(filepath.Join(dir, metaFile))
	if errors.Is(err, fs.ErrNotExist) {
		return Info{}, unknownStore(id)
	}
	if err != nil {
		return Info{}, fmt.Errorf("store %q: %w", id, err)
	}
	var in Info
	if err := json.Unmarshal(b, &in); err != nil {
		return Info{}, fmt.Errorf("store %q: %w", id, damaged("%s cannot be read (%v); delete the store with deleteStore, "+
			"or restore that file from a backup", filepath.Join(dir, metaFile), err))
	}
	in.ID = id
	if in.Analyzer == "" {
		in.Analyzer = DefaultAnalyzer
	}
	return in, nil
}

// writeInfo writes store.json atomically.
func writeInfo(dir string, in Info) error {
	b, err := json.MarshalIndent(struct {
		Name        string    `json:"name"`
		Description string    `json:"description"`
		Analyzer    string    `json:"analyzer"`
		Created     time.Time `json:"created"`
		Schema      int       `json:"schema,omitempty"`
	}{in.Name, in.Description, in.Analyzer, in.Created, in.Schema}, "", "  ")
	if err != nil {
		return err
	}
	if err := writeAtomic(dir, metaFile, append(b, '\n')); err != nil {
		return fmt.Errorf("write store info: %w", err)
	}
	return nil
}

// writeAtomic writes dir/name so that a crash leaves the old file or the
// new one, never a part: a temp file, fsync, rename, fsync of dir.
func writeAtomic(dir, name string, data []byte) error {
	tmp, err := os.CreateTemp(dir, name+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

var (
	idPattern  = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)
	nonSlugRun = regexp.MustCompile(`[^a-z0-9]+`)
)

func validID(id string) bool { return idPattern.MatchString(id) }

// slug makes a store id from a name: "Project Docs" → "project-docs".
func slug(name string) string {
	s := strings.Trim(nonSlugRun.ReplaceAllString(strings.ToLower(name), "-"), "-")
	if len(s) > 40 {
		s = strings.TrimRight(s[:40], "-")
	}
	if s == "" {
		s = "store"
	}
	return s
}

func dirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
