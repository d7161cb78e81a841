package gui

import (
	"github.com/switchboard-app/switchboard/app/host"
)

// AgentsPage is the Agents page.
type AgentsPage struct{ *core }

// Agents lists the saved agents, each with the servers it names that are
// not set up and whether its provider is gone.
func (a *AgentsPage) Agents() ([]host.Agent, error) {
	return a.h.Agents.List()
}

// SaveAgent creates an agent (empty ID) or updates one, and returns it.
func (a *AgentsPage) SaveAgent(ag host.Agent) (host.Agent, error) {
	return a.h.Agents.Save(ag)
}

// DuplicateAgent saves a copy of an agent ("NAME copy") and returns it.
func (a *AgentsPage) DuplicateAgent(id string) (host.Agent, error) {
	return a.h.Agents.Duplicate(id)
}

// DeleteAgent deletes an agent (the UI confirms first). Chats started from
// it keep their messages and go on with the default set-up.
func (a *AgentsPage) DeleteAgent(id string) error {
	return a.h.Agents.Remove(id)
}

// FindAgentFiles lists Claude Code's agent files (~/.claude/agents and the
// workspace folder's .claude/agents) as an import would make them, with
// what does not carry over; an empty list when there are none.
func (a *AgentsPage) FindAgentFiles() ([]host.AgentFile, error) {
	return a.h.Agents.Find(nil, "")
}

// ImportAgentFiles imports the agent files at paths (from FindAgentFiles)
// and says what became of each; an agent whose name is taken is skipped.
func (a *AgentsPage) ImportAgentFiles(paths []string) ([]host.AgentFile, error) {
	if len(paths) == 0 {
		return []host.AgentFile{}, nil
	}
	return a.h.Agents.Import(paths, "")
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
