package app

import (
	"context"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/toolsearch"
	"github.com/switchboard-app/switchboard/app/host"
)

// ToolSearchStatus says whether the chat's next turn would give the model
// find_tools instead of its tools, and why in numbers (for the chat's Tools
// popover): its active tools (its own choices and its agent's), their
// estimated tokens and its model's context window, weighed by the Settings
// rule exactly as the turn will.
func (a *ChatPage) ToolSearchStatus(chatID string) (toolsearch.Decision, error) {
	h, err := a.historyStore()
	if err != nil {
		return toolsearch.Decision{}, err
	}
	ctx, cancel := context.WithTimeout(a.bg(), 10*time.Second)
	defer cancel()
	c, err := h.Chat(ctx, chatID)
	if err != nil {
		return toolsearch.Decision{}, err
	}
	s, err := a.h.Settings.Chat()
	if err != nil {
		return toolsearch.Decision{}, err
	}
	t := host.TurnSetup(s, s.ChatAgent(c.Agent), "", chatOptions(c.Settings).active)
	_, model := host.DefaultModel(s, c.Provider, c.Model)
	t.ContextWindow = a.h.Chats.ContextWindow(ctx, s, c.Provider, model)
	return a.engine.ToolSearch(ctx, t)
}

// ChatContext is the context meter of the chat's next request: what it
// would take of the model's window, and of what (for a chat just opened;
// a running turn's events carry it from then on).
func (a *ChatPage) ChatContext(chatID string) (chat.ContextView, error) {
	h, err := a.historyStore()
	if err != nil {
		return chat.ContextView{}, err
	}
	ctx, cancel := context.WithTimeout(a.bg(), 10*time.Second)
	defer cancel()
	c, err := h.Chat(ctx, chatID)
	if err != nil {
		return chat.ContextView{}, err
	}
	s, err := a.h.Settings.Chat()
	if err != nil {
		return chat.ContextView{}, err
	}
	m, name, err := a.h.Chats.Model(s, c.Provider, c.Model)
	if err != nil {
		return chat.ContextView{}, err
	}
	t := a.h.Chats.Turn(ctx, s, host.TurnRequest{ChatID: chatID, Agent: s.ChatAgent(c.Agent), Active: chatOptions(c.Settings).active, Provider: name, Model: m})
	return a.engine.Measure(ctx, t)
}
