package app

import (
	"cmp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/mcpmanager/registry"
)

// Agents lists the saved agents.
func (a *App) Agents() ([]chat.Agent, error) {
	s, err := a.chatSettings()
	if err != nil {
		return nil, err
	}
	if s.Agents == nil {
		return []chat.Agent{}, nil
	}
	return s.Agents, nil
}

// SaveAgent creates an agent (empty ID) or updates one, and returns it.
func (a *App) SaveAgent(ag chat.Agent) (chat.Agent, error) {
	var saved chat.Agent
	err := a.editChatSettings(func(s *chat.Settings) error {
		var err error
		saved, err = s.PutAgent(ag)
		return err
	})
	return saved, err
}

// DeleteAgent deletes an agent (the UI confirms first). Chats started from
// it keep their messages and go on with the default set-up.
func (a *App) DeleteAgent(id string) error {
	return a.editChatSettings(func(s *chat.Settings) error { return s.RemoveAgent(id) })
}

// NewAgentChat starts an empty chat from an agent: its provider and model,
// and (on every message) its prompt, servers, tools, policies and mode.
func (a *App) NewAgentChat(agentID string) (history.Chat, error) {
	h, err := a.historyStore()
	if err != nil {
		return history.Chat{}, err
	}
	s, err := a.chatSettings()
	if err != nil {
		return history.Chat{}, err
	}
	ag, err := s.Agent(agentID)
	if err != nil {
		return history.Chat{}, err
	}
	providerName, model := defaultModel(s, ag.Provider, ag.Model)
	return h.CreateChat(a.bg(), history.Chat{Provider: providerName, Model: model, Agent: ag.ID, Title: ag.Name})
}

// turnSetup is what a chat's messages run with: the global settings, or its
// agent's.
type turnSetup struct {
	system   string
	active   func(registry.Tool) bool
	policies chat.Policies
	delegate bool
}

func setupFor(s chat.Settings, c history.Chat, opts ChatOptions) turnSetup {
	ts := turnSetup{system: s.System, active: opts.active, policies: s.Policies}
	if c.Agent == "" {
		return ts
	}
	ag, err := s.Agent(c.Agent)
	if err != nil {
		return ts // the agent was deleted: the chat goes on with the defaults
	}
	ts.system = cmp.Or(ag.System, s.System)
	ts.active = func(t registry.Tool) bool { return ag.Allows(t) && opts.active(t) }
	ts.policies = ag.Merged(s.Policies)
	ts.delegate = ag.Delegate
	return ts
}
