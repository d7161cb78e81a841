package chat_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/mcpmanager/skills"
)

// fakeSkills is a skill set in memory that records every read.
type fakeSkills struct {
	list  []skills.Skill
	files map[string]string // by URI
	bad   map[string]bool   // URIs whose verification fails
	mu    sync.Mutex
	reads []string
}

func (f *fakeSkills) Skills(context.Context) []skills.Skill { return f.list }

func (f *fakeSkills) Read(_ context.Context, sk skills.Skill, uri string) ([]byte, error) {
	f.mu.Lock()
	f.reads = append(f.reads, uri)
	f.mu.Unlock()
	if f.bad[uri] {
		return nil, fmt.Errorf("%s: skill %s: %s: %w: its digest is not the listing's", sk.Server, sk.Name, sk.Path(uri), skills.ErrVerify)
	}
	text, ok := f.files[uri]
	if !ok {
		return nil, fmt.Errorf("no file %s", uri)
	}
	return []byte(text), nil
}

func (f *fakeSkills) Load(ctx context.Context, sk skills.Skill) (skills.Loaded, error) {
	b, err := f.Read(ctx, sk, sk.URI)
	return skills.Loaded{Skill: sk, Text: string(b)}, err
}

func skillOf(server, name, desc string, files ...string) skills.Skill {
	sk := skills.Skill{Server: server, Name: name, Description: desc, URI: "skill://" + name + "/SKILL.md"}
	for _, f := range append([]string{"SKILL.md"}, files...) {
		sk.Files = append(sk.Files, skills.File{URI: "skill://" + name + "/" + f})
	}
	return sk
}

