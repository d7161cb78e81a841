package host

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/history"
)

// The stored chats as the doors see them: listed, searched, read, renamed,
// exported and set up, each as a view (chatviews.go). The history itself
// (Chats.store) never leaves the host.

// Open opens the history now rather than at its first use, so a window
// that starts logs a history it cannot open at once; the error is also
// every later chat call's.
func (c *Chats) Open() error {
	_, err := c.store()
	return err
}

// List is up to limit chats from offset, the most recent first.
func (c *Chats) List(ctx context.Context, limit, offset int) ([]ChatView, error) {
	h, err := c.store()
	if err != nil {
		return nil, err
	}
	cs, err := h.ListChats(ctx, history.ListOptions{Limit: limit, Offset: offset})
	if err != nil {
		return nil, err
	}
	return chatViews(cs), nil
}

// Search is up to limit messages of every chat that match query (full
// text), the best first.
func (c *Chats) Search(ctx context.Context, query string, limit int) ([]ChatHit, error) {
	h, err := c.store()
	if err != nil {
		return nil, err
	}
	hits, err := h.Search(ctx, query, limit)
	if err != nil {
		return nil, err
	}
	return hitsView(hits), nil
}

// Get is the stored chat id.
func (c *Chats) Get(ctx context.Context, id string) (ChatView, error) {
	h, err := c.store()
	if err != nil {
		return ChatView{}, err
	}
	ch, err := h.Chat(ctx, id)
	if err != nil {
		return ChatView{}, err
	}
	return chatView(ch), nil
}

// Messages are chat id's messages with their tool calls, oldest first.
func (c *Chats) Messages(ctx context.Context, id string) ([]MessageView, error) {
	h, err := c.store()
	if err != nil {
		return nil, err
	}
	ms, err := h.Messages(ctx, id)
	if err != nil {
		return nil, err
	}
	return messageViews(ms, c.Running(id)), nil
}

// MessagesPage is up to limit of chat id's messages before seq before (0:
// the last ones), and whether older ones remain.
func (c *Chats) MessagesPage(ctx context.Context, id string, before, limit int) (MessagePageView, error) {
	h, err := c.store()
	if err != nil {
		return MessagePageView{}, err
	}
	p, err := h.MessagesPage(ctx, id, before, limit)
	if err != nil {
		return MessagePageView{}, err
	}
	return MessagePageView{Messages: messageViews(p.Messages, c.Running(id)), HasMore: p.HasMore, HasNewer: p.HasNewer}, nil
}

// MessagesAround is up to limit of chat id's messages around message
// messageID (a search hit), about half of them after it, and whether older
// and newer ones remain: the window opens a chat at a hit and pages from
// there both ways. A chat's seqs run 1, 2, 3… without gaps (messages are
// appended, and only a chat's last ones are ever deleted), so the page
// ending limit/2 messages after the hit is MessagesPage's.
func (c *Chats) MessagesAround(ctx context.Context, id, messageID string, limit int) (MessagePageView, error) {
	h, err := c.store()
	if err != nil {
		return MessagePageView{}, err
	}
	seq, err := h.MessageSeq(ctx, id, messageID)
	if err != nil {
		return MessagePageView{}, err
	}
	return c.MessagesPage(ctx, id, seq+max(limit, 1)/2+1, limit)
}

// Rename sets chat id's title (trimmed; an empty one is refused).
func (c *Chats) Rename(ctx context.Context, id, title string) error {
	title = strings.TrimSpace(title)
	if title == "" {
		return errors.New("the title is empty")
	}
	h, err := c.store()
	if err != nil {
		return err
	}
	return h.RenameChat(ctx, id, title)
}

// SetModel switches chat id's provider and model, and only those: a
// read-modify-write of the whole chat lost the tools the chat had just
// switched off when both were saved at once (the Model field's blur as
// the Tools menu opened).
func (c *Chats) SetModel(ctx context.Context, id, providerName, model string) error {
	h, err := c.store()
	if err != nil {
		return err
	}
	return h.UpdateChatModel(ctx, id, providerName, model)
}

// SetOptions stores which servers and tools chat id uses, and its tool
// mode (checked by chat.ValidToolMode).
func (c *Chats) SetOptions(ctx context.Context, id string, opts ChatOptions) error {
	if err := chat.ValidToolMode(opts.ToolMode); err != nil {
		return err
	}
	h, err := c.store()
	if err != nil {
		return err
	}
	raw, err := json.Marshal(opts)
	if err != nil {
		return err
	}
	return h.UpdateChatOptions(ctx, id, raw)
}

// Export renders chat id as format, "markdown" ("" too) or "json".
func (c *Chats) Export(ctx context.Context, id, format string) (string, error) {
	h, err := c.store()
	if err != nil {
		return "", err
	}
	f, err := history.ParseFormat(cmp.Or(format, "markdown"))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := h.Export(ctx, id, f, &b); err != nil {
		return "", err
	}
	return b.String(), nil
}

// ExportName is the file name chat id exports to as format ("markdown",
// "" too, or "json"): its title, made safe, and the format's extension.
func (c *Chats) ExportName(ctx context.Context, id, format string) (string, error) {
	f, err := history.ParseFormat(cmp.Or(format, "markdown"))
	if err != nil {
		return "", err
	}
	ch, err := c.Get(ctx, id)
	if err != nil {
		return "", err
	}
	return history.ExportFileName(ch.Title, f), nil
}

// ExportFile writes chat id as format ("markdown", "" too, or "json") to
// path, atomically.
func (c *Chats) ExportFile(ctx context.Context, id, format, path string) error {
	h, err := c.store()
	if err != nil {
		return err
	}
	f, err := history.ParseFormat(cmp.Or(format, "markdown"))
	if err != nil {
		return err
	}
	return h.ExportFile(ctx, id, f, path)
}

// ServerUsage is how many chats called each server's tools.
func (c *Chats) ServerUsage(ctx context.Context) (map[string]int, error) {
	h, err := c.store()
	if err != nil {
		return nil, err
	}
	return h.ServerUsage(ctx)
}
