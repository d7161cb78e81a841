package host

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"slices"

	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/library"
)

// ServerFiles are mcpServers files outside config.json: the ones a CLI
// --config names, the ones other apps keep (read, imported), and the one
// Export writes for sharing.
type ServerFiles struct{ h *Host }

// Read reads the servers of another mcpServers file (a CLI --config)
// instead of config.json's: inputs fill VS Code's ${input:ID} placeholders.
// An entry that cannot run is left out, with its problem in skipped; a
// file that cannot be read or parsed is the error.
func (s *ServerFiles) Read(ctx context.Context, file string, inputs map[string]string) (servers []Server, skipped []error, err error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", file, err)
	}
	f, err := parseServers(ctx, file, data)
	if err != nil {
		return nil, nil, err
	}
	f = f.SplitCommandLines()
	for _, e := range f.Entries {
		if !e.Valid() {
			for _, p := range e.Problems {
				skipped = append(skipped, fmt.Errorf("%s: %s", file, p))
			}
		}
	}
	if len(f.InputIDs()) > 0 {
		if f, err = f.WithInputs(f.InputValues(inputs)); err != nil {
			return nil, skipped, err
		}
	}
	run, problems := library.Prepare(f.Servers, "")
	servers, more, _ := withoutProblems(run, problems)
	return servers, append(skipped, more...), nil
}

// ReadDiscovered returns the text of a config Discover reports (and only
// of those), bounded by config.MaxConfigSize.
func (s *ServerFiles) ReadDiscovered(path string) (string, error) {
	known := false
	for _, c := range config.Discover(discoverEnv()) {
		known = known || c.Path == path
	}
	if !known {
		return "", fmt.Errorf("%s is not one of the discovered MCP configs; paste it or choose it with the file picker", path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if fi.Size() > config.MaxConfigSize {
		return "", fmt.Errorf("%s is %d bytes; an MCP config should be far smaller", path, fi.Size())
	}
	b, err := os.ReadFile(path)
	return string(b), err
}

// Import merges the servers of another host's config (Claude Desktop,
// Cursor, VS Code, legacy) into config.json as one transaction:
// secret-looking values go to the keyring first (the config never
// references a secret that is not there), then config.json is saved
// atomically and the servers start. A config that cannot be parsed comes
// back as a *ValidationError naming file, line:column and JSON path.
//
// Secrets are found after VS Code's ${input:ID} values are put in, and a
// password input's value always goes to the keyring: the entry holds the
// ${secret:...} reference in its place, inside the header, argument or
// variable that used it. Each imported server gets its own id, so its
// keyring entries are its own; a ${secret:...} the file names itself is
// another entry's and is refused at start until the user grants it.
func (s *ServerFiles) Import(ctx context.Context, req ImportRequest) (ImportResult, error) {
	h := s.h
	f, err := parseServers(ctx, req.Name, req.Data)
	if f == nil {
		return ImportResult{}, err
	}
	if req.Only != nil {
		f = only(f, req.Only)
	}
	// VS Code's and Cursor's variables are written out before anything
	// else reads the values: config.json has no ${userHome}.
	home, _ := os.UserHomeDir()
	// Claude Code's per-project servers come too, each marked with its
	// project, so the person can skip the ones they do not want.
	f = f.WithProjectServers().ExpandVariables(config.VariablesFor(cmp.Or(req.Path, req.Name), home)).SplitCommandLines().NoteForeignKeys()
	if err := noServers(f, req); err != nil {
		return ImportResult{File: f}, err
	}
	if len(req.Inputs) > 0 || !req.DryRun {
		// VS Code's "default"s, for the inputs not given; a preview
		// without values leaves every input for the person to fill in.
		req.Inputs = f.InputValues(req.Inputs)
	}
	if len(req.Inputs) > 0 || (len(f.InputIDs()) > 0 && !req.DryRun) {
		if _, err := f.WithInputs(req.Inputs); err != nil { // every missing value at once
			return ImportResult{}, err
		}
	}
	if req.Sandbox {
		sandboxAll(f)
	}
	if req.DryRun {
		cfg, err := h.readConfig()
		if err != nil {
			return ImportResult{File: f}, fmt.Errorf("your config.json cannot be read, so nothing can be imported: %w", err)
		}
		res := prepareImport(cfg, f, req)
		res.Invalid = res.Plan.Counts()[config.Invalid]
		return res, nil
	}
	var res ImportResult
	err = h.edit(func(cfg *config.Config) error {
		res = prepareImport(cfg, f, req)
		next, err := config.Apply(cfg, res.Plan, req.Resolutions)
		if err != nil {
			return err
		}
		if len(res.moves) > 0 {
			names, err := h.store.StoreMoves(res.moves)
			if err != nil {
				return fmt.Errorf("nothing was imported: %w; or keep those values in the file (untick \"move to keyring\", or --plaintext SERVER.FIELD)", err)
			}
			for _, m := range res.moves {
				h.red.Add(m.Value()) // and config.json.bak must not keep it either
			}
			if err := secrets.Index(next, true, names...); err != nil {
				return err
			}
		}
		*cfg = *next
		return nil
	})
	if res.File == nil {
		res.File = f
	}
	if err != nil {
		return res, err
	}
	res.Invalid = res.Plan.Counts()[config.Invalid]
	for _, it := range res.Plan.Items {
		if it.Imports(req.Resolutions) {
			res.Imported++
		}
	}
	return res, nil
}

// Export is config.json's servers as a shareable mcpServers file: every
// secret, and every value kept in plaintext by choice, stays a
// ${secret:NAME} placeholder.
func (s *ServerFiles) Export() ([]byte, error) {
	cfg, err := s.h.readConfig()
	if err != nil {
		return nil, err
	}
	shared := &config.Config{}
	for _, srv := range cfg.Servers {
		clean, _ := secrets.Extract(srv, nil)
		shared.Servers = append(shared.Servers, clean)
	}
	return shared.MarshalJSON()
}

// PlainSecrets are the JSON paths of an export (mcpServers.NAME.env.VAR,
// mcpServers.NAME.args[3], …) whose values config.json keeps in plain
// text although they look secret (secrets.Extract would move them): Export
// writes a ${secret:…} placeholder in their place, so whoever gets the
// file sets their own, and config.json still holds them.
func (s *ServerFiles) PlainSecrets() ([]string, error) {
	cfg, err := s.h.readConfig()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, srv := range cfg.Servers {
		clean, moves := secrets.Extract(srv, nil)
		if len(moves) > 0 {
			out = append(out, changedPaths("mcpServers."+srv.Name, srv, clean)...)
		}
	}
	return out, nil
}

// only is f with the servers of these names and no projects.
func only(f *config.File, names []string) *config.File {
	out := *f
	out.Projects = nil
	out.Entries = slices.DeleteFunc(slices.Clone(f.Entries), func(e config.Entry) bool { return !slices.Contains(names, e.Name) })
	out.Servers = slices.DeleteFunc(slices.Clone(f.Servers), func(s config.Server) bool { return !slices.Contains(names, s.Name) })
	return &out
}
