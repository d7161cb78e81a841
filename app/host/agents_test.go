package host

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeAgentsConfig writes config.json with servers alpha and beta and
// the given chat settings.
func writeAgentsConfig(t *testing.T, h *Host, chatJSON string) {
	t.Helper()
	cfg := `{"mcpServers":{"alpha":{"command":"alpha-mcp"},"beta":{"command":"beta-mcp"},"memory":{"command":"memory-mcp"}},"settings":{"chat":` + chatJSON + `}}`
	if err := os.WriteFile(h.Dir().Config(), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
}

// The list marks what an agent names that is not set up: a server
// neither configured nor built in, a provider that is gone.
func TestAgentsListMarksWhatIsMissing(t *testing.T) {
	h := open(t)
	writeAgentsConfig(t, h, `{"providers":[{"name":"Fake","kind":"ollama","baseUrl":"http://127.0.0.1:1"}],"agents":[
		{"id":"d1","name":"Deleg","servers":["alpha","beta","workspace"],"delegate":true},
		{"id":"g1","name":"Ghost","servers":["nosuch","alpha"],"provider":"Removed","model":"gone"},
		{"id":"f1","name":"OnFake","servers":[],"provider":"fake"}]}`)
	list, err := h.Agents.List()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Agent{}
	for _, a := range list {
		got[a.Name] = a
	}
	if d := got["Deleg"]; len(d.Missing) != 0 || d.ProviderMissing {
		t.Errorf("Deleg: %+v", d)
	}
	if g := got["Ghost"]; !slices.Equal(g.Missing, []string{"nosuch"}) || !g.ProviderMissing {
		t.Errorf("Ghost: %+v", g)
	}
	if f := got["OnFake"]; f.ProviderMissing {
		t.Errorf("a provider named in another case is set up: %+v", f)
	}
}

// Removing a server takes it out of every agent that named it — servers,
// tools, skills, its policies there — so a new server of that name does
// not inherit the agent's grant; Using names those agents first.
func TestRemovingAServerLeavesItsAgents(t *testing.T) {
	h := open(t)
	writeAgentsConfig(t, h, `{"agents":[
		{"id":"d1","name":"Deleg","servers":["alpha","beta"],"tools":["alpha__echo","beta__echo"],"skills":["beta/pdf"],
			"policies":{"beta__*":"allow","beta__echo":"allow","alpha__*":"ask"},"delegate":true},
		{"id":"r1","name":"Researcher","servers":["alpha"]}]}`)
	using, err := h.Agents.Using("beta")
	if err != nil || !slices.Equal(using, []string{"Deleg"}) {
		t.Fatalf("Using(beta) = %v, %v", using, err)
	}
	if err := h.Servers.Remove("beta"); err != nil {
		t.Fatal(err)
	}
	d, err := h.Agents.Get("Deleg")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Servers, []string{"alpha"}) || !slices.Equal(d.Tools, []string{"alpha__echo"}) || len(d.Skills) != 0 ||
		len(d.Policies) != 1 || d.Policies["alpha__*"] != "ask" || len(d.Missing) != 0 {
		t.Fatalf("Deleg after beta was removed: %+v", d)
	}
	if r, _ := h.Agents.Get("r1"); !slices.Equal(r.Servers, []string{"alpha"}) {
		t.Fatalf("Researcher changed: %+v", r)
	}
	// A server added again under the name is in no agent.
	if using, _ := h.Agents.Using("beta"); len(using) != 0 {
		t.Fatalf("after the remove, beta is used by %v", using)
	}
}

// Duplicate saves a copy under a free name ("NAME copy", "NAME copy 2"),
// within the name limit, with its own copy of the lists.
func TestDuplicateAgent(t *testing.T) {
	h := open(t)
	long := strings.Repeat("x", 64)
	writeAgentsConfig(t, h, `{"agents":[{"id":"r1","name":"Researcher","system":"S","servers":["alpha"],"policies":{"alpha__*":"allow"}},
		{"id":"l1","name":"`+long+`","servers":[]}]}`)
	for _, want := range []string{"Researcher copy", "Researcher copy 2"} {
		c, err := h.Agents.Duplicate("r1")
		if err != nil {
			t.Fatal(err)
		}
		if c.Name != want || c.ID == "r1" || c.ID == "" || c.System != "S" || !slices.Equal(c.Servers, []string{"alpha"}) || c.Policies["alpha__*"] != "allow" {
			t.Fatalf("copy %+v, want %q", c, want)
		}
	}
	c, err := h.Agents.Duplicate("l1")
	if err != nil || len([]rune(c.Name)) != 64 || !strings.HasSuffix(c.Name, " copy") {
		t.Fatalf("copy of a 64-character name: %q, %v", c.Name, err)
	}
	list, _ := h.Agents.List()
	if len(list) != 5 {
		t.Fatalf("%d agents, want 5", len(list))
	}
}

