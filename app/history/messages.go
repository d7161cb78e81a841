package history

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Message roles.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleSystem    = "system"
	// RoleSummary is a compaction's summary: the model gets its text
	// instead of every message before it (which stay in the history,
	// searchable and exported); see Recent.
	RoleSummary = "summary"
)

// Message statuses. An assistant message is appended as StatusIncomplete when
// its stream starts and updated when it ends; one still incomplete after a
// restart was cut off.
const (
	StatusComplete   = "complete"
	StatusIncomplete = "incomplete"
	StatusError      = "error"
	StatusCancelled  = "cancelled"
)

// Tool call statuses, in the order a call usually goes through them.
const (
	CallPending   = "pending" // waiting for the user's approval
	CallApproved  = "approved"
	CallDenied    = "denied"
	CallRunning   = "running"
	CallDone      = "done"
	CallError     = "error"
	CallCancelled = "cancelled"
)

var (
	roles        = []string{RoleUser, RoleAssistant, RoleSystem, RoleSummary}
	statuses     = []string{StatusComplete, StatusIncomplete, StatusError, StatusCancelled}
	callStatuses = []string{CallPending, CallApproved, CallDenied, CallRunning, CallDone, CallError, CallCancelled}
)

// Message is one turn of a chat. Seq numbers a chat's messages 1, 2, 3… in
// the order they were appended.
type Message struct {
	ID           string `json:"id"`
	ChatID       string `json:"chatId"`
	Seq          int    `json:"seq"`
	Role         string `json:"role"`   // RoleUser, RoleAssistant or RoleSystem
	Text         string `json:"text"`   // Markdown as the model wrote it
	Status       string `json:"status"` // Status*; empty means StatusComplete
	Error        string `json:"error"`  // why the status is error/incomplete/cancelled
	Model        string `json:"model"`  // the model that wrote an assistant message
	InputTokens  int    `json:"inputTokens"`
	OutputTokens int    `json:"outputTokens"`
	// EstimatedTokens is the engine's estimate of the request this
	// assistant message answered, before calibration (with InputTokens it
	// calibrates the estimate of the chat's later requests).
	EstimatedTokens int `json:"estimatedTokens,omitempty"`
	// Covers is, on a summary, the seq of the last message it replaces; 0
	// means every message before it. The messages after Covers and before
	// the summary (the turn in progress when it was written) stay as they are.
	Covers int `json:"covers,omitempty"`
	// Asked is, on a summary, true when the user asked for it (Compact
	// now), false when the chat neared its model's context window.
	Asked     bool       `json:"asked,omitempty"`
	CreatedAt time.Time  `json:"createdAt"`
	ToolCalls []ToolCall `json:"toolCalls"` // in the order first saved
}

// ToolCall is one tool call an assistant message made. ID is the model's call
// id, unique within the message.
//
// Arguments and Result that are not valid JSON (models do send broken
// arguments) are stored as a JSON string holding the raw text, so a Message
// always marshals.
type ToolCall struct {
	ID         string          `json:"id"`
	MessageID  string          `json:"messageId"`
	Server     string          `json:"server"`
	Tool       string          `json:"tool"`      // the name the model called (server__tool)
	Arguments  json.RawMessage `json:"arguments"` // JSON object
	Result     json.RawMessage `json:"result"`    // the MCP CallToolResult JSON; empty until the call ends
	IsError    bool            `json:"isError"`
	Status     string          `json:"status"` // Call*; empty means CallPending
	StartedAt  time.Time       `json:"startedAt"`
	DurationMs int64           `json:"durationMs"`
	// Task is, for a call run as an MCP task, the task as last seen.
	Task *Task `json:"task,omitempty"`
}

// Task is an MCP task a tool call ran as: its id, last status (working,
// input_required, completed, failed, cancelled) and status message.
type Task struct {
	ID      string `json:"id"`
	Status  string `json:"status"`
	Message string `json:"message,omitempty"`
}

