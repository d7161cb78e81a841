package chat

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/mcpmanager/localskills"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
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
	if localskills.IsLocal(server) { // the user's own skills: any agent that names no skills, or names it
		return len(a.Skills) == 0 || slices.Contains(a.Skills, SkillKey(server, name))
	}
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
		if !ok || name == "" || !slices.Contains(a.Servers, server) && !localskills.IsLocal(server) {
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
// or "server/name" when two servers have a skill of that name, or
// "server/path" (its directory without the scheme) when one server has
// two (a relay such as serve lists skill://A/pdf and skill://B/pdf).
func skillNames(list []skills.Skill) map[string]skills.Skill {
	count, perServer := map[string]int{}, map[string]int{}
	for _, s := range list {
		count[s.Name]++
		perServer[SkillKey(s.Server, s.Name)]++
	}
	out := make(map[string]skills.Skill, len(list))
	for _, s := range list {
		switch key := SkillKey(s.Server, s.Name); {
		case perServer[key] > 1:
			_, path, ok := strings.Cut(s.Dir(), "://")
			if !ok {
				path = s.Dir()
			}
			out[SkillKey(s.Server, path)] = s
		case count[s.Name] > 1:
			out[key] = s
		default:
			out[s.Name] = s
		}
	}
	return out
}

// SkillShare is the percent of the model's context window load_skill's
// list of skills may take. Within it the model sees every skill's name
// and description; past it, the names only (load_skill with query tells
// what the fitting ones are for, as find_tools does for tools); past that
// too, as many names as fit and how many more there are. A server listing
// 20,000 skills made the list alone about 100,000 tokens, and every chat
// with an 8,000-token model failed.
const SkillShare = 10

// maxFound is how many skills one query of load_skill describes.
const maxFound = 10

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
	desc, described := skillList(names, byName, r.t.contextSize()*SkillShare/100)
	r.synth[LoadSkillName] = synthetic{kind: "skill"}
	r.tools[LoadSkillName] = router.Tool{Name: LoadSkillName, Tool: mcp.Tool{Name: LoadSkillName}}
	props := map[string]any{
		"name": map[string]any{"type": "string", "description": "the skill to load"},
		"file": map[string]any{"type": "string", "description": "a file of the skill to read instead of its SKILL.md, by its path within the skill (as the skill names it)"},
	}
	required := []string{"name"}
	if described {
		props["name"].(map[string]any)["enum"] = names
	} else {
		props["query"] = map[string]any{"type": "string", "description": "instead of name: a few words of the task, to see which skills fit and what each is for"}
		required = nil
	}
	schema, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "required": required})
	return append(slices.Clip(tools), provider.Tool{Name: LoadSkillName, Description: desc, InputSchema: schema})
}

// skillList is load_skill's description within budget tokens: every skill
// with its description (described true), else the names only, else as
// many names as fit and how many more there are.
func skillList(names []string, byName map[string]skills.Skill, budget int) (desc string, described bool) {
	const intro = "Load a skill: instructions from the user's servers or this computer for a kind of task. Before doing a task one of these skills is for, load it and follow it. " +
		"A loaded skill may name more files of its own; load one with file set to its path."
	// Tokens are counted line by line as the list grows (estimating the
	// whole text again at each line made 20,000 skills quadratic).
	var b strings.Builder
	b.WriteString(intro + " Skills:\n")
	used := textTokens(b.String()) + textTokens(strings.Join(names, `","`)) // the enum repeats the names
	described = true
	for _, n := range names {
		line := fmt.Sprintf("- %s: %s\n", n, byName[n].Description)
		if used += textTokens(line); used > budget {
			described = false
			break
		}
		b.WriteString(line)
	}
	if described {
		return strings.TrimSpace(b.String()), true
	}
	b.Reset()
	fmt.Fprintf(&b, "%s There are %d skills, too many to describe here: call load_skill with query (a few words of the task) to see which fit and what each is for, then load one by name. Skills: ", intro, len(names))
	const more = 12 // "… and 19,999 more (find them with query)."
	used = textTokens(b.String()) + more
	for i, n := range names {
		if used += textTokens(n) + 1; used > budget {
			fmt.Fprintf(&b, "… and %d more (find them with query).", len(names)-i)
			return b.String(), false
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(n)
	}
	return b.String() + ".", false
}

// findSkills ranks skills by the words of query in their names (3 each)
// and descriptions (1 each), best first, at most limit: one pass over the
// skills, however many there are.
func findSkills(byName map[string]skills.Skill, query string, limit int) []string {
	words := strings.FieldsFunc(strings.ToLower(query), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	words = slices.DeleteFunc(words, func(w string) bool { return len(w) < 2 })
	type hit struct {
		name  string
		score int
	}
	var hits []hit
	for n, sk := range byName {
		name, desc, score := strings.ToLower(n), strings.ToLower(sk.Description), 0
		for _, w := range words {
			if strings.Contains(name, w) {
				score += 3
			}
			if strings.Contains(desc, w) {
				score++
			}
		}
		if score > 0 {
			hits = append(hits, hit{n, score})
		}
	}
	slices.SortFunc(hits, func(a, b hit) int { return cmp.Or(b.score-a.score, strings.Compare(a.name, b.name)) })
	out := make([]string, 0, min(limit, len(hits)))
	for _, h := range hits[:min(limit, len(hits))] {
		out = append(out, h.name)
	}
	return out
}

// describeSkills answers load_skill's query: the skills that fit, with
// what each is for.
func describeSkills(byName map[string]skills.Skill, query string) *mcp.CallToolResult {
	found := findSkills(byName, query, maxFound)
	if len(found) == 0 {
		return mcp.NewToolResultText(fmt.Sprintf("No skill fits %q. Try other words, or do the task without a skill.", query))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Skills that fit %q; load one with load_skill and its name:\n", query)
	for _, n := range found {
		fmt.Fprintf(&b, "- %s: %s\n", n, byName[n].Description)
	}
	return mcp.NewToolResultText(b.String())
}

// skillFolder is the folder on this computer of a local skill, when the
// set knows it ("" for a server's skill).
func skillFolder(set SkillSet, sk skills.Skill) string {
	if f, ok := set.(interface{ Folder(skills.Skill) string }); ok {
		return f.Folder(sk)
	}
	return ""
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

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
	if query, _ := params["query"].(string); name == "" && strings.TrimSpace(query) != "" {
		return describeSkills(byName, query), nil
	}
	sk, ok := byName[name]
	if !ok {
		if found := findSkills(byName, name, maxFound); len(found) > 0 {
			return nil, fmt.Errorf("there is no skill named %q; skills with a name like it: %s", name, strings.Join(found, ", "))
		}
		return nil, fmt.Errorf("there is no skill named %q; call load_skill with query to find one", name)
	}
	file = strings.TrimSpace(file)
	if file != "" && file != "SKILL.md" {
		// Never a path that could leave the skill's directory, for a
		// dynamic skill's server to resolve.
		if err := skills.CheckPath(file); err != nil {
			return nil, fmt.Errorf("the file could not be read: %w", err)
		}
	}
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
		if dir := skillFolder(r.t.Skills, sk); dir != "" {
			header = fmt.Sprintf("Skill %q (on this computer) is loaded; follow it. Its folder is %s: run its scripts there with the workspace's shell tool "+
				"(for example: cd %s && sh scripts/NAME.sh), which asks the user first.", sk.Name, dir, shellQuote(dir))
		}
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
