package history

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// The schema's history: migrations/NNNN_name.sql, applied in order. The
// database's PRAGMA user_version is the number of the last one applied.
// Never edit a released file; add the next one.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// migration is one schema step.
type migration struct {
	version int
	name    string
	sql     string
}

// migrations are the embedded steps, version i+1 at index i.
var migrations = mustLoadMigrations(migrationFiles)

// SchemaVersion is the schema version this build writes.
var SchemaVersion = len(migrations)

// mustLoadMigrations reads the embedded files and checks they are numbered
// 1, 2, 3… with no gap, so a misnamed file fails every test at once.
func mustLoadMigrations(fsys fs.FS) []migration {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		panic(err)
	}
	var out []migration
	for i, name := range names { // fs.Glob sorts, and the numbers are zero-padded
		base := path.Base(name)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v != i+1 {
			panic(fmt.Sprintf("history: migration %s: want a name starting %04d_", name, i+1))
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			panic(err)
		}
		out = append(out, migration{version: v, name: strings.TrimSuffix(base, ".sql"), sql: string(b)})
	}
	return out
}

// migrate applies steps up to version target, each in its own transaction
// that also records its number, so a failed or interrupted step leaves the
// database at the previous version.
func (s *Store) migrate(ctx context.Context, steps []migration, target int) error {
	for {
		done, err := s.migrateOne(ctx, steps, target)
		if err != nil || done {
			return err
		}
	}
}

// migrateOne applies the next step, reading the version inside the write
// transaction: another process may have migrated meanwhile.
func (s *Store) migrateOne(ctx context.Context, steps []migration, target int) (done bool, err error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, s.openError("migrate", err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	var version int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return false, s.openError("migrate", err)
	}
	if version > len(steps) {
		return false, &Error{Op: "migrate", Path: s.path, Err: fmt.Errorf("%w (schema v%d, this build knows v%d); update Switchboard", ErrTooNew, version, len(steps))}
	}
	if version >= target {
		return true, tx.Rollback()
	}
	m := steps[version]
	if err := apply(ctx, tx, m); err != nil {
		return false, &Error{Op: "migrate", Path: s.path, Err: fmt.Errorf("could not be upgraded to schema v%d (%s); it is unchanged, report this to Switchboard's developers: %w", m.version, m.name, err)}
	}
	if err := tx.Commit(); err != nil {
		return false, s.openError("migrate", err)
	}
	return false, nil
}

func apply(ctx context.Context, tx *sql.Tx, m migration) error {
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return err
	}
	// PRAGMA takes no bound parameters; the version is our own integer.
	_, err := tx.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(m.version))
	return err
}
