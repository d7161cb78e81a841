package chat

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// Agent is a named set-up a chat starts from: a system prompt, a model, the
// servers (and optionally only some of their tools) it may use, and approval
// policies over the global ones. With Delegate, each server is one
// ask_<server> sub-agent instead of its tools.
type Agent struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	System      string `json:"system,omitempty"`
	// Provider and Model: "" uses the default provider and its model.
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
	// Servers the agent may use; none means a chat without tools.
	Servers []string `json:"servers"`
	// Tools, when set, narrows those servers to these tools (server__tool).
	Tools []string `json:"tools,omitempty"`
	// Skills, when set, narrows those servers' skills to these
	// ("server/name"; see AllowsSkill).
	Skills []string `json:"skills,omitempty"`
	// Policies override the global policies for this agent's chats.
	Policies Policies `json:"policies,omitempty"`
	Delegate bool     `json:"delegate,omitempty"`
	// ToolMode is how the agent's chats offer its tools: ToolsDirect,
	// ToolsCode or ToolsBoth; "" leaves it to Settings.Tools.
	ToolMode string `json:"toolMode,omitempty"`
}

// ErrUnknownAgent means no agent has that ID.
var ErrUnknownAgent = errors.New("no agent with that ID: it may have been deleted; pick another in the chat's agent menu")

// Validate checks an agent and says what to fix.
func (a Agent) Validate() error {
	if strings.TrimSpace(a.Name) == "" {
		return errors.New("the agent has no name: give it one, such as \"Researcher\"")
	}
	if err := ValidToolMode(a.ToolMode); err != nil {
		return fmt.Errorf("agent %q: %w; choose direct, code or both", a.Name, err)
	}
	for tool, p := range a.Policies {
		if p != PolicyAsk && p != PolicyAllow && p != PolicyDeny {
			return fmt.Errorf("agent %q: policy %q for %s is not ask, allow or deny", a.Name, p, tool)
		}
	}
	for _, t := range a.Tools {
		server, _, ok := strings.Cut(t, router.Separator)
		if !ok || !slices.Contains(a.Servers, server) {
			return fmt.Errorf("agent %q: tool %q is not a tool of one of its servers (%s)", a.Name, t, strings.Join(a.Servers, ", "))
		}
	}
	return a.validateSkills()
}

// Allows reports whether the agent may use tool t.
func (a Agent) Allows(t router.Tool) bool {
	if !slices.Contains(a.Servers, t.Server) {
		return false
	}
	if len(a.Tools) == 0 {
		return true
	}
	// Tools narrows only the servers it names tools of.
	named := slices.ContainsFunc(a.Tools, func(n string) bool { return strings.HasPrefix(n, t.Server+router.Separator) })
	return !named || slices.Contains(a.Tools, t.Name)
}

// Merged is the agent's policies over base (the global ones).
func (a Agent) Merged(base Policies) Policies {
	out := Policies{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range a.Policies {
		out[k] = v
	}
	return out
}

// Agent returns the agent with the given ID.
func (s Settings) Agent(id string) (Agent, error) {
	i := slices.IndexFunc(s.Agents, func(a Agent) bool { return a.ID == id })
	if i < 0 {
		return Agent{}, fmt.Errorf("%q: %w", id, ErrUnknownAgent)
	}
	return s.Agents[i], nil
}

// ChatAgent is the agent a chat runs, by the agent ID the chat stores: nil
// when it has none, or when that agent was deleted since (its chats go on
// with the defaults).
func (s Settings) ChatAgent(id string) *Agent {
	if id == "" {
		return nil
	}
	ag, err := s.Agent(id)
	if err != nil {
		return nil
	}
	return &ag
}

// FindAgent returns the agent with the given ID or name (any case), for
// the CLI's --agent.
func (s Settings) FindAgent(nameOrID string) (Agent, error) {
	for _, a := range s.Agents {
		if a.ID == nameOrID || strings.EqualFold(a.Name, nameOrID) {
			return a, nil
		}
	}
	var names []string
	for _, a := range s.Agents {
		names = append(names, a.Name)
	}
	if len(names) == 0 {
		return Agent{}, fmt.Errorf("no agent %q: there are none yet; make one on the app's Agents page", nameOrID)
	}
	return Agent{}, fmt.Errorf("no agent %q; the agents are: %s", nameOrID, strings.Join(names, ", "))
}

// PutAgent adds a (a.ID == "" gets a new ID) or replaces the agent with its
// ID; names must be unique.
func (s *Settings) PutAgent(a Agent) (Agent, error) {
	a.Name = strings.TrimSpace(a.Name)
	if err := a.Validate(); err != nil {
		return a, err
	}
	if a.Servers == nil {
		a.Servers = []string{}
	}
	for _, o := range s.Agents {
		if o.ID != a.ID && strings.EqualFold(o.Name, a.Name) {
			return a, fmt.Errorf("an agent named %q already exists: choose another name", a.Name)
		}
	}
	if a.ID == "" {
		a.ID = newID()
		s.Agents = append(s.Agents, a)
		return a, nil
	}
	i := slices.IndexFunc(s.Agents, func(o Agent) bool { return o.ID == a.ID })
	if i < 0 {
		return a, fmt.Errorf("%q: %w", a.ID, ErrUnknownAgent)
	}
	s.Agents[i] = a
	return a, nil
}

// RemoveAgent deletes an agent.
func (s *Settings) RemoveAgent(id string) error {
	i := slices.IndexFunc(s.Agents, func(a Agent) bool { return a.ID == id })
	if i < 0 {
		return fmt.Errorf("%q: %w", id, ErrUnknownAgent)
	}
	s.Agents = slices.Delete(s.Agents, i, i+1)
	return nil
}
