package app

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/app/host"
	"github.com/switchboard-app/switchboard/mcpmanager/registry"
	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"
)

// ChatOptions are a chat's own choices, kept in its history record.
type ChatOptions struct {
	// OffServers and OffTools are the servers and tools (server__tool) the
	// user switched off for this chat; everything else is active.
	OffServers []string `json:"offServers,omitempty"`
	OffTools   []string `json:"offTools,omitempty"`
}

func chatOptions(raw json.RawMessage) ChatOptions {
	var o ChatOptions
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &o)
	}
	return o
}

func (o ChatOptions) active(t registry.Tool) bool {
	for _, s := range o.OffServers {
		if s == t.Server {
			return false
		}
	}
	for _, n := range o.OffTools {
		if n == t.Name {
			return false
		}
	}
	return true
}

// Chats lists chats, most recent first.
func (a *ChatPage) Chats(limit, offset int) ([]ChatView, error) {
	h, err := a.historyStore()
	if err != nil {
		return nil, err
	}
	cs, err := h.ListChats(a.bg(), history.ListOptions{Limit: limit, Offset: offset})
	if err != nil {
		return nil, err
	}
	return chatViews(cs), nil
}

// SearchChats runs a full-text search over every chat.
func (a *ChatPage) SearchChats(query string) ([]history.Hit, error) {
	h, err := a.historyStore()
	if err != nil {
		return nil, err
	}
	return h.Search(a.bg(), query, 50)
}

// NewChat starts an empty chat with a provider and model ("" = defaults).
func (a *ChatPage) NewChat(providerName, model string) (ChatView, error) {
	s, err := a.h.Settings.Chat()
	if err != nil {
		return ChatView{}, err
	}
	return a.createChat(s, history.Chat{Provider: providerName, Model: model})
}

// createChat saves a new chat, its provider and model defaulted from s.
func (a *core) createChat(s chat.Settings, c history.Chat) (ChatView, error) {
	h, err := a.historyStore()
	if err != nil {
		return ChatView{}, err
	}
	c.Provider, c.Model = host.DefaultModel(s, c.Provider, c.Model)
	c, err = h.CreateChat(a.bg(), c)
	if err != nil {
		return ChatView{}, err
	}
	return chatView(c), nil
}

// Chat returns one chat.
func (a *ChatPage) Chat(id string) (ChatView, error) {
	h, err := a.historyStore()
	if err != nil {
		return ChatView{}, err
	}
	c, err := h.Chat(a.bg(), id)
	if err != nil {
		return ChatView{}, err
	}
	return chatView(c), nil
}

// ChatMessages returns a chat's messages with their tool calls.
func (a *ChatPage) ChatMessages(id string) ([]MessageView, error) {
	h, err := a.historyStore()
	if err != nil {
		return nil, err
	}
	ms, err := h.Messages(a.bg(), id)
	if err != nil {
		return nil, err
	}
	return messageViews(ms), nil
}

// MaxMessagePage caps the limit ChatMessagesPage accepts.
var MaxMessagePage = 500

// ChatMessagesPage returns up to limit of a chat's messages before seq
// before (0 = the last ones), so the window opens a long chat at its end
// and reads older pages as the user scrolls up.
func (a *ChatPage) ChatMessagesPage(id string, before, limit int) (MessagePageView, error) {
	h, err := a.historyStore()
	if err != nil {
		return MessagePageView{}, err
	}
	p, err := h.MessagesPage(a.bg(), id, before, min(limit, MaxMessagePage))
	if err != nil {
		return MessagePageView{}, err
	}
	return MessagePageView{Messages: messageViews(p.Messages), HasMore: p.HasMore}, nil
}

// RenameChat sets a chat's title.
func (a *ChatPage) RenameChat(id, title string) error {
	title = strings.TrimSpace(title)
	if title == "" {
		return errors.New("the title is empty")
	}
	h, err := a.historyStore()
	if err != nil {
		return err
	}
	return h.RenameChat(a.bg(), id, title)
}

