package history

import (
	"context"
	"fmt"
	"strings"
	"unicode"
)

// Snippet markers: matched words are wrapped in MarkStart…MarkEnd and cut
// text is shown as Ellipsis, as the content store's search does. A snippet is
// plain text otherwise: render it as text split at the markers, never as
// HTML (message text may itself contain markup).
const (
	MarkStart = "<mark>"
	MarkEnd   = "</mark>"
	Ellipsis  = "…"
)

// Search limits.
const (
	DefaultSearchLimit = 50
	MaxSearchLimit     = 500
)

// Hit is one search result: a message (MessageID set) or a chat's title
// (MessageID empty). Rank is the match's score (FTS5's bm25, negated):
// higher is better; title matches weigh more than text matches.
type Hit struct {
	ChatID    string  `json:"chatId"`
	Title     string  `json:"title"`
	MessageID string  `json:"messageId"`
	Snippet   string  `json:"snippet"`
	Rank      float64 `json:"rank"`
}

// Search finds messages (by text, by the names of the tools they called, or
// by those calls' arguments and results) and chats (by title) holding every
// word of query, best first. The words must all be in one message (its
// calls included) or all in one title; the last word also matches as a prefix,
// so results can follow typing. query is plain words: quotes, operators and
// punctuation match literally or separate words, never cause an error. A
// query with no words returns no hits. limit <= 0 means DefaultSearchLimit.
func (s *Store) Search(ctx context.Context, query string, limit int) ([]Hit, error) {
	match := matchExpr(query)
	if match == "" {
		return nil, nil
	}
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	limit = min(limit, MaxSearchLimit)
	// Writes index their messages a moment later (indexPending): do it now,
	// so a search finds every message stored before it.
	if err := s.indexPending(ctx); err != nil {
		return nil, fmt.Errorf("search history for %q: update the index: %w", query, s.writeError(err))
	}
	// Chat rows have rowid -chats.pk, message rows messages.pk (see
	// migrations/0002_search.sql). Weights: title, body, tools, calls.
	rows, err := s.db.QueryContext(ctx, `SELECT
			coalesce(c.id, mc.id), coalesce(c.title, mc.title), coalesce(m.id, ''),
			snippet(search, -1, ?, ?, ?, 16), -bm25(search, 4.0, 1.0, 2.0, 0.5) AS score
		FROM search
		LEFT JOIN chats c ON search.rowid < 0 AND c.pk = -search.rowid
		LEFT JOIN messages m ON search.rowid > 0 AND m.pk = search.rowid
		LEFT JOIN chats mc ON mc.id = m.chat_id
		WHERE search MATCH ?
		ORDER BY score DESC, search.rowid
		LIMIT ?`, MarkStart, MarkEnd, Ellipsis, match, limit)
	if err != nil {
		return nil, fmt.Errorf("search history for %q: %w", query, err)
	}
	defer rows.Close()
	var out []Hit
	for rows.Next() {
		var h Hit
		if err := rows.Scan(&h.ChatID, &h.Title, &h.MessageID, &h.Snippet, &h.Rank); err != nil {
			return nil, fmt.Errorf("search history for %q: %w", query, err)
		}
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("search history for %q: %w", query, err)
	}
	return out, nil
}

// matchExpr turns user text into an FTS5 expression that cannot be a syntax
// error: each whitespace-separated word becomes a quoted phrase of its
// letters and digits (so "foo:bar" is the phrase "foo bar", and AND, OR,
// NOT, NEAR are plain words), phrases are ANDed, and the last one is a
// prefix. Characters dropped are ones the unicode61 tokenizer treats as
// separators anyway, and no quote can survive into a phrase.
func matchExpr(query string) string {
	var phrases []string
	for _, word := range strings.Fields(query) {
		tokens := strings.Fields(strings.Map(func(r rune) rune {
			if unicode.In(r, unicode.L, unicode.N, unicode.Mn, unicode.Mc, unicode.Co) {
				return r
			}
			return ' '
		}, word))
		if len(tokens) > 0 {
			phrases = append(phrases, `"`+strings.Join(tokens, " ")+`"`)
		}
	}
	if len(phrases) == 0 {
		return ""
	}
	phrases[len(phrases)-1] += "*"
	return strings.Join(phrases, " ")
}
