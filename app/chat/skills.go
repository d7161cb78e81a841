package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/mcpmanager/registry"
	"github.com/switchboard-app/switchboard/mcpmanager/skills"
)

// Skills from servers (the skills extension): the model sees each skill
// the turn has on by name and description, in the description of one host
// tool, load_skill, and loads one when a task calls for it. Loading reads
// the skill's SKILL.md, verified against the server's listing; its other
// files are read the same way when the model asks for one by path. Nothing
// is read before the model asks (the extension forbids prefetching).

// LoadSkillName is the host tool that loads a skill.
const LoadSkillName = "load_skill"

// SkillSet is what a turn's model may load: the skills it has on (the
// servers' skills the user and the agent left on) and their files.
// *skills.Catalog does the reading; the host filters the list.
type SkillSet interface {
	Skills(ctx context.Context) []skills.Skill
	Load(ctx context.Context, sk skills.Skill) (skills.Loaded, error)
	Read(ctx context.Context, sk skills.Skill, uri string) ([]byte, error)
}

// SkillKey is how settings and agents name a skill: "server/name".
func SkillKey(server, name string) string { return server + "/" + name }

// AllowsSkill reports whether the agent's chats may load server's skill
// name: a skill of one of its servers, and, when the agent lists skills,
// one of those.
func (a Agent) AllowsSkill(server, name string) bool {
	if !slices.Contains(a.Servers, server) {
		return false
	}
	return len(a.Skills) == 0 || slices.Contains(a.Skills, SkillKey(server, name))
}

// validateSkills checks that the agent's Skills are "server/name" of its
// servers.
func (a Agent) validateSkills() error {
	for _, k := range a.Skills {
		server, name, ok := strings.Cut(k, "/")
		if !ok || name == "" || !slices.Contains(a.Servers, server) {
			return fmt.Errorf("agent %q: skill %q is not written server/name for one of its servers (%s)", a.Name, k, strings.Join(a.Servers, ", "))
		}
	}
	return nil
}

// SkillOn reports whether the user left server's skill name on (Settings,
// the server's page).
func (s Settings) SkillOn(server, name string) bool {
	return !slices.Contains(s.OffSkills, SkillKey(server, name))
}

// skillNames gives each skill the name the model calls it by: its own,
// or "server/name" when two servers have a skill of that name.
func skillNames(list []skills.Skill) map[string]skills.Skill {
	count := map[string]int{}
	for _, s := range list {
		count[s.Name]++
	}
	out := map[string]skills.Skill{}
	for _, s := range list {
		if count[s.Name] > 1 {
			out[SkillKey(s.Server, s.Name)] = s
		} else {
			out[s.Name] = s
		}
	}
	return out
}

// offerSkills adds load_skill to a step's tools when the turn has skills.
func (r *run) offerSkills(ctx context.Context, tools []provider.Tool) []provider.Tool {
	if r.t.Skills == nil {
		return tools
	}
	byName := skillNames(r.t.Skills.Skills(ctx))
	if len(byName) == 0 {
		return tools
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	slices.Sort(names)
	var b strings.Builder
	b.WriteString("Load a skill: instructions from the user's servers for a kind of task. Before doing a task one of these skills is for, load it and follow it. " +
		"A loaded skill may name more files of its own; load one with file set to its path. Skills:\n")
	for _, n := range names {
		fmt.Fprintf(&b, "- %s: %s\n", n, byName[n].Description)
	}
	r.synth[LoadSkillName] = synthetic{kind: "skill"}
	r.tools[LoadSkillName] = registry.Tool{Name: LoadSkillName, Tool: mcp.Tool{Name: LoadSkillName}}
	schema, _ := json.Marshal(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"name": map[string]any{"type": "string", "enum": names, "description": "the skill to load"},
			"file": map[string]any{"type": "string", "description": "a file of the skill to read instead of its SKILL.md, by its path within the skill (as the skill names it)"},
		},
		"required": []string{"name"},
	})
	return append(slices.Clip(tools), provider.Tool{Name: LoadSkillName, Description: strings.TrimSpace(b.String()), InputSchema: schema})
}

// SkillResult is the structured content of a load_skill result: which
// skill (and file) was loaded, for the tool card.
type SkillResult struct {
	Skill  string `json:"skill"`
	Server string `json:"server"`
	File   string `json:"file"` // its path within the skill: SKILL.md for the skill itself
	Size   int    `json:"size"`
}

// loadSkill runs load_skill: the skill's SKILL.md, or one of its files.
// A skill that cannot be loaded is the call's error (the card and the
// model see why).
func (r *run) loadSkill(ctx context.Context, params map[string]any) (*mcp.CallToolResult, error) {
	name, _ := params["name"].(string)
	file, _ := params["file"].(string)
	if r.t.Skills == nil {
		return nil, errors.New("no skills are available in this chat")
	}
	byName := skillNames(r.t.Skills.Skills(ctx))
	sk, ok := byName[name]
	if !ok {
		names := make([]string, 0, len(byName))
		for n := range byName {
			names = append(names, n)
		}
		slices.Sort(names)
		return nil, fmt.Errorf("there is no skill named %q; the skills are: %s", name, strings.Join(names, ", "))
	}
	file = strings.TrimPrefix(strings.TrimSpace(file), "/")
	var text string
	if file == "" || file == "SKILL.md" {
		l, err := r.t.Skills.Load(ctx, sk)
		if err != nil {
			return nil, fmt.Errorf("%w (the skill is not loaded: do not use it, and tell the user)", err)
		}
		file, text = "SKILL.md", l.Text
		var others []string
		for _, f := range sk.Files {
			if f.URI != sk.URI {
				others = append(others, sk.Path(f.URI))
			}
		}
		header := fmt.Sprintf("Skill %q (from the server %q) is loaded; follow it.", sk.Name, sk.Server)
		if len(others) > 0 {
			header += " Its other files, which load_skill reads with file set to their path: " + strings.Join(others, ", ") + "."
		}
		text = header + "\n\n" + text
	} else {
		b, err := r.t.Skills.Read(ctx, sk, sk.Dir()+"/"+file)
		if err != nil {
			return nil, fmt.Errorf("the file could not be read: %w", err)
		}
		text = string(b)
	}
	res := mcp.NewToolResultText(text)
	res.StructuredContent = SkillResult{Skill: sk.Name, Server: sk.Server, File: file, Size: len(text)}
	return res, nil
}
