package host

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/history"
)

// untitled is the title the window showed for a chat before its first
// message; such a chat is still titled by that message.
const untitled = "New chat"

// chatTitle is the one title rule of a chat, for Create and Begin: a chat
// keeps a title it has, else takes its first message's (Title). ch is the
// chat so far. An agent's chat too: named after the agent, every chat
// of it had the same title in the list, which shows the agent beside the
// title instead.
func chatTitle(ch history.Chat, first string) string {
	if ch.Title != "" && ch.Title != untitled {
		return ch.Title
	}
	return Title(first)
}

// Title is a chat's title from its first message: the first line, cut at
// 60 characters.
func Title(text string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	const max = 60
	if utf8.RuneCountInString(line) <= max {
		return line
	}
	r := []rune(line)
	return strings.TrimSpace(string(r[:max])) + "…"
}

// turnRun is a turn Begin started; Stop cancels it.
type turnRun struct{ cancel context.CancelFunc }

// track records chatID's turn, under ctx: a later turn of the same chat
// replaces it (the earlier one may still be ending).
func (c *Chats) track(ctx context.Context, chatID string) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	t := &turnRun{cancel: cancel}
	c.turnsMu.Lock()
	if c.turns == nil {
		c.turns = map[string]*turnRun{}
	}
	c.turns[chatID] = t
	c.turnsMu.Unlock()
	return ctx, func() {
		c.turnsMu.Lock()
		if c.turns[chatID] == t {
			delete(c.turns, chatID)
		}
		c.turnsMu.Unlock()
		cancel()
	}
}

// close closes the history; a later store is ErrHistoryClosed.
func (c *Chats) close() error {
	c.histMu.Lock()
	defer c.histMu.Unlock()
	c.closed = true
	if c.hist == nil {
		return nil
	}
	return c.hist.Close()
}

// storedHistory is the host's history for the engine, opened when the
// engine first needs it.
type storedHistory struct{ c *Chats }

var _ chat.History = storedHistory{}

func (s storedHistory) AppendMessage(ctx context.Context, m history.Message) (history.Message, error) {
	h, err := s.c.store()
	if err != nil {
		return m, err
	}
	return h.AppendMessage(ctx, m)
}

func (s storedHistory) AppendMessageAfter(ctx context.Context, m history.Message, done []history.ToolCall) (history.Message, error) {
	h, err := s.c.store()
	if err != nil {
		return m, err
	}
	return h.AppendMessageAfter(ctx, m, done)
}

func (s storedHistory) SaveToolCalls(ctx context.Context, calls []history.ToolCall) error {
	h, err := s.c.store()
	if err != nil {
		return err
	}
	return h.SaveToolCalls(ctx, calls)
}

func (s storedHistory) UpdateMessage(ctx context.Context, m history.Message) error {
	h, err := s.c.store()
	if err != nil {
		return err
	}
	return h.UpdateMessage(ctx, m)
}

func (s storedHistory) Messages(ctx context.Context, chatID string) ([]history.Message, error) {
	h, err := s.c.store()
	if err != nil {
		return nil, err
	}
	return h.Messages(ctx, chatID)
}

func (s storedHistory) Rewind(ctx context.Context, chatID, messageID, text string) (history.Message, error) {
	h, err := s.c.store()
	if err != nil {
		return history.Message{}, err
	}
	retitle := retitled(ctx, h, chatID, messageID, text)
	m, err := h.Rewind(ctx, chatID, messageID, text)
	if err == nil && retitle != "" {
		err = h.RenameChat(ctx, chatID, retitle)
	}
	return m, err
}

// retitled is the chat's new title when messageID, its first message, is
// edited to text and the chat's title came from that message (Title of
// its old text); "" when the title stays (a title the user gave,
// another message).
func retitled(ctx context.Context, h *history.Store, chatID, messageID, text string) string {
	if messageID == "" || strings.TrimSpace(text) == "" {
		return ""
	}
	first, err := h.FirstUserMessage(ctx, chatID)
	if err != nil || first.ID != messageID {
		return ""
	}
	ch, err := h.Chat(ctx, chatID)
	if err != nil || ch.Title != Title(first.Text) || Title(text) == ch.Title {
		return ""
	}
	return Title(text)
}

func (s storedHistory) Recent(ctx context.Context, chatID string) ([]history.Message, error) {
	h, err := s.c.store()
	if err != nil {
		return nil, err
	}
	return h.Recent(ctx, chatID)
}

func (s storedHistory) MessagesAfter(ctx context.Context, chatID string, seq int) ([]history.Message, error) {
	h, err := s.c.store()
	if err != nil {
		return nil, err
	}
	return h.MessagesAfter(ctx, chatID, seq)
}
