package host

import (
	"encoding/json"
	"maps"
	"os"
	"slices"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// refsSettings names servers alpha and beta (and betamax, whose name only
// starts like beta's) in an agent, in every global chat setting keyed by
// server and in a connected app's server list.
const refsSettings = `{"chat":{
	"agents":[{"id":"a1","name":"Both","servers":["alpha","beta","betamax"],"tools":["alpha__echo","beta__echo","betamax__echo"],
		"skills":["beta/pdf","alpha/pdf"],"policies":{"beta__*":"allow","beta__echo":"deny","alpha__*":"ask"}}],
	"policies":{"beta__*":"allow","beta__echo":"deny","alpha__echo":"ask","betamax__echo":"allow"},
	"rules":[{"id":"r1","tool":"beta__shell","effect":"allow","match":[{"path":"command","glob":"ls*"}]},
		{"id":"r2","tool":"alpha__shell","effect":"deny","match":[{"path":"command","glob":"rm*"}]}],
	"pinned":["beta__echo","alpha__echo"],
	"resultBudgets":{"beta__*":1000,"alpha__echo":2000},
	"offSkills":["beta/pdf","alpha/pdf"]},
	"clients":{"cursor":{"servers":["beta","alpha"]}}}`

// writeRefsConfig writes config.json with servers alpha, beta and betamax
// and refsSettings.
func writeRefsConfig(t *testing.T, h *Host) {
	t.Helper()
	cfg := `{"mcpServers":{"alpha":{"command":"true","disabled":true},"beta":{"command":"true","disabled":true},` +
		`"betamax":{"command":"true","disabled":true}},"settings":` + refsSettings + `}`
	if err := os.WriteFile(h.Dir().Config(), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := h.Servers.Load(); err != nil {
		t.Fatal(err)
	}
}

// refsView is what the settings name, in a form a test compares.
type refsView struct {
	AgentServers, AgentTools, AgentSkills, AgentPolicies []string
	Policies, Rules, Pinned, Budgets, OffSkills          []string
	ClientServers                                        []string
}

func readRefs(t *testing.T, h *Host) refsView {
	t.Helper()
	s, err := h.Settings.Chat()
	if err != nil {
		t.Fatal(err)
	}
	a := s.Agents[0]
	v := refsView{
		AgentServers: a.Servers, AgentTools: a.Tools, AgentSkills: a.Skills,
		AgentPolicies: slices.Sorted(maps.Keys(a.Policies)), Policies: slices.Sorted(maps.Keys(s.Policies)),
		Pinned: s.Pinned, Budgets: slices.Sorted(maps.Keys(s.ResultBudgets)), OffSkills: s.OffSkills,
	}
	for _, r := range s.Rules {
		v.Rules = append(v.Rules, r.Tool)
	}
	cfg, err := h.readConfig()
	if err != nil {
		t.Fatal(err)
	}
	apps, err := clientsSection.Get(cfg)
	if err != nil {
		t.Fatal(err)
	}
	v.ClientServers = apps["cursor"].Servers
	return v
}

// Removing a server takes it out of every setting that names it — an
// agent's, and the global policies, rules, pinned tools, result budgets
// and switched-off skills — so a server added later under the name
// inherits none of it (an "allow" above all); betamax, whose name starts
// like it, keeps its own. Renaming one (the Edit form) renames all of it,
// and the connected app's server list too, in the same write.
func TestServerRefsFollowRemoveAndRename(t *testing.T) {
	tests := []struct {
		name string
		do   func(t *testing.T, h *Host)
		want refsView
	}{
		{"remove", func(t *testing.T, h *Host) {
			if err := h.Servers.Remove("beta"); err != nil {
				t.Fatal(err)
			}
		}, refsView{
			AgentServers: []string{"alpha", "betamax"}, AgentTools: []string{"alpha__echo", "betamax__echo"},
			AgentSkills: []string{"alpha/pdf"}, AgentPolicies: []string{"alpha__*"},
			Policies: []string{"alpha__echo", "betamax__echo"}, Rules: []string{"alpha__shell"}, Pinned: []string{"alpha__echo"},
			Budgets: []string{"alpha__echo"}, OffSkills: []string{"alpha/pdf"},
			ClientServers: []string{"beta", "alpha"}, // emptied, the list would mean every server
		}},
		{"rename", func(t *testing.T, h *Host) {
			cur, _ := h.Servers.Get("beta")
			next := cur.Clone()
			next.Name = "gamma"
			if _, err := h.Servers.Save(saveCtx(t), ServerEdit{Old: "beta", Server: next}); err != nil {
				t.Fatal(err)
			}
		}, refsView{
			AgentServers: []string{"alpha", "gamma", "betamax"}, AgentTools: []string{"alpha__echo", "gamma__echo", "betamax__echo"},
			AgentSkills: []string{"gamma/pdf", "alpha/pdf"}, AgentPolicies: []string{"alpha__*", "gamma__*", "gamma__echo"},
			Policies: []string{"alpha__echo", "betamax__echo", "gamma__*", "gamma__echo"}, Rules: []string{"gamma__shell", "alpha__shell"},
			Pinned: []string{"gamma__echo", "alpha__echo"}, Budgets: []string{"alpha__echo", "gamma__*"},
			OffSkills: []string{"gamma/pdf", "alpha/pdf"}, ClientServers: []string{"gamma", "alpha"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := open(t)
			writeRefsConfig(t, h)
			tt.do(t, h)
			got, _ := json.MarshalIndent(readRefs(t, h), "", " ")
			want, _ := json.MarshalIndent(tt.want, "", " ")
			if string(got) != string(want) {
				t.Fatalf("settings after the %s:\n%s\nwant\n%s", tt.name, got, want)
			}
		})
	}
}

// A server added again under a removed one's name starts with no policy:
// the removed one's "allow" is not its.
func TestReaddedServerInheritsNoPolicy(t *testing.T) {
	h := open(t)
	writeRefsConfig(t, h)
	if err := h.Servers.Remove("beta"); err != nil {
		t.Fatal(err)
	}
	if err := h.Servers.Add(config.Server{Name: "beta", Transport: config.Stdio, Command: "true", Disabled: true}); err != nil {
		t.Fatal(err)
	}
	s, err := h.Settings.Chat()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"beta__*", "beta__echo"} {
		if p, ok := s.Policies[k]; ok {
			t.Errorf("the new beta has the removed one's policy %s: %s", k, p)
		}
	}
}

// A key of a server whose name the router had to change (not a valid
// tool-name part) keeps the server's part renamed; a whole-server key
// stays a whole-server key.
func TestRenamedKey(t *testing.T) {
	tests := []struct {
		key, old, to string
		others       []string
		want         string
	}{
		{"beta__echo", "beta", "gamma", nil, "gamma__echo"},
		{"beta__*", "beta", "gamma", nil, "gamma__*"},
		{"betamax__echo", "beta", "gamma", nil, "betamax__echo"},
		{"beta__x__echo", "beta", "gamma", []string{"beta__x"}, "beta__x__echo"},
		{"alpha__echo", "beta", "gamma", nil, "alpha__echo"},
	}
	for _, tt := range tests {
		k := serverKey{name: tt.old, others: tt.others}
		if got := k.renamed(tt.key, tt.to); got != tt.want {
			t.Errorf("renamed(%q, %q→%q) = %q, want %q", tt.key, tt.old, tt.to, got, tt.want)
		}
	}
}
