package app

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"unicode/utf8"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/mcpmanager/registry"
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
func (a *App) Chats(limit, offset int) ([]history.Chat, error) {
	h, err := a.historyStore()
	if err != nil {
		return nil, err
	}
	return h.ListChats(a.bg(), history.ListOptions{Limit: limit, Offset: offset})
}

// SearchChats runs a full-text search over every chat.
func (a *App) SearchChats(query string) ([]history.Hit, error) {
	h, err := a.historyStore()
	if err != nil {
		return nil, err
	}
	return h.Search(a.bg(), query, 50)
}

// NewChat starts an empty chat with a provider and model ("" = defaults).
func (a *App) NewChat(providerName, model string) (history.Chat, error) {
	h, err := a.historyStore()
	if err != nil {
		return history.Chat{}, err
	}
	s, err := a.chatSettings()
	if err != nil {
		return history.Chat{}, err
	}
	providerName, model = defaultModel(s, providerName, model)
	return h.CreateChat(a.bg(), history.Chat{Provider: providerName, Model: model})
}

// defaultModel fills in the default provider and its default model.
func defaultModel(s chat.Settings, providerName, model string) (string, string) {
	if p, err := s.Provider(providerName); err == nil {
		return p.Name, cmp.Or(model, p.DefaultModel)
	}
	return providerName, model
}

// Chat returns one chat.
func (a *App) Chat(id string) (history.Chat, error) {
	h, err := a.historyStore()
	if err != nil {
		return history.Chat{}, err
	}
	return h.Chat(a.bg(), id)
}

// ChatMessages returns a chat's messages with their tool calls.
func (a *App) ChatMessages(id string) ([]history.Message, error) {
	h, err := a.historyStore()
	if err != nil {
		return nil, err
	}
	return h.Messages(a.bg(), id)
}

// RenameChat sets a chat's title.
func (a *App) RenameChat(id, title string) error {
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
func (a *App) DeleteChat(id string) error {
	h, err := a.historyStore()
	if err != nil {
		return err
	}
	if a.engine.Running(id) {
		return chat.ErrBusy
	}
	if err := h.DeleteChat(a.bg(), id); err != nil {
		return err
	}
	a.engine.Forget(id)
	return nil
}

// ExportChat renders a chat as "markdown" or "json".
func (a *App) ExportChat(id, format string) (string, error) {
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

// SetChatModel switches a chat's provider and model.
func (a *App) SetChatModel(id, providerName, model string) error {
	h, err := a.historyStore()
	if err != nil {
		return err
	}
	c, err := h.Chat(a.bg(), id)
	if err != nil {
		return err
	}
	return h.UpdateChatSettings(a.bg(), id, providerName, model, c.Settings)
}

// SetChatOptions stores which servers and tools a chat uses.
func (a *App) SetChatOptions(id string, opts ChatOptions) error {
	h, err := a.historyStore()
	if err != nil {
		return err
	}
	c, err := h.Chat(a.bg(), id)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(opts)
	if err != nil {
		return err
	}
	return h.UpdateChatSettings(a.bg(), id, c.Provider, c.Model, raw)
}

// ChatOptionsOf returns a chat's server and tool choices.
func (a *App) ChatOptionsOf(id string) (ChatOptions, error) {
	c, err := a.Chat(id)
	if err != nil {
		return ChatOptions{}, err
	}
	return chatOptions(c.Settings), nil
}

// SendMessage sends the user's text to the chat's model and returns at once;
// the answer streams as chat:event events. It fails at once when the chat is
// busy, has no model, or no provider is set up.
func (a *App) SendMessage(chatID, text string) error {
	text = strings.TrimSpace(text)
	if text == "" {
		return chat.ErrEmpty
	}
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
	s, err := a.chatSettings()
	if err != nil {
		return err
	}
	ps, err := s.Provider(c.Provider)
	if err != nil {
		return err
	}
	model := c.Model
	if model == "" {
		model = ps.DefaultModel
	}
	if model == "" {
		return chat.ErrNoModel
	}
	p, err := ps.Open(a.store.Lookup)
	if err != nil {
		return err
	}
	if c.MessageCount == 0 && (c.Title == "" || c.Title == "New chat") {
		_ = h.RenameChat(a.bg(), chatID, titleFrom(text))
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
		setup := setupFor(s, c, opts)
		_, err := a.engine.Send(ctx, chat.Turn{
			ChatID: chatID, Provider: p, Model: model, System: setup.system, Text: text,
			Active: setup.active, Policies: setup.policies, MaxSteps: s.MaxSteps,
			Delegate: setup.delegate, SearchAbove: s.ToolSearchAbove, Pinned: s.Pinned,
			OnEvent: func(ev chat.Event) { a.emitEvent(chat.EventName, ev) },
		})
		if err != nil && ctx.Err() == nil {
			slog.Warn("chat turn", "chat", chatID, "err", err)
		}
	}()
	return nil
}

// StopChat cancels the chat's model stream and tool calls in flight.
func (a *App) StopChat(chatID string) error {
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
func titleFrom(text string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	const max = 60
	if utf8.RuneCountInString(line) <= max {
		return line
	}
	r := []rune(line)
	return strings.TrimSpace(string(r[:max])) + "…"
}
