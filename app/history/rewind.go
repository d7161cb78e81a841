package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Rewind takes a chat back to one of its user messages, for retrying an
// answer and for editing a sent message and sending it again: the message
// gets text (empty keeps its text) and every message after it, with their
// tool calls, is deleted. messageID "" is the chat's last user message.
// It returns the message as stored. All of it is one transaction, so a
// crash leaves the chat either as it was or rewound, never half-deleted.
//
// ErrNotFound when the chat has no such message (or no user message);
// ErrInvalid when the message is not the user's.
func (s *Store) Rewind(ctx context.Context, chatID, messageID, text string) (Message, error) {
	var m Message
	err := s.write(ctx, func(tx wtx) error {
		q := `SELECT id, seq, role, text, status, error, model, input_tokens, output_tokens, created_at
			FROM messages WHERE chat_id = ?1 AND id = ?2`
		if messageID == "" {
			q = `SELECT id, seq, role, text, status, error, model, input_tokens, output_tokens, created_at
				FROM messages WHERE chat_id = ?1 AND role = 'user' AND ?2 = '' ORDER BY seq DESC LIMIT 1`
		}
		var created int64
		err := tx.QueryRowContext(ctx, q, chatID, messageID).Scan(&m.ID, &m.Seq, &m.Role, &m.Text, &m.Status, &m.Error,
			&m.Model, &m.InputTokens, &m.OutputTokens, &created)
		if errors.Is(err, sql.ErrNoRows) {
			if messageID == "" {
				return fmt.Errorf("no message of the user: %w", ErrNotFound)
			}
			return fmt.Errorf("message %q: %w", messageID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		if m.Role != RoleUser {
			return fmt.Errorf("message %q is the %s's, not the user's: %w", m.ID, m.Role, ErrInvalid)
		}
		m.ChatID, m.CreatedAt = chatID, fromMillis(created)
		if text != "" && text != m.Text {
			if _, err := tx.ExecContext(ctx, `UPDATE messages SET text = ? WHERE id = ?`, text, m.ID); err != nil {
				return err
			}
			m.Text = text
		}
		// Tool calls go with their messages (ON DELETE CASCADE), and the
		// search index with both (its triggers).
		if _, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE chat_id = ? AND seq > ?`, chatID, m.Seq); err != nil {
			return err
		}
		return touchChat(ctx, tx, chatID, s.now())
	})
	if err != nil {
		return Message{}, fmt.Errorf("rewind chat %q: %w", chatID, err)
	}
	return m, nil
}
