// Package history is Switchboard's chat history: chats, their messages and
// the tool calls made while answering, kept in one SQLite database
// (history.db in the data directory) with a full-text index over message
// text, tool names, the tool calls' arguments and results (the text of
// each, its first 100,000 characters) and chat titles.
//
// Open the database, CreateChat, AppendMessage and UpdateMessage as a turn
// streams, SaveToolCall for each call (or AppendMessageAfter: the next
// message and the earlier calls' results in one write), Search and Export.
// See Example.
//
// Durability: the database runs in WAL mode with synchronous=FULL, so a write
// that returned survives a crash of the process or the machine. Every write
// is one transaction.
//
// FULL is kept on purpose, though each commit then waits for an fsync of
// the WAL (about 0.5 ms on the project's bench machine: the larger part of
// what the chat engine adds to a step with a fast model, see
// BENCHMARKS.md). WAL with synchronous=NORMAL
// keeps every commit through a crash of the process (the WAL is in the OS's
// cache) and the file consistent, but syncs the WAL only at checkpoints: a
// power loss or a kernel crash takes back every commit since the last one,
// which can be many turns, not only the last write. The chat engine stores
// a step's tool calls before they run so that history never loses a call
// whose effect (a file written, a message sent) survives; under NORMAL a
// power loss could keep the effect and drop the call. TestCrashDurability
// kills a writer with SIGKILL and finds every acknowledged write.
//
// The search index follows the writes: a write notes its messages in the
// same transaction, and the store indexes what is noted IndexDelay later in
// one transaction, at once before a Search, and when it closes (a chat step
// commits two or three times, and indexing in each commit cost about a
// fifth of what the engine adds to a step). A crash loses no note; the next
// Open indexes them.
//
// Concurrency: a Store is safe for concurrent use. Writes from one process are
// serialised by a mutex (so they queue instead of polling SQLite's lock);
// writes from another process (the CLI while the GUI runs) wait up to
// BusyTimeout for the lock. Reads run in parallel with writes and each read
// sees one consistent snapshot. A Store's writes all run on one connection
// of its pool, so DataVersion, read there, changes with other processes'
// commits only: the window follows what 'switchboard chat' writes by it.
//
// Times are stored to the millisecond and returned in UTC.
package history

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// BusyTimeout is how long a write waits for another process holding the
// database lock before it fails with ErrLocked. Open reads it; a var so
// tests can shorten it.
var BusyTimeout = 5 * time.Second

// CacheKiB is each pooled connection's page cache (SQLite's cache_size),
// an eighth of SQLite's default 2,000 KiB. The file's pages stay in the
// operating system's cache, so a page SQLite does not keep costs a read
// from memory, not from the disk. With the default, the connections'
// caches filled as the database grew: the window kept 4–5 MB more after a
// day of 1,000 chat turns, with no step or chat shown any quicker for it
// (BENCHMARKS.md).
const CacheKiB = 256

// Sentinel errors. Open failures come wrapped in *Error; the rest are wrapped
// with the id or value concerned, so errors.Is works on every returned error.
var (
	// ErrNotFound: no chat or message has the id (the wrapping error says which).
	ErrNotFound = errors.New("not found")
	// ErrInvalid: a value passed in cannot be stored (unknown role, status or
	// format, settings that are not JSON, a tool call without an id).
	ErrInvalid = errors.New("invalid value")
	// ErrTooNew: the database was written by a newer Switchboard whose schema
	// this build does not know. Phrased to follow "history database PATH".
	ErrTooNew = errors.New("is newer than this Switchboard")
	// ErrNotDatabase: the file exists but is not a Switchboard history
	// database (or is damaged beyond SQLite's recognition).
	ErrNotDatabase = errors.New("is not a Switchboard history database")
	// ErrLocked: another process kept the database locked for BusyTimeout.
	ErrLocked = errors.New("is locked by another Switchboard process")
)

// Error is an open or migration failure of the database at Path. Its message
// is one sentence for the user: "history database PATH <what happened>; <what to do>".
type Error struct {
	Op   string // "open" or "migrate"
	Path string
	Err  error // phrased to follow the path, e.g. "is newer than this Switchboard (...)"
}

func (e *Error) Error() string { return "history database " + e.Path + " " + e.Err.Error() }

func (e *Error) Unwrap() error { return e.Err }

// applicationID marks the file as Switchboard's ("SWBH"), so Open can refuse
// an unrelated SQLite database instead of adding tables to it.
const applicationID = 0x53574248