func checkOneOf(what, v string, allowed []string) error {
	if slices.Contains(allowed, v) {
		return nil
	}
	return fmt.Errorf("%s %q: %w (use one of %s)", what, v, ErrInvalid, strings.Join(allowed, ", "))
}

// The statements every chat step writes, prepared when the store opens
// (see wtx).
const (
	qChatExists    = `SELECT EXISTS (SELECT 1 FROM chats WHERE id = ?)`
	qNextSeq       = `SELECT coalesce(max(seq), 0) + 1 FROM messages WHERE chat_id = ?`
	qInsertMessage = `INSERT INTO messages
			(id, chat_id, seq, role, text, status, error, model, input_tokens, output_tokens, est_tokens, covers, asked, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	qUpdateMessage = `UPDATE messages
			SET text = ?, status = ?, error = ?, model = ?, input_tokens = ?, output_tokens = ?, est_tokens = ?
			WHERE id = ? RETURNING chat_id`
	qMessageChat = `SELECT chat_id FROM messages WHERE id = ?`
	qUpsertCall  = `INSERT INTO tool_calls
		(message_id, call_id, ord, server, tool, arguments, result, is_error, status, started_at, duration_ms, task)
		VALUES (?1, ?2, (SELECT coalesce(max(ord), 0) + 1 FROM tool_calls WHERE message_id = ?1), ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
		ON CONFLICT (message_id, call_id) DO UPDATE SET
			server = excluded.server, tool = excluded.tool, arguments = excluded.arguments,
			result = excluded.result, is_error = excluded.is_error, status = excluded.status,
			started_at = excluded.started_at, duration_ms = excluded.duration_ms, task = excluded.task`
	qTouchChat = `UPDATE chats SET updated_at = max(updated_at, ?) WHERE id = ?`
)

var hotWrites = []string{qChatExists, qNextSeq, qInsertMessage, qUpdateMessage, qMessageChat, qUpsertCall, qTouchChat}

// AppendMessage adds m at the end of its chat and returns it with ID (when
// empty), Seq and CreatedAt (when zero) filled in. m.ToolCalls are saved with
// it. The message is on disk when AppendMessage returns.
func (s *Store) AppendMessage(ctx context.Context, m Message) (Message, error) {
	return s.AppendMessageAfter(ctx, m, nil)
}

// AppendMessageAfter is AppendMessage that first saves done, calls of
// earlier messages of m's chat (as SaveToolCall does, each under its own
// MessageID), in the same transaction: a chat step stores the results of
// the previous step's calls with its own message, one durable write
// instead of one per call. Nothing is saved when any of it fails.
func (s *Store) AppendMessageAfter(ctx context.Context, m Message, done []ToolCall) (Message, error) {
	if m.Status == "" {
		m.Status = StatusComplete
	}
	if err := checkOneOf("message role", m.Role, roles); err != nil {
		return Message{}, fmt.Errorf("append message to chat %q: %w", m.ChatID, err)
	}
	if err := checkOneOf("message status", m.Status, statuses); err != nil {
		return Message{}, fmt.Errorf("append message to chat %q: %w", m.ChatID, err)
	}
	if m.ID == "" {
		m.ID = newID()
	}
	if m.CreatedAt.IsZero() {
		m.CreatedAt = s.now()
	}
	m.CreatedAt = fromMillis(millis(m.CreatedAt))
	calls, err := normaliseCalls(m.ID, m.ToolCalls)
	if err != nil {
		return Message{}, fmt.Errorf("append message to chat %q: %w", m.ChatID, err)
	}
	m.ToolCalls = calls
	earlier, err := normaliseEach(done)
	if err != nil {
		return Message{}, fmt.Errorf("append message to chat %q: %w", m.ChatID, err)
	}
	err = s.write(ctx, func(tx wtx) error {
		if err := upsertEach(ctx, tx, m.ChatID, earlier); err != nil {
			return err
		}
		var exists bool
		if err := tx.QueryRowContext(ctx, qChatExists, m.ChatID).Scan(&exists); err != nil {
			return err
		}
		if !exists {
			return ErrNotFound
		}
		if err := tx.QueryRowContext(ctx, qNextSeq, m.ChatID).Scan(&m.Seq); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, qInsertMessage,
			m.ID, m.ChatID, m.Seq, m.Role, m.Text, m.Status, m.Error, m.Model, m.InputTokens, m.OutputTokens, m.EstimatedTokens, m.Covers, m.Asked, millis(m.CreatedAt)); err != nil {
			return err
		}
		for _, c := range m.ToolCalls {
			if err := upsertCall(ctx, tx, c); err != nil {
				return err
			}
		}
		return touchChat(ctx, tx, m.ChatID, s.now())
	})
	if err != nil {
		return Message{}, fmt.Errorf("append message to chat %q: %w", m.ChatID, err)
	}
	return m, nil
}

// UpdateMessage replaces the text, status, error, model and token counts of
// the message with m.ID (an assistant message appended as incomplete while
// it streamed) and saves m.ToolCalls as SaveToolCall does; calls stored
// before and missing from m.ToolCalls are kept.
func (s *Store) UpdateMessage(ctx context.Context, m Message) error {
	if m.Status == "" {
		m.Status = StatusComplete
	}
	if err := checkOneOf("message status", m.Status, statuses); err != nil {
		return fmt.Errorf("update message %q: %w", m.ID, err)
	}
	calls, err := normaliseCalls(m.ID, m.ToolCalls)
	if err != nil {
		return fmt.Errorf("update message %q: %w", m.ID, err)
	}
	err = s.write(ctx, func(tx wtx) error {
		var chatID string
		err := tx.QueryRowContext(ctx, qUpdateMessage,
			m.Text, m.Status, m.Error, m.Model, m.InputTokens, m.OutputTokens, m.EstimatedTokens, m.ID).Scan(&chatID)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		for _, c := range calls {
			if err := upsertCall(ctx, tx, c); err != nil {
				return err
			}
		}
		return touchChat(ctx, tx, chatID, s.now())
	})
	if err != nil {
		return fmt.Errorf("update message %q: %w", m.ID, err)
	}
	return nil
}

// SaveToolCall inserts the call or, when its message already has a call with
// that ID, replaces it (keeping its place in the message's order).
func (s *Store) SaveToolCall(ctx context.Context, c ToolCall) error {
	calls, err := normaliseCalls(c.MessageID, []ToolCall{c})
	if err != nil {
		return fmt.Errorf("save tool call %q of message %q: %w", c.ID, c.MessageID, err)
	}
	err = s.write(ctx, func(tx wtx) error {
		var chatID string
		err := tx.QueryRowContext(ctx, qMessageChat, c.MessageID).Scan(&chatID)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("message %q: %w", c.MessageID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		if err := upsertCall(ctx, tx, calls[0]); err != nil {
			return err
		}
		return touchChat(ctx, tx, chatID, s.now())
	})
	if err != nil {
		return fmt.Errorf("save tool call %q: %w", c.ID, err)
	}
	return nil
}

// SaveToolCalls saves calls (of one chat, each under its own MessageID) as
// SaveToolCall does, in one transaction.
func (s *Store) SaveToolCalls(ctx context.Context, calls []ToolCall) error {
	if len(calls) == 0 {
		return nil
	}
	norm, err := normaliseEach(calls)
	if err != nil {
		return fmt.Errorf("save tool calls: %w", err)
	}
	err = s.write(ctx, func(tx wtx) error {
		var chatID string
		err := tx.QueryRowContext(ctx, qMessageChat, norm[0].MessageID).Scan(&chatID)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("message %q: %w", norm[0].MessageID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		if err := upsertEach(ctx, tx, chatID, norm); err != nil {
			return err
		}
		return touchChat(ctx, tx, chatID, s.now())
	})
	if err != nil {
		return fmt.Errorf("save tool calls: %w", err)
	}
	return nil
}

// normaliseEach is normaliseCalls for calls that each name their message.
func normaliseEach(calls []ToolCall) ([]ToolCall, error) {
	out := make([]ToolCall, 0, len(calls))
	for _, c := range calls {
		n, err := normaliseCalls(c.MessageID, []ToolCall{c})
		if err != nil {
			return nil, fmt.Errorf("tool call %q: %w", c.ID, err)
		}
		out = append(out, n...)
	}
	return out, nil
}

// upsertEach saves calls of earlier messages, each of which must belong to
// chatID: a call is never moved into another chat.
func upsertEach(ctx context.Context, tx wtx, chatID string, calls []ToolCall) error {
	for _, c := range calls {
		var of string
		err := tx.QueryRowContext(ctx, qMessageChat, c.MessageID).Scan(&of)
		if errors.Is(err, sql.ErrNoRows) || err == nil && of != chatID {
			return fmt.Errorf("tool call %q: message %q of chat %q: %w", c.ID, c.MessageID, chatID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		if err := upsertCall(ctx, tx, c); err != nil {
			return err
		}
	}
	return nil
}

// normaliseCalls validates calls for message messageID and fills defaults.
func normaliseCalls(messageID string, calls []ToolCall) ([]ToolCall, error) {
	if len(calls) == 0 {
		return nil, nil
	}
	out := make([]ToolCall, len(calls))
	for i, c := range calls {
		if c.ID == "" {
			return nil, fmt.Errorf("tool call has no id: %w (give it the model's call id)", ErrInvalid)
		}
		if c.Status == "" {
			c.Status = CallPending
		}
		if err := checkOneOf("tool call status", c.Status, callStatuses); err != nil {
			return nil, err
		}
		c.MessageID = messageID
		c.Arguments = asJSON(c.Arguments)
		c.Result = asJSON(c.Result)
		c.StartedAt = fromMillis(millis(c.StartedAt))
		out[i] = c
	}
	return out, nil
}

// asJSON returns r, or r as a JSON string when it is not valid JSON.
func asJSON(r json.RawMessage) json.RawMessage {
	if len(r) == 0 || json.Valid(r) {
		return r
	}
	b, _ := json.Marshal(string(r)) // a string always marshals
	return b
}

func upsertCall(ctx context.Context, tx wtx, c ToolCall) error {
	_, err := tx.ExecContext(ctx, qUpsertCall,
		c.MessageID, c.ID, c.Server, c.Tool, rawOrNull(c.Arguments), rawOrNull(c.Result), c.IsError, c.Status,
		millis(c.StartedAt), c.DurationMs, taskOrNull(c.Task))
	return err
}

// taskOrNull is the task column's value: its JSON, or NULL for a plain call.
func taskOrNull(t *Task) any {
	if t == nil {
		return nil
	}
	b, _ := json.Marshal(t) // three strings always marshal
	return string(b)
}

// taskOf reads the task column (nil for a plain call, or a value this
// build cannot read).
func taskOf(v sql.NullString) *Task {
	if !v.Valid {
		return nil
	}
	var t Task
	if json.Unmarshal([]byte(v.String), &t) != nil {
		return nil
	}
	return &t
}

// touchChat moves the chat to the top of ListChats.
func touchChat(ctx context.Context, tx wtx, chatID string, now time.Time) error {
	_, err := tx.ExecContext(ctx, qTouchChat, millis(now), chatID)
	return err
}

// Messages returns a chat's messages in order, each with its tool calls;
// ErrNotFound when no chat has the id. It reads one snapshot.
func (s *Store) Messages(ctx context.Context, chatID string) ([]Message, error) {
	out, err := s.readMessages(ctx, chatID, `SELECT * FROM messages WHERE chat_id = ?1`)
	if err != nil {
		return nil, fmt.Errorf("read messages of chat %q: %w", chatID, err)
	}
	return out, nil
}

// Recent returns what a model still reads of a chat: its last summary
// message and every message it does not cover (see Message.Covers), in
// seq order, or all its messages when it has no summary; ErrNotFound when
// no chat has the id. It reads one snapshot, through the (chat_id, seq)
// index.
func (s *Store) Recent(ctx context.Context, chatID string) ([]Message, error) {
	out, err := s.readMessages(ctx, chatID, selectRecent)
	if err != nil {
		return nil, fmt.Errorf("read recent messages of chat %q: %w", chatID, err)
	}
	return out, nil
}

// MessagesAfter returns a chat's messages with a seq above seq, in
// order, each with its tool calls; ErrNotFound when no chat has the id.
// A caller that keeps a chat's messages in memory reads only what is new.
func (s *Store) MessagesAfter(ctx context.Context, chatID string, seq int) ([]Message, error) {
	out, err := s.readMessages(ctx, chatID, selectAfter, seq)
	if err != nil {
		return nil, fmt.Errorf("read messages of chat %q: %w", chatID, err)
	}
	return out, nil
}

// FirstUserMessage returns a chat's first message from the user (what
// titled it); ErrNotFound when the chat has none, or no chat has the id.
func (s *Store) FirstUserMessage(ctx context.Context, chatID string) (Message, error) {
	out, err := s.readMessages(ctx, chatID, `SELECT * FROM messages WHERE chat_id = ?1 AND role = 'user' ORDER BY seq LIMIT 1`)
	if err == nil && len(out) == 0 {
		err = ErrNotFound
	}
	if err != nil {
		return Message{}, fmt.Errorf("read the first message of chat %q: %w", chatID, err)
	}
	return out[0], nil
}

// MessagePage is a run of a chat's messages, oldest first, as MessagesPage
// returns it.
type MessagePage struct {
	Messages []Message
	// HasMore is true when the chat has messages before Messages[0].
	HasMore bool
	// HasNewer is true when the chat has messages from seq before on: a
	// page read from the middle of a chat (a search hit) does not reach
	// its end.
	HasNewer bool
}

// MessagesPage returns up to limit of a chat's messages just before seq
// before (0 = after the last), oldest first, each with its tool calls, so a
// long chat can be shown a page at a time from its end; ErrNotFound when no
// chat has the id, ErrInvalid when limit < 1. It reads one snapshot, through
// the (chat_id, seq) index.
func (s *Store) MessagesPage(ctx context.Context, chatID string, before, limit int) (MessagePage, error) {
	if limit < 1 {
		return MessagePage{}, fmt.Errorf("read messages of chat %q: limit %d: %w (ask for at least 1)", chatID, limit, ErrInvalid)
	}
	if before <= 0 {
		before = math.MaxInt64
	}
	// One more than asked says whether there are more; it is dropped.
	out, err := s.readMessages(ctx, chatID, `SELECT * FROM messages WHERE chat_id = ?1 AND seq < ?2 ORDER BY seq DESC LIMIT ?3`,
		before, limit+1)
	if err != nil {
		return MessagePage{}, fmt.Errorf("read messages of chat %q: %w", chatID, err)
	}
	p := MessagePage{Messages: out}
	if len(out) > limit {
		p = MessagePage{Messages: out[len(out)-limit:], HasMore: true}
	}
	if before < math.MaxInt64 {
		err = s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM messages WHERE chat_id = ? AND seq >= ?)`, chatID, before).Scan(&p.HasNewer)
		if err != nil {
			return MessagePage{}, fmt.Errorf("read messages of chat %q: %w", chatID, err)
		}
	}
	return p, nil
}

