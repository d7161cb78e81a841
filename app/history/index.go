package history

import (
	"context"
	"log/slog"
	"time"
)

// IndexDelay is how long after a write the store brings the search index up
// to date (see indexPending); writes within it are indexed together. Search
// and Close do it at once. A var so tests can change it.
var IndexDelay = 2 * time.Second

// indexPassed, when set (by tests, before Open), is called after each pass
// of indexLoop with its error.
var indexPassed func(error)

// Statements of indexPending. A noted message is taken out of the index and
// put back with its text and tools as they are now; one whose message was
// deleted meanwhile is only taken out. The tools column is what v2's
// triggers wrote: the message's calls as "server tool" pairs.
const (
	qAnyPending   = `SELECT EXISTS (SELECT 1 FROM search_pending)`
	qUnindexStale = `DELETE FROM search WHERE rowid IN (SELECT pk FROM search_pending)`
	qIndexPending = `INSERT INTO search (rowid, body, tools)
		SELECT m.pk, m.text, coalesce((SELECT group_concat(t.server || ' ' || t.tool, ' ') FROM tool_calls t WHERE t.message_id = m.id), '')
		FROM search_pending p JOIN messages m ON m.pk = p.pk`
	qForgetPending = `DELETE FROM search_pending`
)

// indexPending indexes the messages that writes noted in search_pending
// (migrations/0006_search_later.sql), in one transaction, so the index
// holds every message as stored. It is cheap when nothing is noted. A
// chat step's writes only note their messages: indexing them there cost a
// segment of the index per commit, about 0.35 ms of a step.
func (s *Store) indexPending(ctx context.Context) error {
	var noted bool
	if err := s.db.QueryRowContext(ctx, qAnyPending).Scan(&noted); err != nil || !noted {
		return err
	}
	return s.commit(ctx, func(tx wtx) error {
		for _, q := range []string{qUnindexStale, qIndexPending, qForgetPending} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
}

// noteWrite tells the indexer a write committed; it never blocks.
func (s *Store) noteWrite() {
	select {
	case s.wrote <- struct{}{}:
	default: // a pass is already due
	}
}

// indexLoop brings the index up to date IndexDelay after a write, until ctx
// ends. Open starts it; Close stops it and indexes what is left.
func (s *Store) indexLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.wrote:
		}
		t := time.NewTimer(IndexDelay)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		err := s.indexPending(ctx)
		if err != nil && ctx.Err() == nil {
			// The notes stay; the next pass, Search or Close retries.
			slog.Warn("history: update the search index", slog.String("path", s.path), slog.Any("err", err))
		}
		if indexPassed != nil {
			indexPassed(err)
		}
	}
}