// Store is an open history database. Safe for concurrent use.
type Store struct {
	db   *sql.DB
	path string

	// writeMu serialises this process's writes; see the package doc.
	writeMu sync.Mutex
	// wc is the one connection every write of this Store runs on (under
	// writeMu, so one is all they need): SQLite's data_version on it then
	// changes only with another process's commits (see DataVersion).
	wc *sql.Conn

	// now and loc are the clock and the time zone of Markdown exports;
	// tests replace them for deterministic results.
	now func() time.Time
	loc *time.Location

	// stmts are hotWrites (see wtx) and hotReads prepared, by their SQL;
	// read-only after Open.
	stmts map[string]*sql.Stmt

	// wrote wakes indexLoop after a write (buffered 1); stop and loops
	// end it (see Open and Close).
	wrote chan struct{}
	stop  context.CancelFunc
	loops sync.WaitGroup

	closeOnce sync.Once
	closeErr  error
}

// Open opens the history database at path, creating it and its parent
// directory (0700) when missing, and upgrades its schema to the newest this
// build knows. The error is an *Error whose message says what to do.
func Open(ctx context.Context, path string) (*Store, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, &Error{Op: "open", Path: path, Err: fmt.Errorf("has no usable path: %w", err)}
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, &Error{Op: "open", Path: abs, Err: fmt.Errorf("cannot be created; check the data directory's permissions: %w", err)}
	}
	// Create the file ourselves so it is private to the user: SQLite would
	// use 0644, and gives its -wal and -shm files the main file's mode.
	f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, &Error{Op: "open", Path: abs, Err: fmt.Errorf("cannot be opened; check its permissions: %w", err)}
	}
	_ = f.Close()

	db, err := sql.Open("sqlite", dsn(abs))
	if err != nil {
		return nil, &Error{Op: "open", Path: abs, Err: fmt.Errorf("cannot be opened: %w", err)}
	}
	s := &Store{db: db, path: abs, now: time.Now, loc: time.Local}
	if err := s.init(ctx); err != nil {
		_ = db.Close()
		return nil, err
	}
	if err := s.prepare(ctx); err != nil {
		_ = db.Close()
		return nil, err
	}
	if s.wc, err = db.Conn(ctx); err != nil {
		_ = db.Close()
		return nil, s.openError("open", err)
	}
	loopCtx, stop := context.WithCancel(context.Background())
	s.wrote, s.stop = make(chan struct{}, 1), stop
	s.loops.Go(func() { s.indexLoop(loopCtx) })
	s.noteWrite() // index what an earlier run left noted (a crash, a busy close)
	return s, nil
}

// dsn is the driver's data source name: a file: URI (so any character in the
// path is escaped) and the settings every pooled connection needs.
func dsn(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // Windows: C:/x becomes /C:/x, as SQLite's URI rules want
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", BusyTimeout.Milliseconds()))
	// FULL, not NORMAL: a write that returned is on disk, through a power
	// loss too (see the package doc for why the fsync is worth its cost).
	q.Add("_pragma", "synchronous(FULL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", fmt.Sprintf("cache_size(-%d)", CacheKiB)) // negative: KiB, not pages
	// Write transactions take the lock when they begin: a deferred one that
	// reads first and then upgrades can fail with SQLITE_BUSY without waiting.
	q.Set("_txlock", "immediate")
	return (&url.URL{Scheme: "file", Path: p, RawQuery: q.Encode()}).String()
}

// init checks the file is ours, switches it to WAL and migrates it.
func (s *Store) init(ctx context.Context) error {
	var appID, version int
	if err := s.db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID); err != nil {
		return s.openError("open", err)
	}
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return s.openError("open", err)
	}
	if appID != applicationID && (appID != 0 || version != 0) {
		return &Error{Op: "open", Path: s.path, Err: fmt.Errorf("%w (it belongs to another program); move it aside and restart", ErrNotDatabase)}
	}
	if appID == 0 {
		var tables int
		if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&tables); err != nil {
			return s.openError("open", err)
		}
		if tables > 0 {
			return &Error{Op: "open", Path: s.path, Err: fmt.Errorf("%w (it holds another program's tables); move it aside and restart", ErrNotDatabase)}
		}
	}
	// WAL is a property of the file, so setting it once here covers every
	// pooled connection; it is set only after the checks above so that a
	// refused file is left exactly as it was.
	var mode string
	if err := s.db.QueryRowContext(ctx, "PRAGMA journal_mode = WAL").Scan(&mode); err != nil {
		return s.openError("open", err)
	}
	if !strings.EqualFold(mode, "wal") {
		return &Error{Op: "open", Path: s.path, Err: fmt.Errorf("cannot use write-ahead logging (journal mode %q); keep the data directory on a local disk", mode)}
	}
	return s.migrate(ctx, migrations, len(migrations))
}

