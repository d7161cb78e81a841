package chat

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
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

// MaxAgentName is the longest agent name, in characters: a name is shown
// on one line in the agent list, the chat header and the CLI's tables.
const MaxAgentName = 64

// ValidAgentName checks an agent's name (trimmed) and says what to fix: not
// empty, at most MaxAgentName characters, and no control, bidirectional or
// invisible formatting characters, which would make one name look like
// another (U+202E turns "Researcher" around) or hide part of it.
func ValidAgentName(name string) error {
	name = strings.TrimSpace(name)
	if err := validNameChars(name); err != nil {
		return err
	}
	if n := utf8.RuneCountInString(name); n > MaxAgentName {
		return fmt.Errorf("the name is %d characters long: shorten it to %d or fewer (the description can say more)", n, MaxAgentName)
	}
	return nil
}

// validNameChars is ValidAgentName without the length: what a name
// loaded from config.json must pass (a longer name saved before the limit
// still loads, and is shortened at its next save).
func validNameChars(name string) error {
	if strings.TrimSpace(name) == "" {
		return errors.New("the agent has no name: give it one, such as \"Researcher\"")
	}
	for _, r := range name {
		// U+200D joins emoji (👩‍💻): the one format character a name keeps.
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) && r != '\u200d' {
			return fmt.Errorf("the name has the invisible character U+%04X: remove it (names may not hold control, bidirectional or zero-width characters)", r)
		}
	}
	return nil
}

// agentProblem is one thing wrong with an agent: the field (its JSON
// name) and what to fix.
type agentProblem struct {
	field, msg string
}

// problems lists what is wrong with a, field by field; the name's length
// and the policies' patterns only when saving (a name or pattern config.json
// held before they were checked still loads, and is fixed at its next save).
func (a Agent) problems(saving bool) []agentProblem {
	var out []agentProblem
	nameErr := validNameChars(a.Name)
	if nameErr == nil && saving {
		nameErr = ValidAgentName(a.Name)
	}
	if nameErr != nil {
		out = append(out, agentProblem{"name", nameErr.Error()})
	}
	if err := ValidToolMode(a.ToolMode); err != nil {
		out = append(out, agentProblem{"toolMode", err.Error() + "; set it to direct, code or both, or remove it to choose by the model's context window"})
	}
	for _, tool := range slices.Sorted(maps.Keys(a.Policies)) {
		if p := a.Policies[tool]; p != PolicyAsk && p != PolicyAllow && p != PolicyDeny {
			out = append(out, agentProblem{"policies", fmt.Sprintf("policy %q for %s is not ask, allow or deny", p, tool)})
		}
		if saving && !validPolicyPattern(tool) {
			out = append(out, agentProblem{"policies", fmt.Sprintf("the policy for %q applies to no tool: write it server__tool (one tool) or server__* (every tool of the server), such as %s__*", tool, policyExample(tool, a.Servers))})
		}
	}
	for _, t := range a.Tools {
		server, _, ok := strings.Cut(t, router.Separator)
		if !ok || !slices.Contains(a.Servers, server) {
			out = append(out, agentProblem{"tools", fmt.Sprintf("tool %q is not a tool of one of its servers (%s): add its server to servers, or remove the tool", t, strings.Join(a.Servers, ", "))})
		}
	}
	if err := a.validateSkills(); err != nil {
		out = append(out, agentProblem{"skills", err.Error()})
	}
	return out
}

// validPolicyPattern reports whether key is a pattern Policies.For can
// match: server__tool or server__*. Any other key ("files", "files__")
// matches no tool, so a policy meant to deny a server would silently deny
// nothing.
func validPolicyPattern(key string) bool {
	server, tool, ok := strings.Cut(key, router.Separator)
	return ok && strings.TrimSpace(server) != "" && strings.TrimSpace(tool) != ""
}

// policyExample is the server a bad policy pattern most likely meant, for
// its message: the pattern's own start when it names one of servers, else
// the first of them, else "server".
func policyExample(key string, servers []string) string {
	name, _, _ := strings.Cut(key, router.Separator)
	if slices.Contains(servers, name) || len(servers) == 0 && name != "" {
		return name
	}
	if len(servers) > 0 {
		return servers[0]
	}
	return "server"
}

