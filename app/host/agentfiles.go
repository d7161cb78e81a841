package host

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/skills"
)

// Claude Code's subagents are Markdown files with a YAML frontmatter block
// (name, description, tools, model, …) whose body is the system prompt,
// in ~/.claude/agents and a project's .claude/agents. An import makes one
// Switchboard agent of each: its tools line becomes the servers and tools
// it may use, and what has no match here is said in the file's notes.

// Limits on what an import reads: agent files are short prompts.
const (
	maxAgentFiles    = 500
	maxAgentFileSize = 512 << 10
)

// claudeCodeTools are Claude Code's own tools that the workspace built-in
// can stand in for, by the workspace tool doing the same work.
var claudeCodeTools = map[string]string{
	"Read":         "read_file",
	"NotebookRead": "read_file",
	"Write":        "write_file",
	"Edit":         "edit_file",
	"MultiEdit":    "edit_file",
	"Glob":         "search_files",
	"Grep":         "search_files",
	"LS":           "list_directory",
	"Bash":         "execute_shell",
}

// agentFile is one file an import reads.
type agentFile struct {
	path string
	data []byte
	err  error
}

// agentFilesAt reads the files at paths: a file as it is, a folder's .md
// files (its subfolders' too, hidden ones left out), in name order.
func agentFilesAt(paths []string) ([]agentFile, error) {
	var out []agentFile
	add := func(p string) error {
		if len(out) >= maxAgentFiles {
			return fmt.Errorf("more than %d agent files under %s: import a smaller folder", maxAgentFiles, strings.Join(paths, ", "))
		}
		f := agentFile{path: p}
		switch st, err := os.Stat(p); {
		case err != nil:
			f.err = err
		case st.Size() > maxAgentFileSize:
			f.err = fmt.Errorf("it is %d KB, more than an agent file's %d KB", st.Size()>>10, maxAgentFileSize>>10)
		default:
			f.data, f.err = os.ReadFile(p)
		}
		out = append(out, f)
		return nil
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("agent files: %w", err)
		}
		if !st.IsDir() {
			if err := add(p); err != nil {
				return nil, err
			}
			continue
		}
		err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.IsDir() && q != p && strings.HasPrefix(d.Name(), "."):
				return filepath.SkipDir
			case d.IsDir() || !strings.EqualFold(filepath.Ext(q), ".md"):
				return nil
			}
			return add(q)
		})
		if err != nil {
			return nil, fmt.Errorf("agent files in %s: %w", p, err)
		}
	}
	return out, nil
}

// readAgentFile makes an agent of f as an import would, checked against
// cfg's servers and s's agents (Exists: one has its name already).
func readAgentFile(cfg *config.Config, s ChatSettings, f agentFile) AgentFile {
	af := AgentFile{Path: f.path, Source: agentSource(f.path), Notes: []string{}, Agent: Agent{Servers: []string{}}}
	base := filepath.Base(f.path)
	if f.err != nil {
		af.Problem = "cannot read it: " + f.err.Error()
		return af
	}
	text := strings.TrimPrefix(string(f.data), "\ufeff")
	if first, _, _ := strings.Cut(text, "\n"); strings.TrimRight(first, " \t\r") != "---" {
		af.Problem = "it has no frontmatter (a --- block with name and description at its top): it is not a Claude Code agent file"
		return af
	}
	md, err := skills.ParseSkillMD(f.data)
	if err != nil {
		af.Problem = strings.ReplaceAll(err.Error(), "SKILL.md", base)
		return af
	}
	for _, p := range md.Problems {
		af.Notes = append(af.Notes, strings.ReplaceAll(p, "SKILL.md", base))
	}
	fm := md.Frontmatter
	a := &af.Agent
	a.Name = strings.TrimSpace(text2(fm["name"]))
	if a.Name == "" {
		a.Name = strings.TrimSuffix(base, filepath.Ext(base))
		af.Notes = append(af.Notes, "it has no name: it is named after its file")
	}
	a.Description = strings.TrimSpace(text2(fm["description"]))
	a.System = strings.TrimSpace(md.Body)
	if a.System == "" {
		af.Notes = append(af.Notes, "its body is empty: the agent has no system prompt")
	}
	af.Notes = append(af.Notes, agentTools(cfg, a, fm)...)
	af.Notes = append(af.Notes, otherFields(fm)...)
	if err := chat.ValidAgentName(a.Name); err != nil {
		af.Problem = err.Error()
	} else if slices.ContainsFunc(s.Agents, func(o ChatAgent) bool { return strings.EqualFold(strings.TrimSpace(o.Name), a.Name) }) {
		af.Exists = true
	}
	return af
}

