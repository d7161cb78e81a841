package gui

import (
	"github.com/switchboard-app/switchboard/app/host"
)

// AgentsPage is the Agents page.
type AgentsPage struct{ *core }

// Agents lists the saved agents.
func (a *AgentsPage) Agents() ([]host.Agent, error) {
	return a.h.Settings.Agents()
}

// SaveAgent creates an agent (empty ID) or updates one, and returns it.
func (a *AgentsPage) SaveAgent(ag host.Agent) (host.Agent, error) {
	return a.h.Settings.SaveAgent(ag)
}

// DeleteAgent deletes an agent (the UI confirms first). Chats started from
// it keep their messages and go on with the default set-up.
func (a *AgentsPage) DeleteAgent(id string) error {
	return a.h.Settings.EditChat(func(s *host.ChatSettings) error { return s.RemoveAgent(id) })
}

// NewAgentChat starts an empty chat from an agent: its provider and model,
// and (on every message) its prompt, servers, tools, policies and mode.
func (a *AgentsPage) NewAgentChat(agentID string) (host.ChatView, error) {
	s, err := a.h.Settings.Chat()
	if err != nil {
		return host.ChatView{}, err
	}
	ag, err := s.Agent(agentID)
	if err != nil {
		return host.ChatView{}, err
	}
	return a.createChat(s, host.NewChat{Provider: ag.Provider, Model: ag.Model, Agent: &ag})
}