// Validate checks an agent and says what to fix.
func (a Agent) Validate() error {
	if p := a.problems(true); len(p) > 0 {
		if p[0].field == "name" {
			if strings.TrimSpace(a.Name) == "" {
				return errors.New(p[0].msg)
			}
			return fmt.Errorf("agent name %q: %s", a.Name, p[0].msg)
		}
		return fmt.Errorf("agent %q: %s", a.Name, p[0].msg)
	}
	return nil
}

// agentProblems checks the agents as config.json holds them: each one
// (Agent.problems, without the name's length), and that no two share an
// ID or a name (in any case): a chat, --agent and an edit find an agent by
// them, and two of one would make an edit of one replace the other.
// Paths are the agents' JSON paths under settings.chat.
func agentProblems(agents []Agent) []config.Problem {
	var out []config.Problem
	add := func(i int, field, msg string) {
		out = append(out, config.Problem{Path: fmt.Sprintf("settings.chat.agents[%d].%s", i, field), Severity: config.SeverityError, Message: msg + " (in config.json)"})
	}
	for i, a := range agents {
		for _, p := range a.problems(false) {
			add(i, p.field, p.msg)
		}
		if strings.TrimSpace(a.ID) == "" {
			add(i, "id", "the agent has no id: give it one unique among the agents (any text, such as \"agent-"+strconv.Itoa(i+1)+"\")")
		}
		for j, o := range agents[:i] {
			if a.ID != "" && o.ID == a.ID {
				add(i, "id", fmt.Sprintf("agents[%d] (%q) has the id %q too: give this one another id (any text unique among the agents)", j, o.Name, a.ID))
			}
			if n := strings.TrimSpace(a.Name); n != "" && strings.EqualFold(strings.TrimSpace(o.Name), n) {
				add(i, "name", fmt.Sprintf("agents[%d] is named %q too (names are compared in any case): rename one of them", j, o.Name))
			}
		}
	}
	return out
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

// FindAgent returns the agent with the given ID, else the one with that
// name (any case), for the CLI's --agent.
func (s Settings) FindAgent(nameOrID string) (Agent, error) {
	if a, err := s.Agent(nameOrID); err == nil {
		return a, nil
	}
	for _, a := range s.Agents {
		if strings.EqualFold(strings.TrimSpace(a.Name), strings.TrimSpace(nameOrID)) {
			return a, nil
		}
	}
	var names []string
	for _, a := range s.Agents {
		names = append(names, a.Name)
	}
	if len(names) == 0 {
		return Agent{}, fmt.Errorf("no agent %q: there are none yet; make one on the app's Agents page or with 'switchboard agents add'", nameOrID)
	}
	return Agent{}, fmt.Errorf("no agent %q; the agents are: %s", nameOrID, strings.Join(names, ", "))
}

// PutAgent adds a (a.ID == "" gets a new ID) or replaces the one agent
// with its ID; names must be unique, in any case. It never replaces
// another agent: an ID no agent has, or more than one has, is refused.
func (s *Settings) PutAgent(a Agent) (Agent, error) {
	a.Name = strings.TrimSpace(a.Name)
	if err := a.Validate(); err != nil {
		return a, err
	}
	if a.Servers == nil {
		a.Servers = []string{}
	}
	for _, o := range s.Agents {
		if o.ID != a.ID && strings.EqualFold(strings.TrimSpace(o.Name), a.Name) {
			return a, fmt.Errorf("an agent named %q already exists: choose another name", o.Name)
		}
	}
	if a.ID == "" {
		a.ID = newID()
		s.Agents = append(s.Agents, a)
		return a, nil
	}
	var at []int
	for i, o := range s.Agents {
		if o.ID == a.ID {
			at = append(at, i)
		}
	}
	switch len(at) {
	case 0:
		return a, fmt.Errorf("%q: %w", a.ID, ErrUnknownAgent)
	case 1:
		s.Agents[at[0]] = a
		return a, nil
	}
	return a, fmt.Errorf("%d agents have the id %q: give each its own id in config.json (settings.chat.agents), then save again", len(at), a.ID)
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
