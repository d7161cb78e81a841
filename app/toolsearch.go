package app

import (
	"context"
	"time"

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
