package contentstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
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
	// MaxFileBytes is the largest file addContent accepts (default 10 MiB).
	MaxFileBytes int64
	// OpenTimeout is how long opening a store waits for another process to
	// let go of it before failing with ErrStoreLocked (default 2 s).
	OpenTimeout time.Duration
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
	// Counts, filled in by List.
	Documents uint64 `json:"documents"`
	Chunks    uint64 `json:"chunks"`
	Bytes     int64  `json:"bytes"` // on disk
	// Error says why a listed store cannot be used right now.
	Error string `json:"error,omitempty"`
}

// Stores is the set of content stores under one root directory. Each store
// is a bleve index, opened on first use and held (with its file lock) until
// Close or DeleteStore. Stores is safe for concurrent use: searches run
// while an ingest commits its batches.
type Stores struct {
	opts Options

	createMu sync.Mutex // serializes Create (unique names and ids)

	// done ends with Close, stopping running ingests and searches so Close
	// does not wait for a whole folder.
	done     context.Context
	shutdown context.CancelFunc

	mu     sync.Mutex
	open   map[string]*store
	closed bool
}

// store is one open (or opening) store.
type store struct {
	info  Info
	dir   string
	ready chan struct{} // closed when idx/err are set
	idx   bleve.Index
	err   error

	// life is held shared by every operation and exclusively by close, so a
	// store is never closed under a running search or ingest.
	life sync.RWMutex
	gone bool
	// write serializes ingests and deletions within the store.
	write sync.Mutex
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
	return &Stores{opts: opts, open: map[string]*store{}, done: done, shutdown: shutdown}, nil
}

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
		all = append(all, st)
	}
	s.open = map[string]*store{}
	s.mu.Unlock()
	var errs []error
	for _, st := range all {
		errs = append(errs, st.close())
	}
	return errors.Join(errs...)
}

func (st *store) close() error {
	<-st.ready
	st.life.Lock()
	defer st.life.Unlock()
	if st.gone || st.idx == nil {
		st.gone = true
		return nil
	}
	st.gone = true
	if err := st.idx.Close(); err != nil {
		return fmt.Errorf("close store %q: %w", st.info.ID, err)
	}
	return nil
}

// acquire returns the open store id, holding it against close; the caller
// must call release.
func (s *Stores) acquire(id string) (*store, error) {
	if !validID(id) {
		return nil, unknownStore(id)
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, ErrClosed
	}
	st, ok := s.open[id]
	if !ok {
		dir := filepath.Join(s.opts.Root, id)
		info, err := readInfo(dir)
		if err != nil {
			s.mu.Unlock()
			return nil, err
		}
		st = &store{info: info, dir: dir, ready: make(chan struct{})}
		s.open[id] = st
		s.mu.Unlock()
		st.idx, st.err = s.openIndex(st)
		close(st.ready)
		if st.err != nil {
			// Forget the failure so the next call tries again (the other
			// process may have let go by then).
			s.mu.Lock()
			if s.open[id] == st {
				delete(s.open, id)
			}
			s.mu.Unlock()
		}
	} else {
		s.mu.Unlock()
	}
	<-st.ready
	if st.err != nil {
		return nil, st.err
	}
	st.life.RLock()
	if st.gone {
		st.life.RUnlock()
		if s.isClosed() {
			return nil, ErrClosed
		}
		return nil, unknownStore(id)
	}
	return st, nil
}

func (st *store) release() { st.life.RUnlock() }

// bound returns ctx, also cancelled when s closes.
func (s *Stores) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(s.done, cancel)
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
		idx, err = newIndex(path, st.info.Analyzer, cfg)
	case errors.Is(err, bleve.ErrorIndexMetaMissing), errors.Is(err, bleve.ErrorIndexMetaCorrupt):
		idx, err = reopenWithoutMeta(path, st.info.Analyzer, cfg)
	}
	if err != nil {
		return nil, &OpenError{Store: st.info.ID, Path: path, Err: classify(err)}
	}
	return idx, nil
}

func newIndex(path, analyzer string, cfg map[string]any) (bleve.Index, error) {
	return bleve.NewUsing(path, newMapping(analyzer), bleve.Config.DefaultIndexType, bleve.Config.DefaultKVStore, cfg)
}

// reopenWithoutMeta opens an index whose index_meta.json is missing or
// unreadable. That file only names the index type and storage, both this
// package's defaults, while everything stored (documents, their text, the
// mapping) is in index/store. A directory holding no file is what a crash
// during Create leaves: it is made anew. One holding a scorch root
// (store/root.bolt) gets its meta file written again and is opened with
// everything in it. Anything else is damage, and is left as it is.
func reopenWithoutMeta(path, analyzer string, cfg map[string]any) (bleve.Index, error) {
	if !holdsFiles(path) {
		if err := os.RemoveAll(path); err != nil {
			return nil, err
		}
		return newIndex(path, analyzer, cfg)
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
	info := Info{ID: id, Name: name, Description: description, Analyzer: analyzer, Created: time.Now().UTC().Truncate(time.Second)}
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
		wg.Go(func() {
			in := &infos[i]
			in.Bytes = dirSize(filepath.Join(s.opts.Root, in.ID))
			if in.Error != "" {
				return // its store.json cannot be read
			}
			st, err := s.acquire(in.ID)
			if err != nil {
				in.Error = err.Error()
				return
			}
			defer st.release()
			in.Documents, _ = st.count(ctx, kindContent)
			in.Chunks, _ = st.count(ctx, kindChunk)
		})
	}
	wg.Wait()
	return infos, nil
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
// refuses only a store another process has open (ErrStoreLocked).
func (s *Stores) DeleteStore(ctx context.Context, id string) error {
	st, err := s.acquire(id) // proves no other process has it
	switch {
	case err == nil:
		st.release()
		s.mu.Lock()
		if s.open[id] == st {
			delete(s.open, id)
		}
		s.mu.Unlock()
		if err := st.close(); err != nil {
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

// infos reads every store's store.json, sorted by name.
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
	slices.SortFunc(out, func(a, b Info) int { return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) })
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
	}{in.Name, in.Description, in.Analyzer, in.Created}, "", "  ")
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
