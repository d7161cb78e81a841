package gui

import (
	"context"
	"errors"

	"github.com/switchboard-app/switchboard/app/host"
)

// ProblemView is one config problem, located for the editor.
type ProblemView struct {
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Text     string `json:"text"` // the whole sentence, as the CLI prints it
}

// ImportItemView is what importing one server would do.
type ImportItemView struct {
	Name        string        `json:"name"`
	Outcome     string        `json:"outcome"` // added, changed, unchanged, conflicting, invalid
	Default     string        `json:"default"` // keep, replace, rename
	RenameTo    string        `json:"renameTo"`
	Transport   string        `json:"transport"`
	Target      string        `json:"target"` // command line or URL
	Changes     []string      `json:"changes"`
	Problems    []ProblemView `json:"problems"`
	NeedsInputs []string      `json:"needsInputs"`
	Secrets     []SecretMove  `json:"secrets"` // values that will move to the keyring
	// Disabled says the server arrives switched off: the app it comes
	// from had it off ("disabled": true, Codex's enabled = false).
	Disabled bool `json:"disabled"`
}

// SecretMove is one value an import moves to the keyring (shown masked).
type SecretMove struct {
	Key    string `json:"key"`   // server.env.VAR: pass it back in plaintext to opt out
	Field  string `json:"field"` // env.VAR or headers.Name
	Name   string `json:"name"`  // keyring name
	Masked string `json:"masked"`
	// Input is the VS Code password input whose value this is (no opt-out).
	Input string `json:"input"`
}

// InputView is a VS Code ${input:id} the user must fill in.
type InputView struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	Password    bool   `json:"password"`
	// Default is the value the field starts with; Options, when there
	// are any, are the only values (a pickString: a list to choose from).
	Default string        `json:"default"`
	Options []InputOption `json:"options"`
}

// InputOption is one choice of a pickString input.
type InputOption struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// ImportPreview is the dry run of an import.
type ImportPreview struct {
	Format   string           `json:"format"`
	Items    []ImportItemView `json:"items"`
	Inputs   []InputView      `json:"inputs"`
	Problems []ProblemView    `json:"problems"` // file-level problems (syntax, unknown format)
}

// DiscoveredConfig is another app's config file found on this machine,
// with what it holds; the welcome page and the import wizard show the same
// list (discoverConfigs), as 'servers discover' does.
type DiscoveredConfig struct {
	App   string `json:"app"`
	Path  string `json:"path"`
	Scope string `json:"scope"`
	// Servers can be imported as they are; NeedsAttention have an error.
	Servers        int    `json:"servers"`
	NeedsAttention int    `json:"needsAttention"`
	Imported       int    `json:"imported"` // entries already among this Switchboard's servers (by name)
	Problem        string `json:"problem"`  // why the file cannot be read, or ""
	Summary        string `json:"summary"`  // "5 servers, 1 needs attention", "5 servers, all imported"
}

// discoverConfigs surveys this machine's MCP configs (host.Discover, the
// function 'servers discover' calls too).
func (a *core) discoverConfigs(ctx context.Context) []DiscoveredConfig {
	found := host.Discover(ctx)
	var have []string
	for _, s := range a.h.Servers.List() {
		have = append(have, s.Name)
	}
	out := make([]DiscoveredConfig, 0, len(found))
	for _, f := range found {
		f = f.MarkImported(have) // what was imported (fixed or not) no longer needs attention
		out = append(out, DiscoveredConfig{App: f.App, Path: f.Path, Scope: f.Scope,
			Servers: f.Servers, NeedsAttention: f.NeedsAttention, Imported: f.Imported, Problem: f.Problem, Summary: f.Summary()})
	}
	return out
}

func problemViews(ps []host.Problem) []ProblemView {
	out := make([]ProblemView, 0, len(ps))
	for _, p := range ps {
		out = append(out, ProblemView{Path: p.Path, Line: p.Line, Col: p.Col, Severity: string(p.Severity), Message: p.Message, Text: p.String()})
	}
	return out
}

// parseProblems turns a config that could not be parsed into file-level
// problems for the wizard.
func parseProblems(err error) []ProblemView {
	var ve *host.ValidationError
	if errors.As(err, &ve) {
		return problemViews(ve.Problems)
	}
	return []ProblemView{{Severity: "error", Message: err.Error(), Text: err.Error()}}
}

func keepSet(keys []string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}
