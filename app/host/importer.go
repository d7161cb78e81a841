package host

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

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
	Resolutions map[string]Resolution
	// Inputs are the values of VS Code ${input:ID} placeholders.
	Inputs map[string]string
	// Plaintext lists secret-looking values ("server.env.VAR") the user
	// keeps in the file instead of the keyring.
	Plaintext map[string]bool
	// DryRun plans the import and changes nothing; inputs are substituted
	// only when some are given.
	DryRun bool
	// Only, when not nil, imports only the file's own servers of these
	// names, none of its projects' (the servers connect moves out of an
	// app's file).
	Only []string
	// Sandbox runs every imported local (stdio) server without a
	// "sandbox" entry of its own in the default sandbox ("sandbox": true).
	Sandbox bool
}

// ImportResult is what an import did, or would do for a dry run.
type ImportResult struct {
	File *config.File // parsed, secrets extracted, inputs substituted
	Plan ImportPlan
	// Moves are the values that move (or would move) to the keyring,
	// masked.
	Moves []SecretMove
	// Imported counts the servers added, replaced or renamed in.
	Imported int
	// Invalid counts the servers skipped as invalid.
	Invalid int

	moves []secrets.Move // Moves with their values, for the keyring
}

// prepareImport plans importing f into cfg: each server gets its id (the
// entry's it replaces, else the file's own when free, else a new one; a
// renamed copy always a new one), its inputs and its secrets moved to its
// own keyring entries. The moves are those of the servers the plan imports.
func prepareImport(cfg *config.Config, f *config.File, req ImportRequest) ImportResult {
	used := map[string]bool{}
	for _, s := range cfg.Servers {
		used[s.ID] = true
	}
	ids := map[string]string{}
	fresh := map[string]bool{} // ids made here: a dry run cannot name them yet
	for _, e := range f.Entries {
		if _, ok := ids[e.Name]; ok || !e.Valid() {
			continue
		}
		id := ""
		if cur, ok := cfg.Lookup(e.Name); ok && secrets.ValidID(cur.ID) {
			id = cur.ID
		} else if secrets.ValidID(e.Server.ID) && !used[e.Server.ID] {
			id = e.Server.ID // an exported entry of this data dir, imported back
		} else {
			id = secrets.NewID()
			fresh[id] = true
		}
		used[id] = true
		ids[e.Name] = id
	}
	passwords := map[string]bool{}
	for _, in := range f.Inputs {
		passwords[in.ID] = in.Password
	}
	substitute := len(req.Inputs) > 0 || (len(f.InputIDs()) > 0 && !req.DryRun)
	prep := func(s Server, id string) (Server, []secrets.Move) {
		s.ID = id
		s, moves := withInputs(s, req.Inputs, passwords, substitute)
		// docker's -e NAME=secret leaves the command line for the
		// environment first, where the keyring rules take it.
		s, more := secrets.Extract(secrets.DockerEnv(s), req.Plaintext)
		return s, append(moves, more...)
	}
	out := *f
	out.Servers = make([]Server, len(f.Servers))
	var moves []secrets.Move
	for i, s := range f.Servers {
		var m []secrets.Move
		out.Servers[i], m = prep(s, ids[s.Name])
		moves = append(moves, m...)
	}
	out.Entries = slices.Clone(f.Entries)
	for i, e := range out.Entries {
		if id, ok := ids[e.Name]; ok && e.Valid() {
			out.Entries[i].Server, _ = prep(e.Server, id)
		}
	}
	plan := config.Plan(cfg, &out)
	for i, it := range plan.Items {
		if it.Outcome == config.Invalid || it.Resolve(req.Resolutions) != config.Rename {
			continue
		}
		// A renamed copy is a server of its own: not the one it was
		// compared with, whose id (and keyring entries) it borrowed.
		j := slices.IndexFunc(f.Servers, func(s Server) bool { return s.Name == it.Name })
		if j < 0 {
			continue
		}
		moves = slices.DeleteFunc(moves, func(m secrets.Move) bool { return m.Server == it.Name })
		var m []secrets.Move
		id := secrets.NewID()
		fresh[id] = true
		plan.Items[i].Incoming, m = prep(f.Servers[j], id)
		moves = append(moves, m...)
	}
	moves = secrets.ForPlan(plan, req.Resolutions, moves)
	shown := secretMoves(moves)
	if req.DryRun {
		shown = withNewIDs(shown, fresh)
	}
	return ImportResult{File: &out, Plan: plan, Moves: shown, moves: moves}
}

// NewIDLabel stands in a dry run's keyring names for the id the import
// gives a new server: each import makes its own (server.<new id>.env.X).
const NewIDLabel = "<new id>"

// withNewIDs is ms with the ids made for a dry run written NewIDLabel:
// the real import makes others, so naming these would name entries that
// never exist.
func withNewIDs(ms []SecretMove, fresh map[string]bool) []SecretMove {
	for i, m := range ms {
		rest, own := strings.CutPrefix(m.Name, "server.")
		id, field, ok := strings.Cut(rest, ".")
		if own && ok && fresh[id] {
			ms[i].Name = "server." + NewIDLabel + "." + field
		}
	}
	return ms
}

