package localskills

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Source is one folder of skill folders.
type Source struct {
	// Server is the name the skills of this folder go by in the skills
	// catalog, the chats and serve: ServerPrefix and a short label
	// ("skills@claude", "skills@project-agents", "skills@plugin-pdf-tools").
	Server string `json:"server"`
	// Dir is the folder as found (not resolved).
	Dir string `json:"dir"`
	// App is whose folder it is, in words ("Claude Code", "Agent Skills
	// (Codex and others)", "GitHub Copilot", "Claude Code plugin x",
	// "Switchboard").
	App string `json:"app"`
	// Scope is "personal", "project", "plugin" or "switchboard".
	Scope string `json:"scope"`
	// Skills, when not nil, are the source's skill folders, instead of
	// every folder in Dir: a Claude Code plugin whose manifest lists its
	// skills (Dir is then the plugin's folder).
	Skills []string `json:"skills,omitempty"`
}

// ServerPrefix begins the catalog name of every local source; no MCP
// server a person names takes it ("@" marks it as no server of theirs).
const ServerPrefix = "skills@"

// IsLocal reports whether a catalog server name is a local source's.
func IsLocal(server string) bool { return strings.HasPrefix(server, ServerPrefix) }

// Places are where the sources are looked for.
type Places struct {
	// Home is the user's home folder (~/.claude/skills, ~/.agents/skills,
	// ~/.codex/skills, ~/.copilot/skills, ~/.claude/plugins).
	Home string
	// Workspace is the workspace folder, a project: its .claude/skills,
	// .agents/skills and .github/skills.
	Workspace string
	// Folders are folders the user added: each is a project (its
	// .claude/skills, .agents/skills, .github/skills) and, when it holds
	// skill folders itself, a source of its own.
	Folders []string
	// Own is Switchboard's own skills folder (the data dir's skills/),
	// where added skills are copied.
	Own string
}

// projectDirs are a project's skill folders and whose they are.
var projectDirs = []struct{ rel, label, app string }{
	{".claude/skills", "claude", "Claude Code"},
	{".agents/skills", "agents", "Agent Skills (Codex and others)"},
	{".github/skills", "github", "GitHub Copilot"},
}

// Sources are the folders of p to look in, in order: Switchboard's own,
// the personal ones, the workspace's, the added folders', then Claude
// Code's installed plugins. A folder reached twice (a link) is looked in
// once; one that does not exist yet is listed too (watched for its
// creation).
func (p Places) Sources() []Source {
	var out []Source
	used := map[string]bool{}
	add := func(label, dir, app, scope string) *Source {
		label = strings.Trim(sanitize(label), "-")
		server := ServerPrefix + label
		for i := 2; used[server]; i++ {
			server = fmt.Sprintf("%s%s-%d", ServerPrefix, label, i)
		}
		used[server] = true
		out = append(out, Source{Server: server, Dir: filepath.Clean(dir), App: app, Scope: scope})
		return &out[len(out)-1]
	}
	if p.Own != "" {
		add("switchboard", p.Own, "Switchboard", "switchboard")
	}
	if p.Home != "" {
		add("claude", filepath.Join(p.Home, ".claude", "skills"), "Claude Code", "personal")
		add("agents", filepath.Join(p.Home, ".agents", "skills"), "Agent Skills (Codex and others)", "personal")
		// Codex's skill-installer installs into $CODEX_HOME/skills.
		add("codex", filepath.Join(p.Home, ".codex", "skills"), "Codex", "personal")
		add("copilot", filepath.Join(p.Home, ".copilot", "skills"), "GitHub Copilot", "personal")
	}
	project := func(root, prefix string) {
		for _, d := range projectDirs {
			add(prefix+"-"+d.label, filepath.Join(root, d.rel), d.app+" (project "+filepath.Base(root)+")", "project")
		}
	}
	var projects []string
	if p.Workspace != "" {
		project(p.Workspace, "project")
		projects = append(projects, p.Workspace)
	}
	for _, f := range p.Folders {
		project(f, filepath.Base(f))
		add(filepath.Base(f), f, "Added folder", "project")
		projects = append(projects, f)
	}
	if p.Home != "" {
		for _, pl := range plugins(filepath.Join(p.Home, ".claude"), projects) {
			if pl.skills == nil {
				add("plugin-"+pl.name, filepath.Join(pl.dir, "skills"), "Claude Code plugin "+pl.name, "plugin")
				continue
			}
			add("plugin-"+pl.name, pl.dir, "Claude Code plugin "+pl.name, "plugin").Skills = pl.skills
		}
	}
	return out
}

// sanitize keeps a label to lowercase letters, digits and hyphens.
func sanitize(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}
