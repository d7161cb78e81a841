package host

import (
	"cmp"
	"context"
	"fmt"
	"os"

	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// ImportRequest is one import of another host's config.
type ImportRequest struct {
	Name string // the file's name, for messages ("claude.json")
	// Path is where the file is, when it is a file (a folder's
	// .vscode/mcp.json gives ${workspaceFolder} its value); "" uses Name
	// when that is an absolute path.
	Path string
	Data []byte
	// Resolutions say what to do with a name already in use (keep by default).
	Resolutions map[string]config.Resolution
	// Inputs are the values of VS Code ${input:ID} placeholders.
	Inputs map[string]string
	// Plaintext lists secret-looking values ("server.env.VAR") the user
	// keeps in the file instead of the keyring.
	Plaintext map[string]bool
	// DryRun plans the import and changes nothing; inputs are substituted
	// only when some are given.
	DryRun bool
	// Sandbox runs every imported local (stdio) server without a
	// "sandbox" entry of its own in the default sandbox ("sandbox": true).
	Sandbox bool
}

// ImportResult is what an import did, or would do for a dry run.
type ImportResult struct {
	File  *config.File // parsed, secrets extracted, inputs substituted
	Plan  config.ImportPlan
	Moves []secrets.Move // values that move (or would move) to the keyring
	// Imported counts the servers added, replaced or renamed in.
	Imported int
	// Invalid counts the servers skipped as invalid.
	Invalid int
}

// Import merges the servers of another host's config (Claude Desktop,
// Cursor, VS Code, legacy) into config.json as one transaction:
// secret-looking values go to the keyring first (the config never
// references a secret that is not there), then config.json is saved
// atomically and the servers start. A config that cannot be parsed comes
// back as a *config.ValidationError naming file, line:column and JSON path.
func (s *Servers) Import(ctx context.Context, req ImportRequest) (ImportResult, error) {
	h := s.h
	f, err := config.ParseContext(ctx, req.Name, req.Data)
	if f == nil {
		return ImportResult{}, err
	}
	// VS Code's and Cursor's variables are written out before anything
	// else reads the values: config.json has no ${userHome}.
	home, _ := os.UserHomeDir()
	f = f.ExpandVariables(config.VariablesFor(cmp.Or(req.Path, req.Name), home))
	f, moves := secrets.ExtractFile(f, req.Plaintext)
	if len(req.Inputs) > 0 || (len(f.InputIDs()) > 0 && !req.DryRun) {
		if f, err = f.WithInputs(req.Inputs); err != nil {
			return ImportResult{}, err
		}
	}
	if req.Sandbox {
		sandboxAll(f)
	}
	res := ImportResult{File: f}
	if req.DryRun {
		cfg, err := h.Config()
		if err != nil {
			return res, fmt.Errorf("your config.json cannot be read, so nothing can be imported: %w", err)
		}
		res.Plan = config.Plan(cfg, f)
		res.Moves = secrets.ForPlan(res.Plan, req.Resolutions, moves)
		res.Invalid = res.Plan.Counts()[config.Invalid]
		return res, nil
	}
	err = h.Edit(func(cfg *config.Config) error {
		res.Plan = config.Plan(cfg, f)
		next, err := config.Apply(cfg, res.Plan, req.Resolutions)
		if err != nil {
			return err
		}
		if res.Moves = secrets.ForPlan(res.Plan, req.Resolutions, moves); len(res.Moves) > 0 {
			names, err := h.store.StoreMoves(res.Moves)
			if err != nil {
				return fmt.Errorf("nothing was imported: %w; or keep those values in the file (untick \"move to keyring\", or --plaintext SERVER.FIELD)", err)
			}
			if err := secrets.Index(next, true, names...); err != nil {
				return err
			}
		}
		*cfg = *next
		return nil
	})
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