// MessageSeq returns the seq of message messageID in chat chatID, where a
// search hit (Hit.MessageID) is in its chat; ErrNotFound when the chat has
// no such message.
func (s *Store) MessageSeq(ctx context.Context, chatID, messageID string) (int, error) {
	var seq int
	err := s.db.QueryRowContext(ctx, `SELECT seq FROM messages WHERE chat_id = ? AND id = ?`, chatID, messageID).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("find message %q of chat %q: %w", messageID, chatID, err)
	}
	return seq, nil
}

// selectRecent and selectAfter choose the messages of Recent and
// MessagesAfter, which a chat engine reads at every turn: their queries
// are prepared when the store opens (hotReads).
const (
	selectRecent = `SELECT * FROM messages WHERE chat_id = ?1 AND seq > coalesce(
		(SELECT CASE WHEN covers > 0 AND covers < seq THEN covers ELSE seq - 1 END FROM messages
			WHERE chat_id = ?1 AND role = 'summary' ORDER BY seq DESC LIMIT 1), 0)`
	selectAfter = `SELECT * FROM messages WHERE chat_id = ?1 AND seq > ?2`
)

// hotReads are the reads of every chat turn, prepared once (see wtx for
// the writes): SQLite parsing Recent's query again took more CPU than
// running it, twice a turn.
var hotReads = []string{messagesQuery(selectRecent), messagesQuery(selectAfter)}