// toolDesc is the description of the tool named name in a recorded OpenAI
// request.
func toolDesc(t *testing.T, raw json.RawMessage, name string) string {
	t.Helper()
	var req struct {
		Tools []struct {
			Function struct{ Name, Description string } `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		t.Fatal(err)
	}
	for _, tl := range req.Tools {
		if tl.Function.Name == name {
			return tl.Function.Description
		}
	}
	return ""
}

// TestLoadSkill: the model is offered load_skill listing each skill by
// name and description, reads nothing until it calls it; loading gets the
// SKILL.md (and names the skill's other files), a file by its path comes
// next, a skill whose verification fails is refused in the result, and
// two servers' skills of one name are told apart as server/name.
func TestLoadSkill(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	set := &fakeSkills{
		list: []skills.Skill{
			skillOf("docs", "release-notes", "Write release notes in the house style", "templates/TEMPLATE.md"),
			skillOf("docs", "haiku", "Answer in a haiku"),
			skillOf("poems", "haiku", "Answer in a haiku, the poet's way"),
		},
		files: map[string]string{
			"skill://release-notes/SKILL.md":              "---\nname: release-notes\n---\nGroup the changes under Added and Fixed.",
			"skill://release-notes/templates/TEMPLATE.md": "# Version X.Y.Z",
		},
		bad: map[string]bool{"skill://haiku/SKILL.md": true},
	}
	f.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("l1", chat.LoadSkillName, `{"name":"release-notes"}`)}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("l2", chat.LoadSkillName, `{"name":"release-notes","file":"templates/TEMPLATE.md"}`)}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("l3", chat.LoadSkillName, `{"name":"docs/haiku"}`)}},
		providertest.Reply{Text: "Here are your notes."},
	)
	res, err := f.send(t.Context(), "write the release notes", func(tn *chat.Turn) { tn.Skills = set })
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.llm.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d model requests, want 4", len(reqs))
	}
	desc := toolDesc(t, reqs[0], chat.LoadSkillName)
	for _, want := range []string{"release-notes: Write release notes in the house style", "docs/haiku: Answer in a haiku", "poems/haiku: Answer in a haiku, the poet's way"} {
		if !strings.Contains(desc, want) {
			t.Errorf("load_skill's description lacks %q:\n%s", want, desc)
		}
	}

	calls := res.ToolCalls
	if len(calls) != 3 {
		t.Fatalf("%d calls, want 3", len(calls))
	}
	text := func(i int) string { return callResultText(t, calls[i].Result) }
	if calls[0].IsError || !strings.Contains(text(0), "Group the changes under Added and Fixed.") || !strings.Contains(text(0), "templates/TEMPLATE.md") {
		t.Fatalf("load_skill release-notes: %s", calls[0].Result)
	}
	var sc chat.SkillResult
	var raw struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if err := json.Unmarshal(calls[0].Result, &raw); err != nil || json.Unmarshal(raw.StructuredContent, &sc) != nil || sc != (chat.SkillResult{Skill: "release-notes", Server: "docs", File: "SKILL.md", Size: len(text(0))}) {
		t.Fatalf("structured content %s (%+v)", raw.StructuredContent, sc)
	}
	if calls[1].IsError || text(1) != "# Version X.Y.Z" {
		t.Fatalf("the template: %s", calls[1].Result)
	}
	if !calls[2].IsError || !strings.Contains(text(2), "verification failed") || !strings.Contains(text(2), "docs: skill haiku") {
		t.Fatalf("a skill failing verification: %s", calls[2].Result)
	}
	want := []string{"skill://release-notes/SKILL.md", "skill://release-notes/templates/TEMPLATE.md", "skill://haiku/SKILL.md"}
	if !slices.Equal(set.reads, want) {
		t.Fatalf("read %v, want %v: nothing before the model asked", set.reads, want)
	}
	if !strings.Contains(string(reqs[1]), "Group the changes under Added and Fixed.") {
		t.Fatalf("the loaded skill did not reach the model")
	}
}

// TestNoSkillsNoTool: a turn without skills is not offered load_skill.
func TestNoSkillsNoTool(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	f.llm.Enqueue(providertest.Reply{Text: "hi"})
	if _, err := f.send(t.Context(), "hi", func(tn *chat.Turn) { tn.Skills = &fakeSkills{} }); err != nil {
		t.Fatal(err)
	}
	if d := toolDesc(t, f.llm.Requests()[0], chat.LoadSkillName); d != "" {
		t.Fatalf("load_skill offered without skills: %s", d)
	}
}

// callResultText is the text of a stored CallToolResult.
func callResultText(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var r struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// TestSkillsOnPerServerAndAgent: a skill is on unless the user switched it
// off; an agent's chats get its servers' skills, narrowed by its Skills.
func TestSkillsOnPerServerAndAgent(t *testing.T) {
	s := chat.Settings{OffSkills: []string{"docs/haiku"}}
	if s.SkillOn("docs", "haiku") || !s.SkillOn("docs", "notes") || !s.SkillOn("poems", "haiku") {
		t.Fatal("SkillOn does not follow OffSkills")
	}
	for _, c := range []struct {
		agent        chat.Agent
		server, name string
		want         bool
	}{
		{chat.Agent{Servers: []string{"docs"}}, "docs", "haiku", true},
		{chat.Agent{Servers: []string{"docs"}}, "poems", "haiku", false},
		{chat.Agent{Servers: []string{"docs"}, Skills: []string{"docs/notes"}}, "docs", "notes", true},
		{chat.Agent{Servers: []string{"docs"}, Skills: []string{"docs/notes"}}, "docs", "haiku", false},
	} {
		if got := c.agent.AllowsSkill(c.server, c.name); got != c.want {
			t.Errorf("%+v allows %s/%s = %v, want %v", c.agent, c.server, c.name, got, c.want)
		}
	}
	bad := chat.Agent{Name: "writer", Servers: []string{"docs"}, Skills: []string{"poems/haiku"}}
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), `skill "poems/haiku"`) {
		t.Fatalf("an agent with another server's skill: %v", err)
	}
}

// TestManySkillsFitTheWindow: 20,000 skills (two servers' "haiku" and
// one server's two among them) and a model with an 8,000-token window:
// the chat works. The list takes at most SkillShare of the window: names
// only, as many as fit and how many more; load_skill's query describes
// the ones that fit (the haikus told apart as server/name, and within one
// server as server/path), and one loads by name. Before, every
// skill's name and description went into load_skill's description (about
// 100,000 tokens) and every request was too long.
func TestManySkillsFitTheWindow(t *testing.T) {
	const contextSize = 8000
	f := newFixture(t, provider.KindOpenAI, nil)
	set := &fakeSkills{files: map[string]string{"skill://haiku/SKILL.md": "---\nname: haiku\n---\nAnswer in 5-7-5."}}
	for i := range 20_000 - 4 {
		set.list = append(set.list, skillOf(fmt.Sprintf("srv%d", i%20), fmt.Sprintf("skill-%05d", i), fmt.Sprintf("Does task number %d of the user's many tasks", i)))
	}
	set.list = append(set.list, skillOf("docs", "haiku", "Answer in a haiku"), skillOf("poems", "haiku", "Answer in a haiku, the poet's way"))
	// One server with two skills of one name at two paths (as serve relays them).
	relayed := skillOf("serve", "haiku", "Answer in a haiku, relayed")
	relayed.URI = "skill://poets/haiku/SKILL.md"
	set.list = append(set.list, relayed, skillOf("serve", "haiku", "Answer in a haiku, the other relayed"))
	f.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("q", chat.LoadSkillName, `{"query":"write a haiku"}`)}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("l", chat.LoadSkillName, `{"name":"docs/haiku"}`)}},
		providertest.Reply{Text: "Done."},
	)
	res, err := f.send(t.Context(), "answer in a haiku", func(tn *chat.Turn) { tn.Skills = set; tn.ContextWindow = contextSize })
	if err != nil {
		t.Fatalf("a chat with 20,000 skills: %v", err)
	}
	reqs := f.llm.Requests()
	var tools struct {
		Tools []struct {
			Function struct {
				Name, Description string
				Parameters        json.RawMessage
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(reqs[0], &tools); err != nil {
		t.Fatal(err)
	}
	var desc string
	for _, tl := range tools.Tools {
		if tl.Function.Name == chat.LoadSkillName {
			desc = tl.Function.Description
			if size := (len(desc) + len(tl.Function.Parameters)) / 4; size > contextSize*chat.SkillShare/100 {
				t.Errorf("load_skill takes about %d tokens, more than %d%% of the %d-token window", size, chat.SkillShare, contextSize)
			}
		}
	}
	if size := len(reqs[0]) / 4; size > contextSize/2 {
		t.Errorf("the first request is about %d tokens of an %d-token window", size, contextSize)
	}
	if !strings.Contains(desc, "There are 20000 skills") || !strings.Contains(desc, "skill-00000, skill-00001") || !strings.Contains(desc, "more (find them with query)") || strings.Contains(desc, "Does task number") {
		t.Errorf("load_skill's description is not the names that fit and how many more:\n%s", desc)
	}
	if len(res.ToolCalls) != 2 {
		t.Fatalf("%d calls, want 2", len(res.ToolCalls))
	}
	found := callResultText(t, res.ToolCalls[0].Result)
	for _, want := range []string{"- docs/haiku: Answer in a haiku\n", "- poems/haiku: Answer in a haiku, the poet's way\n",
		"- serve/poets/haiku: Answer in a haiku, relayed\n", "- serve/haiku: Answer in a haiku, the other relayed\n"} {
		if !strings.Contains(found, want) {
			t.Errorf("the query's answer lacks %q:\n%s", want, found)
		}
	}
	if res.ToolCalls[1].IsError || !strings.Contains(callResultText(t, res.ToolCalls[1].Result), "Answer in 5-7-5.") {
		t.Fatalf("loading docs/haiku: %s", res.ToolCalls[1].Result)
	}
}

// TestLoadSkillRefusesPathsOutside: a file path with a .. segment or an
// absolute one is refused before the skill set is asked to read it.
func TestLoadSkillRefusesPathsOutside(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	set := &fakeSkills{list: []skills.Skill{skillOf("docs", "notes", "Write notes")}}
	f.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("a", chat.LoadSkillName, `{"name":"notes","file":"../../etc/passwd"}`)}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("b", chat.LoadSkillName, `{"name":"notes","file":"/etc/passwd"}`)}},
		providertest.Reply{Text: "no"},
	)
	res, err := f.send(t.Context(), "read it", func(tn *chat.Turn) { tn.Skills = set })
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.ToolCalls {
		if !c.IsError || !strings.Contains(callResultText(t, c.Result), "not a path within the skill") {
			t.Errorf("%s: %s", c.Arguments, c.Result)
		}
	}
	if len(set.reads) != 0 {
		t.Fatalf("read %q", set.reads)
	}
}

// localSet is a skill set of skills on this computer: it knows their
// folder, which skills it holds back and why, and which files it left out.
type localSet struct {
	*fakeSkills
	held    map[string]string // name → why
	leftOut map[string]string // path → why
}

func (l *localSet) Folder(skills.Skill) string                        { return "/home/me/.claude/skills/pdf" }
func (l *localSet) Unavailable(_ context.Context, name string) string { return l.held[name] }
func (l *localSet) LeftOut(_ skills.Skill, path string) string {
	return l.leftOut[path]
}

func (l *localSet) Read(ctx context.Context, sk skills.Skill, uri string) ([]byte, error) {
	if _, ok := l.leftOut[sk.Path(uri)]; ok {
		return nil, fmt.Errorf("%s: skill %s: %s: %w: the skill lists no such file", sk.Server, sk.Name, sk.Path(uri), skills.ErrUnknownSkill)
	}
	return l.fakeSkills.Read(ctx, sk, uri)
}

// TestLoadSkillSaysWhatItCannotGive: a binary file is described (its
// type and size), not sent as text, and the loaded skill names its binary
// files apart from the ones load_skill reads; a skill held for review and
// a file left out are said so, not "no such skill" or "no such file".
func TestLoadSkillSaysWhatItCannotGive(t *testing.T) {
	font := "\x00\x01\x00\x00\x00\x10\x01\x00\xff\xfe"
	sk := skillOf("skills@claude", "pdf", "Fill PDF forms", "references/FORMS.md", "fonts/Sans.ttf", "big.bin")
	sk.Files[2].Size = int64(len(font))
	set := &localSet{
		fakeSkills: &fakeSkills{list: []skills.Skill{sk}, files: map[string]string{
			"skill://pdf/SKILL.md": "---\nname: pdf\n---\nFill it.", "skill://pdf/references/FORMS.md": "# Fields", "skill://pdf/fonts/Sans.ttf": font,
		}},
		held:    map[string]string{"notes": "the skill skills@claude/notes on this computer is held for the user's review: its files changed"},
		leftOut: map[string]string{"big.bin": "big.bin of the skill skills@claude/pdf is not served: 52428800 bytes, past the 16777216 bytes a skill may hold in all; not read"},
	}
	for _, tt := range []struct {
		args    string
		isError bool
		want    []string
		not     []string
	}{
		{`{"name":"pdf"}`, false, []string{"Its other files, which load_skill reads with file set to their path: references/FORMS.md.",
			"Its binary files (not text: load_skill gives only their type and size; the skill's scripts use them by path): fonts/Sans.ttf (font/ttf, 10 bytes)"}, []string{"references/FORMS.md, fonts"}},
		{`{"name":"pdf","file":"fonts/Sans.ttf"}`, false, []string{`fonts/Sans.ttf of skill "pdf" is a binary file (font/ttf, 10 bytes), not text`, "/home/me/.claude/skills/pdf/fonts/Sans.ttf"}, []string{"\ufffd"}},
		{`{"name":"pdf","file":"references/FORMS.md"}`, false, []string{"# Fields"}, nil},
		{`{"name":"pdf","file":"big.bin"}`, true, []string{"big.bin of the skill skills@claude/pdf is not served: 52428800 bytes"}, []string{"lists no such file"}},
		{`{"name":"notes"}`, true, []string{"is held for the user's review"}, []string{"there is no skill named"}},
		{`{"name":"nothing"}`, true, []string{`there is no skill named "nothing"`}, nil},
	} {
		t.Run(tt.args, func(t *testing.T) {
			f := newFixture(t, provider.KindOpenAI, nil)
			f.llm.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{call("l", chat.LoadSkillName, tt.args)}}, providertest.Reply{Text: "ok"})
			res, err := f.send(t.Context(), "fill it", func(tn *chat.Turn) { tn.Skills = set })
			if err != nil {
				t.Fatal(err)
			}
			c := res.ToolCalls[0]
			text := callResultText(t, c.Result)
			if c.IsError != tt.isError {
				t.Errorf("error %v, want %v: %s", c.IsError, tt.isError, text)
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("result lacks %q:\n%s", w, text)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(text, n) {
					t.Errorf("result has %q:\n%s", n, text)
				}
			}
		})
	}
}
