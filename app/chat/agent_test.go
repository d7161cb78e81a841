package chat_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// config.json's agents are checked when the chat settings load: every
// problem at once, each at its JSON path, saying what to do. Two agents
// sharing an ID or a name (in any case) are refused: an edit of one would
// replace the other.
func TestLoadSettingsChecksAgents(t *testing.T) {
	for _, tt := range []struct {
		name   string
		agents string
		paths  []string // the problems' paths, in order
		says   string   // the first problem's message holds this
	}{
		{name: "valid", agents: `[{"id":"r1","name":"Researcher","servers":["alpha"],"tools":["alpha__echo"]},{"id":"d1","name":"Deleg","servers":[]}]`},
		{name: "a shared id", agents: `[{"id":"r1","name":"Researcher"},{"id":"r1","name":"SameID"}]`,
			paths: []string{"settings.chat.agents[1].id"}, says: `agents[0] ("Researcher") has the id "r1" too`},
		{name: "names differing only in case", agents: `[{"id":"r1","name":"Researcher"},{"id":"dup1","name":" researcher"}]`,
			paths: []string{"settings.chat.agents[1].name"}, says: "rename one of them"},
		{name: "no name, no id", agents: `[{"id":"e1","name":""},{"name":"NoID"}]`,
			paths: []string{"settings.chat.agents[0].name", "settings.chat.agents[1].id"}, says: "give it one"},
		{name: "a tool outside its servers", agents: `[{"id":"nt","name":"NT","servers":["alpha"],"tools":["beta__echo"]}]`,
			paths: []string{"settings.chat.agents[0].tools"}, says: `"beta__echo" is not a tool of one of its servers (alpha)`},
		{name: "a bad policy and tool mode", agents: `[{"id":"p","name":"P","policies":{"a__*":"maybe"},"toolMode":"fast"}]`,
			paths: []string{"settings.chat.agents[0].toolMode", "settings.chat.agents[0].policies"}, says: "set it to direct, code or both"},
		{name: "a bidi override in a name", agents: "[{\"id\":\"b\",\"name\":\"rehcraeseR\u202e\"}]",
			paths: []string{"settings.chat.agents[0].name"}, says: "U+202E"},
		// A long name saved before the limit still loads (it is shortened at its next save).
		{name: "a long name", agents: `[{"id":"l","name":"` + strings.Repeat("x", 300) + `"}]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := chat.LoadSettings([]byte(`{"chat":{"agents":` + tt.agents + `}}`))
			if len(tt.paths) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var ve *config.ValidationError
			if !errors.As(err, &ve) || !errors.Is(err, config.ErrSettings) {
				t.Fatalf("err = %v, want a settings problem", err)
			}
			var paths []string
			for _, p := range ve.Problems {
				paths = append(paths, p.Path)
			}
			if strings.Join(paths, " ") != strings.Join(tt.paths, " ") {
				t.Fatalf("problems at %v, want %v (%v)", paths, tt.paths, err)
			}
			if !strings.Contains(ve.Problems[0].Message, tt.says) || !strings.Contains(ve.Problems[0].Message, "config.json") {
				t.Fatalf("message %q should say %q and where to fix it", ve.Problems[0].Message, tt.says)
			}
		})
	}
}

// PutAgent replaces only the agent with the ID it is given, refuses a name
// another agent has (in any case), and a name that is too long or holds
// invisible characters.
func TestPutAgent(t *testing.T) {
	base := func() chat.Settings {
		return chat.Settings{Agents: []chat.Agent{
			{ID: "r1", Name: "Researcher", System: "keep me", Servers: []string{"alpha"}},
			{ID: "d1", Name: "Deleg", Servers: []string{}},
		}}
	}
	for _, tt := range []struct {
		name    string
		agents  []chat.Agent // the settings' agents (nil: base)
		put     chat.Agent
		wantErr string
	}{
		{name: "saved unchanged", put: chat.Agent{ID: "r1", Name: "Researcher", System: "keep me", Servers: []string{"alpha"}}},
		{name: "renamed in case only", put: chat.Agent{ID: "r1", Name: "researcher"}},
		{name: "another's name", put: chat.Agent{ID: "d1", Name: "RESEARCHER"}, wantErr: `an agent named "Researcher" already exists`},
		{name: "a new agent with another's name", put: chat.Agent{Name: "deleg"}, wantErr: "already exists"},
		{name: "an ID no agent has", put: chat.Agent{ID: "zz", Name: "New"}, wantErr: "no agent with that ID"},
		{name: "an ID two agents have", agents: []chat.Agent{{ID: "x", Name: "A"}, {ID: "x", Name: "B"}}, put: chat.Agent{ID: "x", Name: "A"},
			wantErr: `2 agents have the id "x"`},
		{name: "too long", put: chat.Agent{Name: strings.Repeat("n", chat.MaxAgentName+1)}, wantErr: "shorten it to 64"},
		{name: "64 characters", put: chat.Agent{Name: strings.Repeat("ü", chat.MaxAgentName)}},
		{name: "a right-to-left override", put: chat.Agent{Name: "a\u202eb"}, wantErr: "U+202E"},
		{name: "a control character", put: chat.Agent{Name: "a\x1bb"}, wantErr: "U+001B"},
		{name: "a zero-width space", put: chat.Agent{Name: "a\u200bb"}, wantErr: "U+200B"},
		{name: "an emoji joined with ZWJ", put: chat.Agent{Name: "Coder 👩\u200d💻"}},
		{name: "slashes are a name like any", put: chat.Agent{Name: "../../etc/passwd"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := base()
			if tt.agents != nil {
				s.Agents = tt.agents
			}
			before := len(s.Agents)
			saved, err := s.PutAgent(tt.put)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Agent(saved.ID)
			if err != nil || got.Name != strings.TrimSpace(tt.put.Name) {
				t.Fatalf("stored %+v, %v", got, err)
			}
			// No other agent changed.
			for _, o := range s.Agents {
				if o.ID != saved.ID && o.ID == "r1" && o.System != "keep me" {
					t.Fatalf("Researcher was changed: %+v", o)
				}
			}
			if tt.put.ID == "" && len(s.Agents) != before+1 || tt.put.ID != "" && len(s.Agents) != before {
				t.Fatalf("%d agents after saving, had %d", len(s.Agents), before)
			}
		})
	}
}

// --agent finds an agent by its ID first, then by its name in any case.
func TestFindAgentPrefersTheID(t *testing.T) {
	s := chat.Settings{Agents: []chat.Agent{{ID: "a1", Name: "r1"}, {ID: "r1", Name: "Researcher"}}}
	for in, want := range map[string]string{"r1": "Researcher", "RESEARCHER": "Researcher", "a1": "r1"} {
		if a, err := s.FindAgent(in); err != nil || a.Name != want {
			t.Errorf("FindAgent(%q) = %q, %v; want %q", in, a.Name, err, want)
		}
	}
	if _, err := s.FindAgent("nobody"); err == nil || !strings.Contains(err.Error(), "the agents are: r1, Researcher") {
		t.Errorf("an unknown agent: %v", err)
	}
}

// An agent's errors on save name the agent once and the field, and say
// what to write; a policy pattern that matches no tool ("files" for
// "files__*") is refused rather than saved to deny nothing.
func TestPutAgentSaysWhatToFix(t *testing.T) {
	for _, tt := range []struct {
		name string
		put  chat.Agent
		want string // the whole error starts with this ("" saves)
		says string // and holds this
	}{
		{name: "a server's policy without __*", put: chat.Agent{Name: "R", Servers: []string{"files"}, Policies: chat.Policies{"files": chat.PolicyDeny}},
			want: `agent "R": the policy for "files" applies to no tool`, says: "such as files__*"},
		{name: "a pattern with nothing after __", put: chat.Agent{Name: "R", Servers: []string{"files"}, Policies: chat.Policies{"files__": chat.PolicyDeny}},
			want: `agent "R": the policy for "files__" applies to no tool`, says: "server__tool"},
		{name: "a pattern with no server", put: chat.Agent{Name: "R", Servers: []string{"files"}, Policies: chat.Policies{"__*": chat.PolicyAllow}},
			want: `agent "R": the policy for "__*" applies to no tool`, says: "such as files__*"},
		{name: "a whole server", put: chat.Agent{Name: "R", Servers: []string{"files"}, Policies: chat.Policies{"files__*": chat.PolicyDeny, "files__read": chat.PolicyAllow}}},
		{name: "a skill not written server/name", put: chat.Agent{Name: "R", Servers: []string{"files"}, Skills: []string{"pdf"}},
			want: `agent "R": skill "pdf" is not written server/name`, says: "add its server to servers"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var s chat.Settings
			_, err := s.PutAgent(tt.put)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("err = %v, want it to start %q and say %q", err, tt.want, tt.says)
			}
			if len(s.Agents) != 0 {
				t.Fatalf("saved %+v", s.Agents)
			}
		})
	}
}
