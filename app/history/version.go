package history

import (
	"context"
	"fmt"
)

// DataVersion is a number that changes when another process (the CLI, a
// second window) commits to the database, and only then: the window reads
// it every second or so to show what others wrote, cheaply (SQLite's
// PRAGMA data_version reads the WAL's shared header, no table). Compare
// two values for equality only; the number says nothing about how many
// commits there were.
//
// It is read on the connection this Store writes with, which is what keeps
// this Store's own writes out of it: SQLite changes a connection's
// data_version for commits of every other connection, this process's
// pooled ones included.
func (s *Store) DataVersion(ctx context.Context) (int64, error) {
	// Not inside a write of ours that is still running on the connection.
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	var v int64
	if err := s.wc.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("history database %s: read its data version: %w", s.path, err)
	}
	return v, nil
}
