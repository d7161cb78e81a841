package history

import (
	"context"
	"log/slog"
	"strconv"
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
// put back with its text, tools and calls as they are now; one whose
// message was deleted meanwhile is only taken out. The tools column is what
// v2's triggers wrote: the message's calls as "server tool" pairs. The
// calls column (v7) is each call's arguments and the text parts of its
// result, the first indexedCallChars characters of each: the tool card
// shows the rest, and a result of megabytes would make the index as large.
// A result that is not JSON (none the app writes) is left out, not an
// error that would stop every message from being indexed.
const (
	qAnyPending    = `SELECT EXISTS (SELECT 1 FROM search_pending)`
	qUnindexStale  = `DELETE FROM search WHERE rowid IN (SELECT pk FROM search_pending)`
	qForgetPending = `DELETE FROM search_pending`
)

// indexedCallChars is how much of each tool call (its arguments, then its
// result's text) the search index holds.
const indexedCallChars = 100_000

// qIndexPending is the indexing statement (see above).
var qIndexPending = `INSERT INTO search (rowid, body, tools, calls)
		SELECT m.pk, m.text,
			coalesce((SELECT group_concat(t.server || ' ' || t.tool, ' ') FROM tool_calls t WHERE t.message_id = m.id), ''),
			coalesce((SELECT group_concat(substr(coalesce(t.arguments, '') || ' ' || coalesce((
					SELECT group_concat(json_extract(c.value, '$.text'), ' ')
					FROM json_each(CASE WHEN json_valid(t.result) THEN t.result ELSE '{}' END, '$.content') c
					WHERE json_extract(c.value, '$.type') = 'text'), ''), 1, ` + strconv.Itoa(indexedCallChars) + `), ' ')
				FROM tool_calls t WHERE t.message_id = m.id), '')
		FROM search_pending p JOIN messages m ON m.pk = p.pk`

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
