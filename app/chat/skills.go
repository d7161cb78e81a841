package chat

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

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
// files are read the same way when the model asks for one by path (a
// binary one is described, its type and size, not sent as text). Nothing
// is read before the model asks (the extension forbids prefetching). A
// skill the set holds back (a local skill held for review, or refused)
// and a file it left out are said so, with why, not as missing.

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
			// No agent name: Validate and the settings' problems say which agent.
			return fmt.Errorf("skill %q is not written server/name for one of its servers (%s): write it so (as 'switchboard servers skills SERVER' lists them), or add its server to servers", k, strings.Join(a.Servers, ", "))
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

// What a skill set may say of what it does not give: why a skill is not
// offered (switched off by the user or for the chat, not allowed by the
// agent, a local skill held for review or refused), and why a file is
// left out (too big, a link leading out of its folder).
type (
	unavailableSkills interface {
		Unavailable(ctx context.Context, name string) string
	}
	leftOutFiles interface {
		LeftOut(sk skills.Skill, path string) string
	}
)

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
		// A skill switched off, or on this computer and held for review or
		// refused, is not offered: say so, rather than suggest another.
		if u, ok := r.t.Skills.(unavailableSkills); ok {
			if why := u.Unavailable(ctx, name); why != "" {
				return nil, errors.New(why)
			}
		}
		if found := findSkills(byName, name, maxFound); len(found) > 0 {
			return nil, fmt.Errorf("there is no skill named %q; skills with a name like it: %s", name, strings.Join(found, ", "))
		}
		return nil, fmt.Errorf("there is no skill named %q; call load_skill with query to find one", name)
	}
	file = strings.TrimSpace(file)
	var text string
	var err error
	if file == "" || file == "SKILL.md" {
		file = "SKILL.md"
		text, err = skillMD(ctx, r.t.Skills, sk)
	} else {
		text, err = skillFile(ctx, r.t.Skills, sk, file)
	}
	if err != nil {
		return nil, err
	}
	res := mcp.NewToolResultText(text)
	res.StructuredContent = SkillResult{Skill: sk.Name, Server: sk.Server, File: file, Size: len(text)}
	return res, nil
}

// skillMD is sk's SKILL.md as load_skill gives it: a header saying where
// it is from, its folder (a local skill's) and its other files, then the
// file.
func skillMD(ctx context.Context, set SkillSet, sk skills.Skill) (string, error) {
	l, err := set.Load(ctx, sk)
	if err != nil {
		return "", fmt.Errorf("%w (the skill is not loaded: do not use it, and tell the user)", err)
	}
	var texts, binaries []string
	for _, f := range sk.Files {
		if f.URI == sk.URI {
			continue
		}
		p := sk.Path(f.URI)
		if kind := binaryKind(p); kind != "" {
			binaries = append(binaries, fmt.Sprintf("%s (%s, %d bytes)", p, kind, f.Size))
		} else {
			texts = append(texts, p)
		}
	}
	header := fmt.Sprintf("Skill %q (from the server %q) is loaded; follow it.", sk.Name, sk.Server)
	if dir := skillFolder(set, sk); dir != "" {
		header = fmt.Sprintf("Skill %q (on this computer) is loaded; follow it. Its folder is %s: run its scripts there with the workspace's shell tool "+
			"(for example: cd %s && sh scripts/NAME.sh), which asks the user first.", sk.Name, dir, shellQuote(dir))
	}
	if len(texts) > 0 {
		header += " Its other files, which load_skill reads with file set to their path: " + strings.Join(texts, ", ") + "."
	}
	if len(binaries) > 0 {
		header += " Its binary files (not text: load_skill gives only their type and size; the skill's scripts use them by path): " + strings.Join(binaries, ", ") + "."
	}
	return header + "\n\n" + l.Text, nil
}

// skillFile is sk's file (its path within the skill) as load_skill gives
// it: its text, or for a binary file what it is.
func skillFile(ctx context.Context, set SkillSet, sk skills.Skill, file string) (string, error) {
	// Never a path that could leave the skill's directory, for a dynamic
	// skill's server to resolve.
	if err := skills.CheckPath(file); err != nil {
		return "", fmt.Errorf("the file could not be read: %w", err)
	}
	b, err := set.Read(ctx, sk, sk.Dir()+"/"+file)
	if err != nil {
		// A local skill's file left out (too big, a link leading out of
		// its folder) is listed nowhere: say why instead.
		if l, ok := set.(leftOutFiles); ok && errors.Is(err, skills.ErrUnknownSkill) {
			if why := l.LeftOut(sk, file); why != "" {
				return "", errors.New(why)
			}
		}
		return "", fmt.Errorf("the file could not be read: %w", err)
	}
	if !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
		// Bytes that are not text would reach the model as pages of
		// U+FFFD; what the file is serves it better.
		kind := cmp.Or(binaryKind(file), "application/octet-stream")
		note := fmt.Sprintf("%s of skill %q is a binary file (%s, %d bytes), not text, so its bytes are not shown.", file, sk.Name, kind, len(b))
		if dir := skillFolder(set, sk); dir != "" {
			note += fmt.Sprintf(" It is %s on this computer, for the skill's scripts to use.", filepath.Join(dir, filepath.FromSlash(file)))
		}
		return note, nil
	}
	return string(b), nil
}

// binaryTypes are the media types of the files a skill holds that are not
// text (fonts, images, documents, archives, media, programs), by
// extension: a listed file is not read before the model asks for it, so
// its name is all there is to tell it by.
var binaryTypes = map[string]string{
	".ttf": "font/ttf", ".otf": "font/otf", ".woff": "font/woff", ".woff2": "font/woff2", ".eot": "application/vnd.ms-fontobject",
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
	".ico": "image/x-icon", ".bmp": "image/bmp", ".tif": "image/tiff", ".tiff": "image/tiff", ".avif": "image/avif",
	".pdf": "application/pdf", ".zip": "application/zip", ".gz": "application/gzip", ".tgz": "application/gzip",
	".tar": "application/x-tar", ".7z": "application/x-7z-compressed", ".jar": "application/java-archive",
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	".doc":  "application/msword", ".xls": "application/vnd.ms-excel", ".ppt": "application/vnd.ms-powerpoint",
	".mp3": "audio/mpeg", ".wav": "audio/wav", ".ogg": "audio/ogg", ".flac": "audio/flac", ".mp4": "video/mp4",
	".mov": "video/quicktime", ".webm": "video/webm", ".wasm": "application/wasm", ".exe": "application/vnd.microsoft.portable-executable",
	".dll": "application/vnd.microsoft.portable-executable", ".so": "application/x-sharedlib", ".class": "application/java-vm",
	".pyc": "application/x-python-code", ".bin": "application/octet-stream", ".sqlite": "application/vnd.sqlite3", ".db": "application/vnd.sqlite3",
}

// binaryKind is the media type of a file that is not text, by its name's
// extension ("" for a text file, or one not known).
func binaryKind(path string) string {
	return binaryTypes[strings.ToLower(filepath.Ext(path))]
}
