package gui

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/host"
)

// Safety is what guards the user against servers: tool definitions
// that changed since they were trusted (Accept / Reject on the Servers
// page), warnings about hidden instructions in tool descriptions, and the
// approval rules on arguments (the approval card and the Tools page).
type Safety struct{ *core }

// Safety lists the changed tools waiting for review, the tools with
// warnings and the new tools of known servers.
func (a *Safety) Safety() (SafetyView, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tools, _ := a.h.Tools.List(ctx) // screening records what changed
	pins := a.h.Pins
	changes, err := pins.Changes()
	if err != nil {
		return SafetyView{}, err
	}
	out := SafetyView{Changes: make([]ToolChangeView, 0, len(changes)), Warnings: []ToolWarningsView{}, New: map[string][]string{}}
	for _, c := range changes {
		v := ToolChangeView{Server: c.Server, Tool: c.Tool, Old: c.Old, New: c.New, Seen: c.Seen.Format(time.RFC3339), Rejected: c.Rejected, Warnings: []host.WarningView{}}
		var def struct {
			Name        string          `json:"name"`
			Title       string          `json:"title"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		if json.Unmarshal([]byte(c.New), &def) == nil {
			t := mcp.Tool{Name: def.Name, Title: def.Title, Description: def.Description, RawInputSchema: def.InputSchema}
			v.Warnings = a.h.Tools.Warnings(t)
		}
		out.Changes = append(out.Changes, v)
	}
	for _, t := range tools {
		if fs := a.h.Tools.Warnings(t.Tool); len(fs) > 0 {
			out.Warnings = append(out.Warnings, ToolWarningsView{Name: t.Name, Server: t.Server, Tool: t.Tool.Name, Warnings: fs})
		}
		if _, ok := out.New[t.Server]; !ok {
			n, err := pins.NewTools(t.Server)
			if err != nil {
				return SafetyView{}, err
			}
			out.New[t.Server] = n
		}
	}
	return out, nil
}

// AcceptChange trusts the tool's new definition: it is offered again.
func (a *Safety) AcceptChange(server, tool string) error {
	_, _, err := a.h.Pins.Trust(tool, server)
	return err
}

// RejectChange keeps the trusted definition; the tool stays withheld.
func (a *Safety) RejectChange(server, tool string) error {
	return a.h.Pins.Reject(server, tool)
}

// Rules lists the approval rules.
func (a *Safety) Rules() ([]RuleView, error) {
	s, err := a.h.Settings.Chat()
	if err != nil {
		return nil, err
	}
	out := make([]RuleView, 0, len(s.Rules))
	for _, r := range s.Rules {
		out = append(out, ruleView(r))
	}
	return out, nil
}

// ProposeRule is the rule "always allow calls like this" starts from: the
// exact arguments of the call, to edit before saving.
func (a *Safety) ProposeRule(tool, argsJSON string) RuleView {
	return ruleView(host.ProposeRule(tool, json.RawMessage(argsJSON)))
}

// AddRule saves a rule; a bad pattern is an error naming its field.
func (a *Safety) AddRule(v RuleView) (RuleView, error) {
	r, err := a.h.Settings.AddRule(v.rule())
	if err != nil {
		return RuleView{}, err
	}
	return ruleView(r), nil
}

// RemoveRule deletes a rule.
func (a *Safety) RemoveRule(id string) error { return a.h.Settings.RemoveRule(id) }

// ToolChangeView is a tool withheld because its definition changed.
type ToolChangeView struct {
	Server string `json:"server"`
	Tool   string `json:"tool"` // the server's own name
	// Old and New are the trusted and the listed definition, as indented
	// JSON with sorted keys, for a line diff.
	Old      string             `json:"old"`
	New      string             `json:"new"`
	Seen     string             `json:"seen"` // RFC 3339
	Rejected bool               `json:"rejected"`
	Warnings []host.WarningView `json:"warnings"` // found in the new definition
}

// ToolWarningsView is one listed tool with findings.
type ToolWarningsView struct {
	Name     string             `json:"name"` // server__tool
	Server   string             `json:"server"`
	Tool     string             `json:"tool"`
	Warnings []host.WarningView `json:"warnings"`
}

// SafetyView is everything the Servers page marks.
type SafetyView struct {
	Changes  []ToolChangeView   `json:"changes"`
	Warnings []ToolWarningsView `json:"warnings"`
	// New maps a server to its tools first seen after its first listing.
	New map[string][]string `json:"new"`
}

// MatchView is one condition of a rule.
type MatchView struct {
	Path  string `json:"path"`
	Glob  string `json:"glob"`
	Regex string `json:"regex"`
}

// RuleView is one approval rule.
type RuleView struct {
	ID     string      `json:"id"`
	Tool   string      `json:"tool"`
	Effect string      `json:"effect"` // allow or deny
	Match  []MatchView `json:"match"`
	Text   string      `json:"text"` // the rule in one line
}

func ruleView(r host.Rule) RuleView {
	v := RuleView{ID: r.ID, Tool: r.Tool, Effect: string(r.Effect), Match: []MatchView{}, Text: r.Describe()}
	for _, m := range r.Match {
		v.Match = append(v.Match, MatchView(m))
	}
	return v
}

func (v RuleView) rule() host.Rule {
	r := host.Rule{ID: v.ID, Tool: v.Tool, Effect: host.ToolPolicy(v.Effect)}
	for _, m := range v.Match {
		r.Match = append(r.Match, host.RuleMatch(m))
	}
	return r
}

// EventToolsChanged says the tool lists may have changed (a server's
// tools/list_changed, a restart, a change accepted): the Servers page looks
// at changed, new and suspicious tools again.
const EventToolsChanged = "tools:changed"

// watchTools tells the window whenever the router's tools may have
// changed, at most every ToolsChangedEvery, until the app closes.
func (a *core) watchTools() {
	changes, stop := a.h.Tools.Subscribe()
	defer stop()
	for {
		select {
		case <-a.life.Done():
			return
		case <-changes:
			a.emitEvent(EventToolsChanged, nil)
		}
		select { // coalesce a burst (every server starting) into one refresh
		case <-a.life.Done():
			return
		case <-time.After(ToolsChangedEvery):
		}
	}
}

// ToolsChangedEvery spaces EventToolsChanged events.
var ToolsChangedEvery = 500 * time.Millisecond