// openError turns a driver error met while opening into an *Error.
func (s *Store) openError(op string, err error) error {
	switch code := sqliteCode(err); code {
	case sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT:
		return &Error{Op: op, Path: s.path, Err: fmt.Errorf("%w; move it aside and restart: %w", ErrNotDatabase, err)}
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return &Error{Op: op, Path: s.path, Err: fmt.Errorf("%w; close other Switchboard windows or commands and retry: %w", ErrLocked, err)}
	case sqlite3.SQLITE_FULL:
		return &Error{Op: op, Path: s.path, Err: fmt.Errorf("cannot be written because the disk is full; free some space and restart: %w", err)}
	case sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM:
		return &Error{Op: op, Path: s.path, Err: fmt.Errorf("cannot be opened for writing; check its permissions: %w", err)}
	}
	return &Error{Op: op, Path: s.path, Err: fmt.Errorf("cannot be opened: %w", err)}
}

// sqliteCode is the primary result code of a driver error, or 0.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() & 0xff
	}
	return 0
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Close closes the database; later calls return the first call's result.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), BusyTimeout)
		defer cancel()
		if s.stop != nil { // opened by Open, so at this build's schema
			s.stop()
			s.loops.Wait()
			// What is left is indexed on the next Open when this fails.
			if err := s.indexPending(ctx); err != nil {
				slog.Warn("history: update the search index before close", slog.String("path", s.path), slog.Any("err", err))
			}
		}
		// Lets SQLite refresh its query-planner statistics, as its docs
		// recommend before closing; failing it loses nothing.
		if _, err := s.db.ExecContext(ctx, "PRAGMA optimize"); err != nil {
			slog.Debug("history: optimize before close", slog.Any("err", err))
		}
		for _, st := range s.stmts {
			_ = st.Close() // a write still running keeps its own until it ends
		}
		if s.wc != nil {
			_ = s.wc.Close() // back to the pool, which closes it next
		}
		s.closeErr = s.db.Close()
	})
	return s.closeErr
}

// write runs fn in one write transaction, serialised with this process's
// other writes, and commits it; the search index follows shortly (see
// indexPending).
func (s *Store) write(ctx context.Context, fn func(tx wtx) error) error {
	if err := s.commit(ctx, fn); err != nil {
		return err
	}
	s.noteWrite()
	return nil
}

// commit is write without waking the indexer.
func (s *Store) commit(ctx context.Context, fn func(tx wtx) error) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	tx, err := s.wc.BeginTx(ctx, nil)
	if err != nil {
		return s.writeError(err)
	}
	if err := fn(wtx{tx, s}); err != nil {
		_ = tx.Rollback()
		return s.writeError(err)
	}
	if err := tx.Commit(); err != nil {
		return s.writeError(err)
	}
	return nil
}

// wtx is a write transaction whose ExecContext and QueryRowContext run the
// statements of hotWrites prepared: a chat step writes the same few
// statements every time, and parsing their SQL again cost more CPU than
// running them (about 0.6 ms a step in app/chat's bench). Any other
// statement runs as it would on the *sql.Tx.
type wtx struct {
	*sql.Tx
	s *Store
}

func (t wtx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := t.s.stmts[query]; st != nil {
		return t.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return t.Tx.ExecContext(ctx, query, args...)
}

func (t wtx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := t.s.stmts[query]; st != nil {
		return t.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return t.Tx.QueryRowContext(ctx, query, args...)
}

// prepare prepares hotWrites and hotReads once, when the store opens: preparing on the
// database takes a pooled connection, which a write transaction already
// holding the pool's last one would wait for. database/sql then keeps a
// prepared statement per connection, and Tx.StmtContext reuses the one of
// the transaction's connection. The map is read-only afterwards.
func (s *Store) prepare(ctx context.Context) error {
	s.stmts = make(map[string]*sql.Stmt, len(hotWrites)+len(hotReads))
	for _, q := range append(slices.Clip(hotWrites), hotReads...) {
		st, err := s.db.PrepareContext(ctx, q)
		if err != nil {
			return s.openError("open", err)
		}
		s.stmts[q] = st
	}
	return nil
}

// writeError adds what to do to the driver errors a user can act on.
func (s *Store) writeError(err error) error {
	switch sqliteCode(err) {
	case sqlite3.SQLITE_FULL:
		return fmt.Errorf("the disk holding %s is full; free some space and retry: %w", s.path, err)
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return fmt.Errorf("history database %s %w; close other Switchboard windows or commands and retry: %w", s.path, ErrLocked, err)
	case sqlite3.SQLITE_READONLY:
		return fmt.Errorf("history database %s is read-only; check its permissions: %w", s.path, err)
	}
	return err
}

// newID returns a random id (26 base32 characters, 130 bits).
func newID() string { return strings.ToLower(rand.Text()) }

// millis and fromMillis convert between time.Time and the stored integers;
// zero times are stored as 0 and read back as zero times.
func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// rawOrNull stores an empty json.RawMessage as NULL.
func rawOrNull(r json.RawMessage) any {
	if len(r) == 0 {
		return nil
	}
	return string(r)
}

// toRaw reads a nullable JSON column.
func toRaw(s sql.NullString) json.RawMessage {
	if !s.Valid || s.String == "" {
		return nil
	}
	return json.RawMessage(s.String)
}