// messagesQuery reads the messages selectMessages chooses (?1 is the
// chat's id), each with its tool calls, and finds whether the chat exists.
func messagesQuery(selectMessages string) string {
	return `SELECT
			m.id, m.seq, m.role, m.text, m.status, m.error, m.model, m.input_tokens, m.output_tokens, m.est_tokens, m.covers, m.asked, m.created_at,
			t.call_id, t.server, t.tool, t.arguments, t.result, t.is_error, t.status, t.started_at, t.duration_ms, t.task
		FROM chats c
		LEFT JOIN (` + selectMessages + `) m ON m.chat_id = c.id
		LEFT JOIN tool_calls t ON t.message_id = m.id
		WHERE c.id = ?1
		ORDER BY m.seq, t.ord`
}

// readMessages runs one query joining chat chatID with the messages that
// selectMessages (a SELECT over messages; ?1 is the chat id, args are ?2…)
// picks and their tool calls, and returns those messages in seq order;
// ErrNotFound when no chat has the id.
func (s *Store) readMessages(ctx context.Context, chatID, selectMessages string, args ...any) ([]Message, error) {
	q := messagesQuery(selectMessages)
	args = append([]any{chatID}, args...)
	var rows *sql.Rows
	var err error
	if st := s.stmts[q]; st != nil {
		rows, err = st.QueryContext(ctx, args...)
	} else {
		rows, err = s.db.QueryContext(ctx, q, args...)
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var (
		out   []Message
		found bool
	)
	for rows.Next() {
		found = true
		var (
			mID, role, text, status, errText, model        sql.NullString
			seq, in, outTok, est, covers, created          sql.NullInt64
			callID, server, tool, args, result, callStatus sql.NullString
			task                                           sql.NullString
			isError, asked                                 sql.NullBool
			started, duration                              sql.NullInt64
		)
		if err := rows.Scan(&mID, &seq, &role, &text, &status, &errText, &model, &in, &outTok, &est, &covers, &asked, &created,
			&callID, &server, &tool, &args, &result, &isError, &callStatus, &started, &duration, &task); err != nil {
			return nil, err
		}
		if !mID.Valid {
			continue // the chat has no messages
		}
		if n := len(out); n == 0 || out[n-1].ID != mID.String {
			out = append(out, Message{
				ID: mID.String, ChatID: chatID, Seq: int(seq.Int64), Role: role.String, Text: text.String,
				Status: status.String, Error: errText.String, Model: model.String,
				InputTokens: int(in.Int64), OutputTokens: int(outTok.Int64), CreatedAt: fromMillis(created.Int64),
				EstimatedTokens: int(est.Int64), Covers: int(covers.Int64), Asked: asked.Bool,
			})
		}
		if callID.Valid {
			m := &out[len(out)-1]
			m.ToolCalls = append(m.ToolCalls, ToolCall{
				ID: callID.String, MessageID: mID.String, Server: server.String, Tool: tool.String,
				Arguments: toRaw(args), Result: toRaw(result), IsError: isError.Bool, Status: callStatus.String,
				StartedAt: fromMillis(started.Int64), DurationMs: duration.Int64, Task: taskOf(task),
			})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("chat %q: %w", chatID, ErrNotFound)
	}
	return out, nil
}
