package app

import (
	"context"
	"errors"

	"github.com/switchboard-app/switchboard/app/host"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
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
	Problem        string `json:"problem"` // why the file cannot be read, or ""
	Summary        string `json:"summary"` // "4 servers, 1 needs attention"
}

// discoverConfigs surveys this machine's MCP configs (host.Discover, the
// function 'servers discover' calls too).
func (a *core) discoverConfigs(ctx context.Context) []DiscoveredConfig {
	found := host.Discover(ctx)
	out := make([]DiscoveredConfig, 0, len(found))
	for _, f := range found {
		out = append(out, DiscoveredConfig{App: f.App, Path: f.Path, Scope: f.Scope,
			Servers: f.Servers, NeedsAttention: f.NeedsAttention, Problem: f.Problem, Summary: f.Summary()})
	}
	return out
}

func problemViews(ps []config.Problem) []ProblemView {
	out := make([]ProblemView, 0, len(ps))
	for _, p := range ps {
		out = append(out, ProblemView{Path: p.Path, Line: p.Line, Col: p.Col, Severity: string(p.Severity), Message: p.Message, Text: p.String()})
	}
	return out
}

// parseProblems turns a config that could not be parsed into file-level
// problems for the wizard.
func parseProblems(err error) []ProblemView {
	var ve *config.ValidationError
	if errors.As(err, &ve) {
		return problemViews(ve.Problems)
	}
	return []ProblemView{{Severity: "error", Message: err.Error(), Text: err.Error()}}
}

// PreviewImport shows, per server, what importing text would do. Nothing
// changes. plaintext lists secret keys (server.env.VAR) the user keeps in the file.
func (a *ServersPage) PreviewImport(name, text string, plaintext []string) (ImportPreview, error) {
	res, err := a.h.Servers.Import(a.life, host.ImportRequest{Name: name, Data: []byte(text), Plaintext: keepSet(plaintext), DryRun: true})
	if res.File == nil {
		return ImportPreview{Items: []ImportItemView{}, Inputs: []InputView{}, Problems: parseProblems(err)}, nil
	}
	if err != nil {
		return ImportPreview{}, err
	}
	f, plan := res.File, res.Plan
	out := ImportPreview{Format: string(f.Format), Items: make([]ImportItemView, 0, len(plan.Items)), Inputs: []InputView{}, Problems: []ProblemView{}}
	for _, it := range plan.Items {
		v := ImportItemView{
			Name: it.Name, Outcome: string(it.Outcome), Default: string(it.Default), RenameTo: it.RenameTo,
			Transport: string(it.Incoming.Transport), Target: it.Incoming.Target(),
			Changes: []string{}, Problems: problemViews(it.Problems), NeedsInputs: it.NeedsInputs,
		}
		if v.NeedsInputs == nil {
			v.NeedsInputs = []string{}
		}
		v.Secrets = []SecretMove{}
		for _, m := range res.Moves {
			if m.Server == it.Name {
				v.Secrets = append(v.Secrets, SecretMove{Key: m.Key(), Field: m.Field, Name: m.Name, Masked: m.Masked, Input: m.Input})
			}
		}
		// The preview must not show a secret the user kept in plaintext either.
		v.Target = a.h.Redact(v.Target)
		for _, c := range it.Changes {
			v.Changes = append(v.Changes, c.String())
		}
		out.Items = append(out.Items, v)
	}
	used := map[string]bool{}
	for _, id := range f.InputIDs() {
		used[id] = true
	}
	for _, in := range f.Inputs {
		if used[in.ID] {
			out.Inputs = append(out.Inputs, InputView{ID: in.ID, Description: in.Description, Password: in.Password})
			delete(used, in.ID)
		}
	}
	for _, id := range f.InputIDs() { // referenced but not declared
		if used[id] {
			out.Inputs = append(out.Inputs, InputView{ID: id})
		}
	}
	return out, nil
}

// ApplyImport imports text with the user's choices (server name → keep,
// replace or rename) and input values, saves config.json atomically and
// starts what was added. It returns how many servers were imported.
// With sandbox, the imported local servers run in the default sandbox.
func (a *ServersPage) ApplyImport(name, text string, resolutions map[string]string, inputs map[string]string, plaintext []string, sandbox bool) (int, error) {
	res := make(map[string]config.Resolution, len(resolutions))
	for k, v := range resolutions {
		res[k] = config.Resolution(v)
	}
	out, err := a.h.Servers.Import(a.life, host.ImportRequest{Name: name, Data: []byte(text), Resolutions: res, Inputs: inputs, Plaintext: keepSet(plaintext), Sandbox: sandbox})
	if out.File == nil && err != nil {
		return 0, errors.New(parseProblems(err)[0].Text)
	}
	return out.Imported, err
}

func keepSet(keys []string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// DiscoverConfigs finds the MCP configs of other apps on this machine.
func (a *ServersPage) DiscoverConfigs() ([]DiscoveredConfig, error) {
	return a.discoverConfigs(a.life), nil
}

// ReadConfigFile returns the text of a discovered config for the import
// wizard. Only files DiscoverConfigs reports can be read this way.
func (a *ServersPage) ReadConfigFile(path string) (string, error) {
	return a.h.Servers.ReadDiscovered(path)
}