// withInputs puts the values of VS Code ${input:ID} placeholders into s
// (when substitute). A password input's value goes to the server's own
// keyring entry (input.ID) and the string gets its ${secret:...}
// reference; its move says which fields use it. A password input without
// a value yet (a preview) is still listed, with no value to move.
func withInputs(s Server, values map[string]string, passwords map[string]bool, substitute bool) (Server, []secrets.Move) {
	var moves []secrets.Move
	vals := maps.Clone(values)
	if vals == nil {
		vals = map[string]string{}
	}
	for _, id := range s.InputIDs() {
		if !passwords[id] {
			continue
		}
		name := secrets.ServerName(s.ID, "input."+id)
		fields := strings.Join(inputFields(s, id), ", ")
		v, ok := values[id]
		if ok && v == "" {
			continue // left empty: nothing to keep
		}
		m := secrets.MoveOf(s.Name, fields, name, v)
		m.Input = id
		moves = append(moves, m)
		if !ok {
			continue // a preview: the value is typed later
		}
		vals[id] = "${secret:" + name + "}"
	}
	if !substitute {
		return s, slices.DeleteFunc(moves, func(m secrets.Move) bool { return m.Value() != "" })
	}
	out, err := s.WithInputs(vals)
	if err != nil {
		return s, moves // reported by the file's own WithInputs
	}
	return out, moves
}

// inputFields names the fields of s that use ${input:id}.
func inputFields(s Server, id string) []string {
	ref := "${input:" + id + "}"
	var out []string
	has := func(field, v string) {
		if strings.Contains(v, ref) {
			out = append(out, field)
		}
	}
	has("command", s.Command)
	for i, a := range s.Args {
		has(fmt.Sprintf("args[%d]", i), a)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		has("env."+k, s.Env[k])
	}
	for _, k := range slices.Sorted(maps.Keys(s.Headers)) {
		has("headers."+k, s.Headers[k])
	}
	has("cwd", s.Cwd)
	has("url", s.URL)
	return out
}

// Discover surveys this machine's MCP configs of other apps (Claude
// Desktop, Cursor, VS Code, …): what the welcome page, the import wizard
// and 'servers discover' show, so the three agree on every count. It reads
// other apps' files only: no Host is needed.
func Discover(ctx context.Context) []config.Found {
	return config.Survey(ctx, discoverEnv())
}

// sandboxAll gives every local (stdio) server of f without a "sandbox"
// entry of its own the default sandbox (an import's "run in a sandbox").
func sandboxAll(f *config.File) {
	for i := range f.Servers {
		if s := &f.Servers[i]; s.Transport == config.Stdio && s.Sandbox == nil {
			s.Sandbox = &Sandbox{}
		}
	}
	for i := range f.Entries {
		if s := &f.Entries[i].Server; s.Transport == config.Stdio && s.Sandbox == nil {
			s.Sandbox = &Sandbox{}
		}
	}
}

// discoverEnv is the machine as Discover and ReadDiscovered see it: every
// app's file, read the way an import reads it.
func discoverEnv() config.Env {
	env := config.SystemEnv()
	env.Parse = parseServers
	return env
}

// noServers is the refusal of an import of a file without a single server
// entry ({"mcpServers": {}}, Claude Code's ~/.claude.json before any
// server is added): there is nothing to import, so nothing is written,
// and the person is told so instead of shown an empty plan that "saved".
// A move out of an app's file (req.Only) is not refused: that app's
// servers may all have stayed.
func noServers(f *config.File, req ImportRequest) error {
	if len(f.Entries) > 0 || req.Only != nil {
		return nil
	}
	where := map[config.Format]string{config.FormatVSCode: `"servers"`, config.FormatVSCodeSettings: `"mcp.servers"`,
		config.FormatLegacy: `"servers"`, config.FormatServerMap: "the file"}[f.Format]
	if where == "" {
		where = `"mcpServers"`
	}
	return &config.ValidationError{Kind: config.ErrEmpty, Problems: []config.Problem{{Severity: config.SeverityError,
		Message: fmt.Sprintf("no servers in %s: %s is empty, so there is nothing to import (nothing was written)", req.Name, where)}}}
}

// changedPaths are the JSON paths under base of the values clean holds
// otherwise than srv: env, headers, args, url and the OAuth client secret.
func changedPaths(base string, srv, clean Server) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(srv.Env)) {
		if clean.Env[k] != srv.Env[k] {
			out = append(out, base+".env."+k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(srv.Headers)) {
		if clean.Headers[k] != srv.Headers[k] {
			out = append(out, base+".headers."+k)
		}
	}
	for i, a := range srv.Args {
		if i < len(clean.Args) && clean.Args[i] != a {
			out = append(out, fmt.Sprintf("%s.args[%d]", base, i))
		}
	}
	if clean.URL != srv.URL {
		out = append(out, base+".url")
	}
	if srv.OAuth != nil && clean.OAuth != nil && clean.OAuth.ClientSecret != srv.OAuth.ClientSecret {
		out = append(out, base+".oauth.clientSecret")
	}
	return out
}

// CommandLineNote says what becomes of a keyring secret written in a
// server's arguments (secrets.CommandLineNote): the doors print it beside
// each such value.
const CommandLineNote = secrets.CommandLineNote

// OnCommandLine reports whether the value moves out of the server's
// command line, where it goes back when the server starts (see
// CommandLineNote).
func (m SecretMove) OnCommandLine() bool { return secrets.OnCommandLine(m.Field) }