// agentSource says where an agent file comes from.
func agentSource(path string) string {
	if !strings.Contains(filepath.ToSlash(path), "/.claude/agents/") {
		return "file"
	}
	if home, err := os.UserHomeDir(); err == nil && strings.HasPrefix(path, filepath.Join(home, ".claude", "agents")+string(filepath.Separator)) {
		return "Claude Code (personal)"
	}
	return "Claude Code (project)"
}

// text2 is a frontmatter value as text ("" for none).
func text2(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	}
	return fmt.Sprint(v)
}

// agentTools fills a's servers and tools from the frontmatter's tools (a
// comma list, or a YAML list) and says what did not carry over:
// mcp__SERVER__TOOL is Switchboard's SERVER__TOOL (mcp__SERVER and
// mcp__SERVER__* the whole server), Claude Code's file and shell tools are
// the workspace built-in's, the rest have no match.
func agentTools(cfg *config.Config, a *Agent, fm map[string]any) []string {
	var notes []string
	raw, ok := fm["tools"]
	if !ok {
		return []string{"it has no tools line: Claude Code lets such an agent use every tool; here it uses none until you choose its servers"}
	}
	var names []string
	switch v := raw.(type) {
	case []any:
		for _, e := range v {
			names = append(names, text2(e))
		}
	default:
		names = strings.Split(text2(v), ",")
		if t := text2(v); len(names) == 1 && !strings.Contains(t, "(") {
			names = strings.Fields(t) // "Read Grep Glob", as some write it
		}
	}
	var unsupported, narrowed, notHere []string
	addServer := func(s string) {
		if !slices.Contains(a.Servers, s) {
			a.Servers = append(a.Servers, s)
		}
	}
	whole := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if i := strings.IndexByte(n, '('); i > 0 { // Bash(git diff:*): the tool, without its pattern
			narrowed = append(narrowed, n)
			n = n[:i]
		}
		switch {
		case n == "":
		case strings.HasPrefix(n, "mcp__"):
			server, tool, _ := strings.Cut(strings.TrimPrefix(n, "mcp__"), "__")
			if server == "" {
				unsupported = append(unsupported, n)
				continue
			}
			addServer(server)
			if _, ok := cfg.Lookup(server); !ok && !builtin.Reserved(server) && !slices.Contains(notHere, server) {
				notHere = append(notHere, server)
			}
			if tool == "" || tool == "*" {
				whole[server] = true
			} else if !slices.Contains(a.Tools, server+router.Separator+tool) {
				a.Tools = append(a.Tools, server+router.Separator+tool)
			}
		case claudeCodeTools[n] != "":
			addServer(builtin.Workspace)
			if t := builtin.Workspace + router.Separator + claudeCodeTools[n]; !slices.Contains(a.Tools, t) {
				a.Tools = append(a.Tools, t)
			}
		default:
			unsupported = append(unsupported, n)
		}
	}
	// A server the file gives whole is not narrowed by tools it also names.
	a.Tools = slices.DeleteFunc(a.Tools, func(t string) bool {
		server, _, _ := strings.Cut(t, router.Separator)
		return whole[server]
	})
	if len(unsupported) > 0 {
		notes = append(notes, strings.Join(unsupported, ", ")+" "+isAre(len(unsupported))+" Claude Code's own, with no match here: left out")
	}
	if len(narrowed) > 0 {
		notes = append(notes, strings.Join(narrowed, ", ")+": the patterns in parentheses are not carried over; approval rules (Settings → Rules) can narrow a tool's arguments")
	}
	if len(notHere) > 0 {
		notes = append(notes, "not set up here: "+strings.Join(notHere, ", ")+"; add "+itThem(len(notHere))+" on the Servers page (the agent shows "+itThem(len(notHere))+" as missing until then)")
	}
	return notes
}

// otherFields are notes on the frontmatter fields an import does not use.
func otherFields(fm map[string]any) []string {
	var notes, unused []string
	if m := strings.TrimSpace(text2(fm["model"])); m != "" {
		notes = append(notes, fmt.Sprintf("model %q is Claude Code's choice of model: the agent uses the default model; choose one in its form", m))
	}
	if _, ok := fm["disallowedTools"]; ok {
		notes = append(notes, "disallowedTools is not carried over: untick those tools in its form")
	}
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range fm {
			if !yield(k) {
				return
			}
		}
	}) {
		switch k {
		case "name", "description", "tools", "model", "disallowedTools":
		default:
			unused = append(unused, k)
		}
	}
	if len(unused) > 0 {
		notes = append(notes, strings.Join(unused, ", ")+" "+isAre(len(unused))+" not used here")
	}
	return notes
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func itThem(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}
