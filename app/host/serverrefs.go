package host

import (
	"maps"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// What config.json's settings keep of a server is keyed by its name: an
// agent's servers, tools (server__tool), skills (server/skill) and
// policies, and the chat's global approval policies, rules, pinned tools,
// result budgets and switched-off skills; a connected app's server list.
// Removing a server drops them (dropServerRefs) and renaming one renames
// them (renameServerRefs), inside the same locked edit as the entry
// itself, so no name is ever left pointing at nothing — nor at a server
// added later under the old name, which would inherit an "allow".

// serverKey tells whether an exposed tool name or policy key belongs to a
// server, and renames it.
type serverKey struct {
	name   string
	others []string // the other servers whose names start with name__
}

// keyOf is server's key matcher in cfg.
func keyOf(cfg *config.Config, server string) serverKey {
	k := serverKey{name: server}
	for _, s := range cfg.Servers {
		if s.Name != server && strings.HasPrefix(s.Name, server+router.Separator) {
			k.others = append(k.others, s.Name)
		}
	}
	return k
}

// tool reports whether key (server__tool, server__*) names a tool of this
// server and returns the tool's part; a key of server "a__b" is not one of
// server "a".
func (k serverKey) tool(key string) (string, bool) {
	rest, ok := strings.CutPrefix(key, k.name+router.Separator)
	if !ok {
		return "", false
	}
	for _, o := range k.others {
		if strings.HasPrefix(key, o+router.Separator) {
			return "", false
		}
	}
	return rest, true
}

// skill reports whether ref (server/skill) names a skill of this server.
func (k serverKey) skill(ref string) bool { return strings.HasPrefix(ref, k.name+"/") }

// renamed is key under server to: the exposed name is computed again, as
// the router names it (a name it had to shorten or hash changes with the
// server's name); a whole-server key (server__*) stays one.
func (k serverKey) renamed(key, to string) string {
	tool, ok := k.tool(key)
	if !ok {
		return key
	}
	if tool == "*" || router.Namespace(k.name, tool) != key {
		// A wildcard, or a name the router shortened: only the server's
		// part is known to be the server's name.
		return to + router.Separator + tool
	}
	return router.Namespace(to, tool)
}

// renamedSkill is ref under server to.
func (k serverKey) renamedSkill(ref, to string) string {
	if !k.skill(ref) {
		return ref
	}
	return to + ref[len(k.name):]
}

// dropServerRefs takes server out of cfg's settings: out of every agent
// (its servers, tools, skills and policies there) and out of the chat's
// global policies, rules, pinned tools, result budgets and switched-off
// skills. It returns the names of the agents it changed and how many
// global settings went. Chat settings that do not load are left alone
// (the Settings page says what is wrong with them).
func dropServerRefs(cfg *config.Config, server string) (agents []string, global int) {
	k := keyOf(cfg, server)
	ofServer := func(key string) bool { _, ok := k.tool(key); return ok }
	_ = editChat(cfg, func(s *ChatSettings) error {
		for i := range s.Agents {
			a := &s.Agents[i]
			if !slices.Contains(a.Servers, server) {
				continue
			}
			agents = append(agents, a.Name)
			a.Servers = slices.DeleteFunc(a.Servers, func(n string) bool { return n == server })
			a.Tools = slices.DeleteFunc(a.Tools, ofServer)
			a.Skills = slices.DeleteFunc(a.Skills, k.skill)
			maps.DeleteFunc(a.Policies, func(key string, _ chat.Policy) bool { return ofServer(key) })
		}
		n := len(s.Policies) + len(s.Rules) + len(s.Pinned) + len(s.ResultBudgets) + len(s.OffSkills)
		maps.DeleteFunc(s.Policies, func(key string, _ chat.Policy) bool { return ofServer(key) })
		s.Rules = slices.DeleteFunc(s.Rules, func(r chat.Rule) bool { return ofServer(r.Tool) })
		s.Pinned = slices.DeleteFunc(s.Pinned, ofServer)
		maps.DeleteFunc(s.ResultBudgets, func(key string, _ int) bool { return ofServer(key) })
		s.OffSkills = slices.DeleteFunc(s.OffSkills, k.skill)
		global = n - (len(s.Policies) + len(s.Rules) + len(s.Pinned) + len(s.ResultBudgets) + len(s.OffSkills))
		if len(agents) == 0 && global == 0 {
			return errUnchanged
		}
		return nil
	})
	return agents, global
}

// renameServerRefs renames server old to name wherever cfg's settings
// name it: in every agent, in the chat's global policies, rules, pinned
// tools, result budgets and switched-off skills, and in the server lists
// of connected apps. Call it in the edit that renames the entry, with
// cfg's servers as they were (old still among them, so a server whose
// name starts with old__ is told apart). Settings that do not load are
// left alone, as dropServerRefs leaves them.
func renameServerRefs(cfg *config.Config, old, name string) {
	k := keyOf(cfg, old)
	key := func(s string) string { return k.renamed(s, name) }
	skill := func(s string) string { return k.renamedSkill(s, name) }
	server := func(s string) string {
		if s == old {
			return name
		}
		return s
	}
	_ = editChat(cfg, func(s *ChatSettings) error {
		for i := range s.Agents {
			a := &s.Agents[i]
			a.Servers = renameAll(a.Servers, server)
			a.Tools = renameAll(a.Tools, key)
			a.Skills = renameAll(a.Skills, skill)
			a.Policies = renameKeys(a.Policies, key)
		}
		s.Policies = renameKeys(s.Policies, key)
		for i := range s.Rules {
			s.Rules[i].Tool = key(s.Rules[i].Tool)
		}
		s.Pinned = renameAll(s.Pinned, key)
		s.ResultBudgets = renameKeys(s.ResultBudgets, key)
		s.OffSkills = renameAll(s.OffSkills, skill)
		return nil
	})
	_ = clientsSection.Edit(cfg, func(m *map[string]ClientState) error {
		changed := false
		for app, st := range *m {
			if slices.Contains(st.Servers, old) {
				st.Servers = renameAll(st.Servers, server)
				(*m)[app] = st
				changed = true
			}
		}
		if !changed {
			return errUnchanged // settings without apps stay without
		}
		return nil
	})
}

// renameAll is list with each element renamed; nil stays nil.
func renameAll(list []string, rename func(string) string) []string {
	for i, s := range list {
		list[i] = rename(s)
	}
	return list
}

// renameKeys is m with each key renamed; nil stays nil.
func renameKeys[V any](m map[string]V, rename func(string) string) map[string]V {
	if m == nil {
		return nil
	}
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[rename(k)] = v
	}
	return out
}
