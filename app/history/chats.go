package history

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Chat is one conversation. Settings is opaque to this package (the app keeps
// the chat's active servers and tools there); it must be valid JSON or empty.
type Chat struct {
	ID       string          `json:"id"`
	Title    string          `json:"title"`
	Provider string          `json:"provider"`
	Model    string          `json:"model"`
	Agent    string          `json:"agent"`
	Settings json.RawMessage `json:"settings"`
	// CreatedAt is set by CreateChat when zero. UpdatedAt moves on every
	// change to the chat or its messages; ListChats sorts by it.
	CreatedAt    time.Time `json:"createdAt"`
	UpdatedAt    time.Time `json:"updatedAt"`
	MessageCount int       `json:"messageCount"` // read-only
}

// ListOptions pages through ListChats. Limit <= 0 means no limit.
type ListOptions struct {
	Limit  int `json:"limit"`
	Offset int `json:"offset"`
}

// chatColumns matches scanChat; MessageCount is counted, not stored.
const chatColumns = `c.id, c.title, c.provider, c.model, c.agent, c.settings, c.created_at, c.updated_at,
	(SELECT count(*) FROM messages m WHERE m.chat_id = c.id)`

type scanner interface{ Scan(dest ...any) error }

func scanChat(r scanner) (Chat, error) {
	var (
		c                Chat
		settings         sql.NullString
		created, updated int64
	)
	if err := r.Scan(&c.ID, &c.Title, &c.Provider, &c.Model, &c.Agent, &settings, &created, &updated, &c.MessageCount); err != nil {
		return Chat{}, err
	}
	c.Settings = toRaw(settings)
	c.CreatedAt, c.UpdatedAt = fromMillis(created), fromMillis(updated)
	return c, nil
}

// CreateChat stores a new chat and returns it as stored. An empty ID is
// generated, a zero CreatedAt is now; UpdatedAt is CreatedAt.
func (s *Store) CreateChat(ctx context.Context, c Chat) (Chat, error) {
	if len(c.Settings) > 0 && !json.Valid(c.Settings) {
		return Chat{}, fmt.Errorf("create chat: settings are not JSON: %w", ErrInvalid)
	}
	if c.ID == "" {
		c.ID = newID()
	}
	if c.CreatedAt.IsZero() {
		c.CreatedAt = s.now()
	}
	c.CreatedAt = fromMillis(millis(c.CreatedAt))
	c.UpdatedAt, c.MessageCount = c.CreatedAt, 0
	err := s.write(ctx, func(tx wtx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO chats (id, title, provider, model, agent, settings, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			c.ID, c.Title, c.Provider, c.Model, c.Agent, rawOrNull(c.Settings), millis(c.CreatedAt), millis(c.UpdatedAt))
		return err
	})
	if err != nil {
		return Chat{}, fmt.Errorf("create chat %q: %w", c.ID, err)
	}
	return c, nil
}

// Chat returns one chat; ErrNotFound when no chat has the id.
func (s *Store) Chat(ctx context.Context, id string) (Chat, error) {
	c, err := scanChat(s.db.QueryRowContext(ctx, `SELECT `+chatColumns+` FROM chats c WHERE c.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Chat{}, fmt.Errorf("chat %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return Chat{}, fmt.Errorf("read chat %q: %w", id, err)
	}
	return c, nil
}

// ListChats returns chats most recently updated first.
func (s *Store) ListChats(ctx context.Context, o ListOptions) ([]Chat, error) {
	limit := o.Limit
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+chatColumns+` FROM chats c
		ORDER BY c.updated_at DESC, c.pk DESC LIMIT ? OFFSET ?`, limit, max(o.Offset, 0))
	if err != nil {
		return nil, fmt.Errorf("list chats: %w", err)
	}
	defer rows.Close()
	var out []Chat
	for rows.Next() {
		c, err := scanChat(rows)
		if err != nil {
			return nil, fmt.Errorf("list chats: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list chats: %w", err)
	}
	return out, nil
}

// RenameChat sets a chat's title.
func (s *Store) RenameChat(ctx context.Context, id, title string) error {
	return s.updateChat(ctx, "rename chat", id, `UPDATE chats SET title = ?, updated_at = ? WHERE id = ?`, title, millis(s.now()), id)
}

// UpdateChatSettings replaces a chat's provider, model and settings.
func (s *Store) UpdateChatSettings(ctx context.Context, id, provider, model string, settings json.RawMessage) error {
	if len(settings) > 0 && !json.Valid(settings) {
		return fmt.Errorf("update chat %q: settings are not JSON: %w", id, ErrInvalid)
	}
	return s.updateChat(ctx, "update chat", id, `UPDATE chats SET provider = ?, model = ?, settings = ?, updated_at = ? WHERE id = ?`,
		provider, model, rawOrNull(settings), millis(s.now()), id)
}

// UpdateChatModel sets a chat's provider and model only: a change of its
// settings made meanwhile (UpdateChatOptions) is kept.
func (s *Store) UpdateChatModel(ctx context.Context, id, provider, model string) error {
	return s.updateChat(ctx, "update chat", id, `UPDATE chats SET provider = ?, model = ?, updated_at = ? WHERE id = ?`,
		provider, model, millis(s.now()), id)
}

// UpdateChatOptions sets a chat's settings only: a change of its model
// made meanwhile (UpdateChatModel) is kept.
func (s *Store) UpdateChatOptions(ctx context.Context, id string, settings json.RawMessage) error {
	if len(settings) > 0 && !json.Valid(settings) {
		return fmt.Errorf("update chat %q: settings are not JSON: %w", id, ErrInvalid)
	}
	return s.updateChat(ctx, "update chat", id, `UPDATE chats SET settings = ?, updated_at = ? WHERE id = ?`,
		rawOrNull(settings), millis(s.now()), id)
}

// DeleteChat deletes a chat with its messages and tool calls.
func (s *Store) DeleteChat(ctx context.Context, id string) error {
	return s.updateChat(ctx, "delete chat", id, `DELETE FROM chats WHERE id = ?`, id)
}

// updateChat runs one statement on one chat; ErrNotFound when it touched none.
func (s *Store) updateChat(ctx context.Context, op, id, query string, args ...any) error {
	err := s.write(ctx, func(tx wtx) error {
		res, err := tx.ExecContext(ctx, query, args...)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return ErrNotFound
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s %q: %w", op, id, err)
	}
	return nil
}

// ServerUsage counts, per server, the chats that called one of its tools.
func (s *Store) ServerUsage(ctx context.Context) (map[string]int, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT t.server, count(DISTINCT m.chat_id)
		FROM tool_calls t JOIN messages m ON m.id = t.message_id
		WHERE t.server != '' GROUP BY t.server`)
	if err != nil {
		return nil, fmt.Errorf("server usage: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var server string
		var n int
		if err := rows.Scan(&server, &n); err != nil {
			return nil, fmt.Errorf("server usage: %w", err)
		}
		out[server] = n
	}
	return out, rows.Err()
}
