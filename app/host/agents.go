package host

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// Agents are config.json's agents (settings.chat.agents): list them with
// what they name that is not set up, save, duplicate and remove them, and
// find and import the agent files other apps keep (Claude Code's
// subagents, agentfiles.go). The window's Agents page and 'switchboard
// agents' both call these.
type Agents struct{ h *Host }

// List lists the saved agents, never nil, each with the servers it names
// that are not set up (Missing) and whether its provider is gone
// (ProviderMissing).
func (ag *Agents) List() ([]Agent, error) {
	cfg, s, err := ag.read()
	if err != nil {
		return nil, err
	}
	out := make([]Agent, len(s.Agents))
	for i, a := range s.Agents {
		out[i] = agentViewIn(cfg, s, a)
	}
	return out, nil
}

// Get returns the agent with that ID, else the one with that name (any
// case).
func (ag *Agents) Get(nameOrID string) (Agent, error) {
	cfg, s, err := ag.read()
	if err != nil {
		return Agent{}, err
	}
	a, err := s.FindAgent(nameOrID)
	if err != nil {
		return Agent{}, err
	}
	return agentViewIn(cfg, s, a), nil
}

// Save creates an agent (empty ID) or updates the one with its ID after
// checking it (chat.Settings.PutAgent), and returns it as saved.
func (ag *Agents) Save(a Agent) (Agent, error) {
	var saved Agent
	err := ag.h.edit(func(cfg *config.Config) error {
		return editChat(cfg, func(s *ChatSettings) error {
			e, err := s.PutAgent(a.engine())
			saved = agentViewIn(cfg, *s, e)
			return err
		})
	})
	return saved, err
}

// Duplicate saves a copy of the agent with that ID, named "NAME copy"
// ("NAME copy 2", … when taken), and returns it.
func (ag *Agents) Duplicate(id string) (Agent, error) {
	var saved Agent
	err := ag.h.edit(func(cfg *config.Config) error {
		return editChat(cfg, func(s *ChatSettings) error {
			a, err := s.Agent(id)
			if err != nil {
				return err
			}
			a.ID, a.Name = "", copyName(*s, a.Name)
			a.Servers, a.Tools, a.Skills = slices.Clone(a.Servers), slices.Clone(a.Tools), slices.Clone(a.Skills)
			a.Policies = a.Merged(nil)
			e, err := s.PutAgent(a)
			saved = agentViewIn(cfg, *s, e)
			return err
		})
	})
	return saved, err
}

// copyName is name with " copy" (then " copy 2", …) that no agent of s
// has, cut so it stays within chat.MaxAgentName.
func copyName(s ChatSettings, name string) string {
	taken := func(n string) bool {
		return slices.ContainsFunc(s.Agents, func(a ChatAgent) bool { return strings.EqualFold(strings.TrimSpace(a.Name), n) })
	}
	for i := 1; ; i++ {
		suffix := " copy"
		if i > 1 {
			suffix = fmt.Sprintf(" copy %d", i)
		}
		base := []rune(strings.TrimSpace(name))
		if keep := chat.MaxAgentName - utf8.RuneCountInString(suffix); len(base) > keep {
			base = base[:keep]
		}
		if n := strings.TrimSpace(string(base)) + suffix; !taken(n) {
			return n
		}
	}
}

// Remove deletes the agent with that ID. Its chats keep their messages and
// go on with the default set-up (the window says so in each of them).
func (ag *Agents) Remove(id string) error {
	return ag.h.Settings.EditChat(func(s *ChatSettings) error { return s.RemoveAgent(id) })
}

// Using names the agents that name server, for a front door to say
// before the server is removed (Servers.RemoveWith takes it out of them).
func (ag *Agents) Using(server string) ([]string, error) {
	_, s, err := ag.read()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, a := range s.Agents {
		if slices.Contains(a.Servers, server) {
			out = append(out, a.Name)
		}
	}
	return out, nil
}