// DeleteChat deletes a chat and its messages (the UI confirms first).
func (a *ChatPage) DeleteChat(id string) error {
	h, err := a.historyStore()
	if err != nil {
		return err
	}
	if a.engine.Running(id) {
		return chat.ErrBusy
	}
	if err := a.h.Chats.Delete(a.bg(), h, id); err != nil {
		return err
	}
	a.engine.Forget(id)
	return nil
}

// ExportChat renders a chat as "markdown" or "json".
func (a *ChatPage) ExportChat(id, format string) (string, error) {
	h, err := a.historyStore()
	if err != nil {
		return "", err
	}
	if format == "" {
		format = "markdown"
	}
	f, err := history.ParseFormat(format)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := h.Export(a.bg(), id, f, &b); err != nil {
		return "", err
	}
	return b.String(), nil
}

// SaveChatExport asks where to save the chat as "markdown" or "json" (the
// system's save dialog) and writes it there atomically. It returns the path
// written, or "" when the user cancelled the dialog.
func (a *ChatPage) SaveChatExport(id, format string) (string, error) {
	h, err := a.historyStore()
	if err != nil {
		return "", err
	}
	f, err := history.ParseFormat(cmp.Or(format, "markdown"))
	if err != nil {
		return "", err
	}
	ctx := a.wailsContext()
	if ctx == nil {
		return "", errors.New("no window to show the save dialog in: use Copy and paste the export instead")
	}
	c, err := h.Chat(a.bg(), id)
	if err != nil {
		return "", err
	}
	filter := wruntime.FileFilter{DisplayName: "Markdown (*.md)", Pattern: "*.md"}
	if f == history.FormatJSON {
		filter = wruntime.FileFilter{DisplayName: "JSON (*.json)", Pattern: "*.json"}
	}
	path, err := wruntime.SaveFileDialog(ctx, wruntime.SaveDialogOptions{
		Title: "Export chat", DefaultFilename: history.ExportFileName(c.Title, f),
		Filters: []wruntime.FileFilter{filter}, CanCreateDirectories: true,
	})
	if err != nil || path == "" {
		return "", err
	}
	if err := h.ExportFile(a.bg(), id, f, path); err != nil {
		return "", err
	}
	return path, nil
}

// storedChat is the history store and one chat of it.
func (a *core) storedChat(id string) (*history.Store, history.Chat, error) {
	h, err := a.historyStore()
	if err != nil {
		return nil, history.Chat{}, err
	}
	c, err := h.Chat(a.bg(), id)
	return h, c, err
}

// SetChatModel switches a chat's provider and model.
func (a *ChatPage) SetChatModel(id, providerName, model string) error {
	// Only the model: a read-modify-write of the whole row lost the tools
	// the chat had just switched off when both were saved at once (the
	// Model field's blur as the Tools menu opened).
	h, err := a.historyStore()
	if err != nil {
		return err
	}
	return h.UpdateChatModel(a.bg(), id, providerName, model)
}

// SetChatOptions stores which servers and tools a chat uses.
func (a *ChatPage) SetChatOptions(id string, opts ChatOptions) error {
	h, err := a.historyStore()
	if err != nil {
		return err
	}
	raw, err := json.Marshal(opts)
	if err != nil {
		return err
	}
	return h.UpdateChatOptions(a.bg(), id, raw)
}

// ChatOptionsOf returns a chat's server and tool choices.
func (a *ChatPage) ChatOptionsOf(id string) (ChatOptions, error) {
	c, err := a.Chat(id)
	if err != nil {
		return ChatOptions{}, err
	}
	return c.Options, nil
}

// SendMessage sends the user's text to the chat's model and returns at once;
// the answer streams as chat:event events. It fails at once when the chat is
// busy, has no model, or no provider is set up.
func (a *ChatPage) SendMessage(chatID, text string) error {
	text = strings.TrimSpace(text)
	if text == "" {
		return chat.ErrEmpty
	}
	return a.startTurn(chatID, text, "", false)
}

