package gui

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/history"
)

// openHistory opens history.db; a failure is kept and shown by every chat
// method, so the rest of the app still works.
func (a *core) openHistory() {
	h, err := history.Open(a.bg(), a.dir.History())
	if err != nil {
		slog.Error("open history", "err", err)
		a.histErr.Store(&err)
		return
	}
	a.hist.Store(h)
}

// historyStore is the open history, or why it could not be opened.
func (a *core) historyStore() (*history.Store, error) {
	if h := a.hist.Load(); h != nil {
		return h, nil
	}
	if err := a.histErr.Load(); err != nil {
		return nil, *err
	}
	return nil, fmt.Errorf("chat history is not open yet")
}

// bg is the context of work that ends when the app closes.
func (a *core) bg() context.Context { return a.life }

// chatHistory lets the engine reach the history store opened after it was
// built.
type chatHistory struct{ a *core }

var _ chat.History = chatHistory{}

func (c chatHistory) AppendMessage(ctx context.Context, m history.Message) (history.Message, error) {
	h, err := c.a.historyStore()
	if err != nil {
		return m, err
	}
	return h.AppendMessage(ctx, m)
}

func (c chatHistory) UpdateMessage(ctx context.Context, m history.Message) error {
	h, err := c.a.historyStore()
	if err != nil {
		return err
	}
	return h.UpdateMessage(ctx, m)
}

func (c chatHistory) SaveToolCall(ctx context.Context, tc history.ToolCall) error {
	h, err := c.a.historyStore()
	if err != nil {
		return err
	}
	return h.SaveToolCall(ctx, tc)
}

func (c chatHistory) Messages(ctx context.Context, chatID string) ([]history.Message, error) {
	h, err := c.a.historyStore()
	if err != nil {
		return nil, err
	}
	return h.Messages(ctx, chatID)
}

func (c chatHistory) Rewind(ctx context.Context, chatID, messageID, text string) (history.Message, error) {
	h, err := c.a.historyStore()
	if err != nil {
		return history.Message{}, err
	}
	return h.Rewind(ctx, chatID, messageID, text)
}

func (c chatHistory) Recent(ctx context.Context, chatID string) ([]history.Message, error) {
	h, err := c.a.historyStore()
	if err != nil {
		return nil, err
	}
	return h.Recent(ctx, chatID)
}

func (c chatHistory) MessagesAfter(ctx context.Context, chatID string, seq int) ([]history.Message, error) {
	h, err := c.a.historyStore()
	if err != nil {
		return nil, err
	}
	return h.MessagesAfter(ctx, chatID, seq)
}