// Unoffered are the tools agent a names (in Tools, or as a policy's
// server__tool) that its servers do not list now: a typo, or a tool
// renamed or removed since. They fail quietly where they bite: a server
// narrowed to such tools only gives the agent's chats none of its tools,
// and a policy on one (a deny) applies to nothing. A server listing no
// tools now (stopped, starting, failed) is left out: its tools are not
// known, and the agent's Missing and the server's state say the rest.
func (ag *Agents) Unoffered(ctx context.Context, a ChatAgent) []string {
	tools, _ := ag.h.Tools.List(ctx)
	listed, have := map[string]bool{}, map[string]bool{}
	for _, t := range tools {
		listed[t.Server], have[t.Name] = true, true
	}
	names := append(slices.Clone(a.Tools), slices.Sorted(maps.Keys(a.Policies))...)
	var out []string
	for _, n := range names {
		server, tool, ok := strings.Cut(n, router.Separator)
		if ok && tool != "*" && slices.Contains(a.Servers, server) && listed[server] && !have[n] && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// read is config.json and its chat settings.
func (ag *Agents) read() (*config.Config, ChatSettings, error) {
	cfg, err := ag.h.readConfig()
	if err != nil {
		return nil, ChatSettings{}, err
	}
	s, err := chat.LoadSettings(cfg.Settings)
	return cfg, s, err
}

// agentViewIn is a as the doors see it, with what it names that cfg and s
// do not have: servers that are not set up, a provider that is gone.
func agentViewIn(cfg *config.Config, s ChatSettings, a ChatAgent) Agent {
	v := AgentView(a)
	v.Missing = missingServers(cfg, a.Servers)
	if a.Provider != "" {
		_, err := s.Provider(a.Provider)
		v.ProviderMissing = err != nil
	}
	return v
}

// missingServers are the servers of names that are neither configured
// nor built in.
func missingServers(cfg *config.Config, names []string) []string {
	var out []string
	for _, n := range names {
		if _, ok := cfg.Lookup(n); !ok && !builtin.Reserved(n) {
			out = append(out, n)
		}
	}
	return out
}

// errUnchanged stops an editChat that found nothing to change (the
// settings are then not rewritten).
var errUnchanged = errors.New("unchanged")

// ClaudeCodeAgentDirs are the folders Claude Code keeps subagents in: the
// personal one (~/.claude/agents) and project's (PROJECT/.claude/agents;
// project "" is the workspace folder). Folders that do not exist are
// left out.
func (ag *Agents) ClaudeCodeAgentDirs(project string) []string {
	var dirs []string
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, ".claude", "agents"))
	}
	dirs = append(dirs, filepath.Join(cmp.Or(project, WorkspaceRoot(ag.h.dir)), ".claude", "agents"))
	var out []string
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// Find reads the agent files at paths (files, or folders whose .md files
// are read, subfolders too) as they would be imported: each with the agent
// it makes, what does not carry over (Notes), why it cannot be imported
// (Problem) and whether an agent of its name exists already (Exists).
// Without paths it reads Claude Code's folders (ClaudeCodeAgentDirs of
// project).
func (ag *Agents) Find(paths []string, project string) ([]AgentFile, error) {
	if len(paths) == 0 {
		paths = ag.ClaudeCodeAgentDirs(project)
	}
	cfg, s, err := ag.read()
	if err != nil {
		return nil, err
	}
	files, err := agentFilesAt(paths)
	if err != nil {
		return nil, err
	}
	out := make([]AgentFile, 0, len(files))
	first := map[string]string{} // name → the file that has it first
	for _, f := range files {
		af := readAgentFile(cfg, s, f)
		key := strings.ToLower(af.Agent.Name)
		if p, ok := first[key]; ok && af.Problem == "" {
			af.Problem = fmt.Sprintf("%s has the name %q too, and is imported instead", p, af.Agent.Name)
		} else if !ok {
			first[key] = f.path
		}
		out = append(out, af)
	}
	return out, nil
}

// Import saves the agents of the files at paths (as Find reads them) and
// returns every file with what became of it: Imported set to the saved
// agent's ID, or Problem / Exists saying why it was skipped. An agent
// whose name is taken is skipped, never replaced: rename or remove the
// one there first.
func (ag *Agents) Import(paths []string, project string) ([]AgentFile, error) {
	if len(paths) == 0 {
		paths = ag.ClaudeCodeAgentDirs(project)
	}
	files, err := agentFilesAt(paths)
	if err != nil {
		return nil, err
	}
	var out []AgentFile
	err = ag.h.edit(func(cfg *config.Config) error {
		out = out[:0]
		return editChat(cfg, func(s *ChatSettings) error {
			for _, f := range files {
				af := readAgentFile(cfg, *s, f)
				if af.Problem == "" && !af.Exists {
					saved, err := s.PutAgent(af.Agent.engine())
					if err != nil {
						af.Problem = err.Error()
					} else {
						af.Agent, af.Imported = agentViewIn(cfg, *s, saved), saved.ID
					}
				}
				out = append(out, af)
			}
			return nil
		})
	})
	return out, err
}