// RetryAnswer asks the model again for the answer to the chat's last
// user message: the last answer and its tool calls are deleted (in one
// write with the rewind) and a new one streams as chat:event events.
func (a *ChatPage) RetryAnswer(chatID string) error {
	return a.startTurn(chatID, "", chat.FromLast, false)
}

// CompactChat summarises the chat's messages now ("Compact now"): the
// model reads the summary instead of them from then on; they stay in the
// history. It returns at once; the summary arrives as chat:event events.
func (a *ChatPage) CompactChat(chatID string) error {
	return a.startTurn(chatID, "", "", true)
}

// EditMessage replaces the text of one of the user's messages, deletes
// every later message of the chat (the window confirms first) and asks
// the model again; the answer streams as chat:event events.
func (a *ChatPage) EditMessage(chatID, messageID, text string) error {
	text = strings.TrimSpace(text)
	if text == "" {
		return chat.ErrEmpty
	}
	if messageID == "" || messageID == chat.FromLast {
		return fmt.Errorf("edit message: no message id: %w", history.ErrInvalid)
	}
	return a.startTurn(chatID, text, messageID, false)
}

// startTurn runs a turn in the background: text appended as a new user
// message, or (from set) the chat rewound to a user message, see
// chat.Turn.From; or (compact) the chat summarised.
func (a *ChatPage) startTurn(chatID, text, from string, compact bool) error {
	h, err := a.historyStore()
	if err != nil {
		return err
	}
	if a.engine.Running(chatID) {
		return chat.ErrBusy
	}
	c, err := h.Chat(a.bg(), chatID)
	if err != nil {
		return err
	}
	s, err := a.h.Settings.Chat()
	if err != nil {
		return err
	}
	m, _, err := a.h.Chats.Model(s, c.Provider, c.Model)
	if err != nil {
		return err
	}
	if !compact && from == "" && c.MessageCount == 0 && (c.Title == "" || c.Title == "New chat") {
		_ = h.RenameChat(a.bg(), chatID, host.Title(text))
	}
	opts := chatOptions(c.Settings)
	ctx, cancel := context.WithCancel(a.bg())
	t := &turn{cancel: cancel}
	a.turnsMu.Lock()
	a.turns[chatID] = t
	a.turnsMu.Unlock()
	a.turnWG.Add(1)
	go func() {
		defer a.turnWG.Done()
		defer func() {
			a.turnsMu.Lock()
			if a.turns[chatID] == t { // the next turn may have started already
				delete(a.turns, chatID)
			}
			a.turnsMu.Unlock()
			cancel()
		}()
		t := a.h.Chats.Turn(ctx, s, host.TurnRequest{ChatID: chatID, Text: text, From: from,
			Agent: s.ChatAgent(c.Agent), Active: opts.active, Provider: c.Provider, Model: m})
		if a.apps != nil { // what an MCP App in this chat asked the model to know, at each step
			t.Context = func() string { return a.apps.ModelContext(chatID) }
		}
		t.OnEvent = func(ev chat.Event) { a.emitEvent(EventChat, chatEvent(ev)) }
		var err error
		if compact {
			err = a.engine.Compact(ctx, t)
		} else {
			_, err = a.engine.Send(ctx, t)
		}
		if err != nil && ctx.Err() == nil {
			slog.Warn("chat turn", "chat", chatID, "err", err)
		}
	}()
	return nil
}

// StopChat cancels the chat's model stream and tool calls in flight.
func (a *ChatPage) StopChat(chatID string) error {
	a.turnsMu.Lock()
	t := a.turns[chatID]
	a.turnsMu.Unlock()
	if t != nil {
		t.cancel()
	}
	return nil
}

// turn is a running SendMessage; Stop cancels it.
type turn struct{ cancel context.CancelFunc }

// titleFrom makes a chat title from its first message.