// Claude Code's agent files become agents: the frontmatter's name,
// description and tools (mcp__S__T → S__T, its file and shell tools → the
// workspace's), the body as the prompt; what has no match is noted, a file
// that is no agent file is refused with why, and an agent whose name is
// taken is skipped, never replaced.
func TestImportClaudeCodeAgents(t *testing.T) {
	h := open(t)
	writeAgentsConfig(t, h, `{"agents":[{"id":"p1","name":"Planner","system":"mine","servers":[]}]}`)
	project, err := filepath.Abs(filepath.Join("testdata", "claudeagents"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", t.TempDir()) // no personal agents
	if dirs := h.Agents.ClaudeCodeAgentDirs(project); !slices.Equal(dirs, []string{filepath.Join(project, ".claude", "agents")}) {
		t.Fatalf("dirs %v", dirs)
	}
	found, err := h.Agents.Find(nil, project)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]AgentFile{}
	var names []string
	for _, f := range found {
		byName[filepath.Base(f.Path)] = f
		names = append(names, filepath.Base(f.Path))
	}
	if strings.Join(names, " ") != "README.md code-reviewer.md docs-researcher.md unclosed.md planner.md task-gate.md" {
		t.Fatalf("files %v (a hidden folder's are left out)", names)
	}
	notes := func(f AgentFile) string { return strings.Join(f.Notes, " | ") }

	cr := byName["code-reviewer.md"]
	if cr.Problem != "" || cr.Source != "Claude Code (project)" || cr.Agent.Name != "code-reviewer" || !strings.HasPrefix(cr.Agent.System, "You are a senior code reviewer.") ||
		!slices.Equal(cr.Agent.Servers, []string{"workspace"}) ||
		!slices.Equal(cr.Agent.Tools, []string{"workspace__read_file", "workspace__write_file", "workspace__edit_file", "workspace__execute_shell", "workspace__search_files"}) ||
		!strings.Contains(notes(cr), `model "inherit"`) || !strings.Contains(notes(cr), "mode is not used here") {
		t.Errorf("code-reviewer: %+v", cr)
	}
	dr := byName["docs-researcher.md"]
	if dr.Problem != "" || !slices.Equal(dr.Agent.Servers, []string{"context7", "workspace"}) ||
		!slices.Equal(dr.Agent.Tools, []string{"context7__resolve-library-id", "context7__query-docs", "workspace__read_file", "workspace__search_files"}) ||
		!strings.Contains(dr.Agent.Description, "<example>") ||
		!strings.Contains(notes(dr), "WebFetch is Claude Code's own") || !strings.Contains(notes(dr), "not set up here: context7") ||
		!strings.Contains(notes(dr), "read with its values quoted") {
		t.Errorf("docs-researcher: %+v", dr)
	}
	tg := byName["task-gate.md"]
	if tg.Problem != "" || !slices.Equal(tg.Agent.Servers, []string{"memory", "github", "workspace"}) ||
		!slices.Equal(tg.Agent.Tools, []string{"memory__read_graph", "memory__search_nodes", "workspace__execute_shell"}) ||
		!strings.Contains(notes(tg), "Bash(git log:*)") || !strings.Contains(notes(tg), "TodoWrite is Claude Code's own") ||
		!strings.Contains(notes(tg), "not set up here: github;") || !strings.Contains(notes(tg), "permissionMode is not used") {
		t.Errorf("task-gate: %+v", tg)
	}
	pl := byName["planner.md"]
	if pl.Problem != "" || !pl.Exists || len(pl.Agent.Servers) != 0 || !strings.Contains(notes(pl), "no tools line") {
		t.Errorf("planner: %+v", pl)
	}
	if f := byName["README.md"]; !strings.Contains(f.Problem, "no frontmatter") {
		t.Errorf("README: %+v", f)
	}
	if f := byName["unclosed.md"]; !strings.Contains(f.Problem, "unclosed.md's frontmatter block") {
		t.Errorf("unclosed: %+v", f)
	}

	done, err := h.Agents.Import(nil, project)
	if err != nil {
		t.Fatal(err)
	}
	var imported []string
	for _, f := range done {
		if f.Imported != "" {
			imported = append(imported, f.Agent.Name)
		}
	}
	if strings.Join(imported, " ") != "code-reviewer docs-researcher task-gate" {
		t.Fatalf("imported %v", imported)
	}
	if p, err := h.Agents.Get("planner"); err != nil || p.System != "mine" {
		t.Fatalf("the agent already there was replaced: %+v, %v", p, err)
	}
	if d, err := h.Agents.Get("docs-researcher"); err != nil || !slices.Equal(d.Missing, []string{"context7"}) {
		t.Fatalf("imported docs-researcher: %+v, %v", d, err)
	}
}
