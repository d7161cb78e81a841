package app

import (
	"errors"
	"fmt"
	"os"

	"github.com/switchboard-app/switchboard/app/secrets"
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

// DiscoveredConfig is another app's config file found on this machine.
type DiscoveredConfig struct {
	App   string `json:"app"`
	Path  string `json:"path"`
	Scope string `json:"scope"`
}

func problemViews(ps []config.Problem) []ProblemView {
	out := make([]ProblemView, 0, len(ps))
	for _, p := range ps {
		out = append(out, ProblemView{Path: p.Path, Line: p.Line, Col: p.Col, Severity: string(p.Severity), Message: p.Message, Text: p.String()})
	}
	return out
}

// parseImport parses pasted or loaded text; a file that is not a config at
// all comes back as file-level problems, not as an error.
func parseImport(name, text string) (*config.File, []ProblemView) {
	f, err := config.Parse(name, []byte(text))
	if f != nil {
		return f, nil
	}
	var ve *config.ValidationError
	if errors.As(err, &ve) {
		return nil, problemViews(ve.Problems)
	}
	return nil, []ProblemView{{Severity: "error", Message: err.Error(), Text: err.Error()}}
}

// PreviewImport shows, per server, what importing text would do. Nothing
// changes. plaintext lists secret keys (server.env.VAR) the user keeps in the file.
func (a *App) PreviewImport(name, text string, plaintext []string) (ImportPreview, error) {
	f, probs := parseImport(name, text)
	if f == nil {
		return ImportPreview{Items: []ImportItemView{}, Inputs: []InputView{}, Problems: probs}, nil
	}
	f, moves := secrets.ExtractFile(f, keepSet(plaintext))
	a.cfgMu.Lock()
	cfg, err := config.Load(a.dir.Config())
	a.cfgMu.Unlock()
	if err != nil {
		return ImportPreview{}, fmt.Errorf("your config.json cannot be read, so nothing can be imported: %w", err)
	}
	plan := config.Plan(cfg, f)
	out := ImportPreview{Format: string(f.Format), Items: make([]ImportItemView, 0, len(plan.Items)), Inputs: []InputView{}, Problems: []ProblemView{}}
	for _, it := range plan.Items {
		v := ImportItemView{
			Name: it.Name, Outcome: string(it.Outcome), Default: string(it.Default), RenameTo: it.RenameTo,
			Transport: string(it.Incoming.Transport), Target: targetOf(it.Incoming),
			Changes: []string{}, Problems: problemViews(it.Problems), NeedsInputs: it.NeedsInputs,
		}
		if v.NeedsInputs == nil {
			v.NeedsInputs = []string{}
		}
		v.Secrets = []SecretMove{}
		for _, m := range moves {
			if m.Server == it.Name {
				v.Secrets = append(v.Secrets, SecretMove{Key: m.Key(), Field: m.Field, Name: m.Name, Masked: m.Masked})
			}
		}
		// The preview must not show a secret the user kept in plaintext either.
		v.Target = a.red.Redact(v.Target)
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

func targetOf(s config.Server) string {
	if s.URL != "" {
		return s.URL
	}
	t := s.Command
	for _, a := range s.Args {
		t += " " + a
	}
	return t
}

// ApplyImport imports text with the user's choices (server name → keep,
// replace or rename) and input values, saves config.json atomically and
// starts what was added. It returns how many servers were imported.
func (a *App) ApplyImport(name, text string, resolutions map[string]string, inputs map[string]string, plaintext []string) (int, error) {
	f, probs := parseImport(name, text)
	if f == nil {
		return 0, errors.New(probs[0].Text)
	}
	f, moves := secrets.ExtractFile(f, keepSet(plaintext))
	if len(f.InputIDs()) > 0 {
		var err error
		if f, err = f.WithInputs(inputs); err != nil {
			return 0, err
		}
	}
	res := make(map[string]config.Resolution, len(resolutions))
	for k, v := range resolutions {
		res[k] = config.Resolution(v)
	}
	a.cfgMu.Lock()
	defer a.cfgMu.Unlock()
	cfg, err := config.Load(a.dir.Config())
	if err != nil {
		return 0, err
	}
	plan := config.Plan(cfg, f)
	next, err := config.Apply(cfg, plan, res)
	if err != nil {
		return 0, err
	}
	if moves = secrets.ForPlan(plan, res, moves); len(moves) > 0 {
		// Keyring first: the config must never reference a secret that is not there.
		names, err := a.store.StoreMoves(moves)
		if err != nil {
			return 0, fmt.Errorf("nothing was imported: %w; or untick \"move to keyring\" for those values", err)
		}
		if err := secrets.Index(next, true, names...); err != nil {
			return 0, err
		}
	}
	if err := config.Save(a.dir.Config(), next); err != nil {
		return 0, err
	}
	a.servers = next.Servers
	a.apply(next)
	return imported(plan, res), nil
}

func keepSet(keys []string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// imported counts the servers an applied plan added, replaced or renamed in.
func imported(plan config.ImportPlan, res map[string]config.Resolution) int {
	n := 0
	for _, it := range plan.Items {
		if it.Imports(res) {
			n++
		}
	}
	return n
}

// DiscoverConfigs finds the MCP configs of other apps on this machine.
func (a *App) DiscoverConfigs() ([]DiscoveredConfig, error) {
	cands := config.Discover(config.SystemEnv())
	out := make([]DiscoveredConfig, 0, len(cands))
	for _, c := range cands {
		out = append(out, DiscoveredConfig{App: c.App, Path: c.Path, Scope: c.Scope})
	}
	return out, nil
}

// ReadConfigFile returns the text of a discovered config for the import
// wizard. Only files DiscoverConfigs reports can be read this way.
func (a *App) ReadConfigFile(path string) (string, error) {
	known := false
	for _, c := range config.Discover(config.SystemEnv()) {
		known = known || c.Path == path
	}
	if !known {
		return "", fmt.Errorf("%s is not one of the discovered MCP configs; paste it or choose it with the file picker", path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if fi.Size() > 4<<20 {
		return "", fmt.Errorf("%s is %d bytes; an MCP config should be far smaller", path, fi.Size())
	}
	b, err := os.ReadFile(path)
	return string(b), err
}
