package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/switchboard-app/switchboard/app/host"
)

// listFlag collects repeated values into a set.
type listFlag map[string]bool

func (l listFlag) String() string { return "" }
func (l listFlag) Set(v string) error {
	l[v] = true
	return nil
}

// kvFlag collects repeated KEY=VALUE flags (--set id=value).
type kvFlag map[string]string

func (k kvFlag) String() string { return "" }
func (k kvFlag) Set(v string) error {
	key, val, ok := strings.Cut(v, "=")
	if !ok || key == "" {
		return fmt.Errorf("want KEY=VALUE, got %q", v)
	}
	k[key] = val
	return nil
}

func serversCmd() *Command {
	return &Command{
		Name:    "servers",
		Summary: "list, import and edit the MCP servers in the app config",
		Subs: []*Command{
			serversListCmd(), serversImportCmd(), serversDiscoverCmd(),
			serversAddCmd(), serversInstallCmd(), serversRemoveCmd(), serversExportCmd(),
			serversToggleCmd("enable", false), serversToggleCmd("disable", true),
			serversLoginCmd(), serversTestCmd(), serversSkillsCmd(), serversTemplatesCmd(), serversProfileCmd(),
		},
	}
}

// validation marks config problems as exit code 2.
func validation(err error) error {
	var ve *host.ValidationError
	if errors.As(err, &ve) || errors.Is(err, host.ErrNoServer) || errors.Is(err, host.ErrNameTaken) {
		return &ValidationError{Err: err}
	}
	return err
}

// edit runs one change of the app config through the host (locked,
// atomic, the window's rules); nothing starts.
func edit(inv *Invocation, fn func(h *host.Host) error) error {
	h, err := openHost(inv, "")
	if err != nil {
		return err
	}
	defer closeServers(h)
	return validation(fn(h))
}

// loadServers returns the servers of --config FILE or of the app config,
// saying on stderr which ones are skipped and why.
func loadServers(inv *Invocation, file string, inputs map[string]string) ([]host.Server, error) {
	h, err := readHost(inv)
	if err != nil {
		return nil, err
	}
	defer closeServers(h)
	var servers []host.Server
	var skipped []error
	if file == "" {
		servers, skipped, err = h.Servers.Runnable()
	} else {
		servers, skipped, err = h.ServerFiles.Read(inv.Context(), file, inputs)
	}
	for _, e := range skipped {
		fmt.Fprintf(inv.Stderr, "%v (server skipped)\n", e)
	}
	if err != nil {
		return nil, validation(err)
	}
	return servers, nil
}

func serversListCmd() *Command {
	var file string
	return &Command{
		Name:    "list",
		Summary: "list configured servers (without starting them)",
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&file, "config", "", "read this mcpServers file instead of the app config")
		},
		Run: func(_ context.Context, inv *Invocation, args []string) error {
			if len(args) > 0 {
				return &UsageError{Cmd: inv.Path, Msg: "takes no arguments"}
			}
			servers, err := loadServers(inv, file, map[string]string{})
			if err != nil {
				return err
			}
			type row struct {
				Name        string   `json:"name"`
				Transport   string   `json:"transport"`
				Enabled     bool     `json:"enabled"`
				Target      string   `json:"target"`
				Tags        []string `json:"tags"`
				Description string   `json:"description,omitempty"`
				// Sandbox is the entry's "sandbox" (true or its object); absent when off.
				Sandbox *host.Sandbox `json:"sandbox,omitempty"`
			}
			rows := make([]row, 0, len(servers))
			for _, s := range servers {
				m := host.Meta(s)
				rows = append(rows, row{s.Name, string(s.Transport), !s.Disabled, s.Target(), append([]string{}, m.Tags...), m.Description, s.Sandbox})
			}
			if inv.JSON {
				return inv.PrintJSON(rows)
			}
			cells := make([][]string, 0, len(rows))
			for _, r := range rows {
				cells = append(cells, []string{r.Name, r.Transport, fmt.Sprint(r.Enabled), sandboxCell(r.Sandbox), strings.Join(r.Tags, ","), r.Target})
			}
			if err := inv.Table("no servers; add some with 'switchboard servers import FILE'",
				[]string{"NAME", "TRANSPORT", "ENABLED", "SANDBOX", "TAGS", "COMMAND / URL"}, cells); err != nil {
				return err
			}
			for _, s := range servers {
				if f := host.CommandLineSecrets(s); len(f) > 0 {
					fmt.Fprintf(inv.Stdout, "note: %s: %s: keyring secrets %s\n", termSafe(s.Name), strings.Join(f, ", "), host.CommandLineNote)
				}
			}
			return nil
		},
	}
}

func serversImportCmd() *Command {
	var dryRun, sandboxed bool
	inputs := kvFlag{}
	resolve := kvFlag{}
	plaintext := listFlag{}
	return &Command{
		Name:    "import",
		Args:    "FILE",
		Summary: "merge the servers of a Claude / Cursor / VS Code / Codex / Goose / Continue / opencode / Zed / legacy config into the app config",
		Flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&dryRun, "dry-run", false, "show what would change, change nothing")
			fs.BoolVar(&sandboxed, "sandbox", false, `run the imported local servers in a sandbox ("sandbox": true unless their entry has one)`)
			fs.Var(inputs, "set", "value for a VS Code ${input:ID} placeholder, as ID=VALUE (repeatable); ID=- reads it from standard input; one not given is asked for on a terminal (a password input's value goes to the keyring either way)")
			fs.Var(resolve, "resolve", "for a name already in use: NAME=keep|replace|rename; for a new one, NAME=keep skips it (repeatable)")
			fs.Var(plaintext, "plaintext", "keep this secret-looking value in the config instead of the keyring, as SERVER.env.VAR, SERVER.headers.NAME or SERVER.oauth.clientSecret (repeatable)")
		},
		Run: func(_ context.Context, inv *Invocation, args []string) error {
			if len(args) != 1 {
				return &UsageError{Cmd: inv.Path, Msg: "needs exactly one FILE"}
			}
			data, err := os.ReadFile(args[0])
			if err != nil {
				return fmt.Errorf("read %s: %w", args[0], err)
			}
			in := bufio.NewReader(inv.Stdin)
			for _, id := range slices.Sorted(maps.Keys(inputs)) {
				if inputs[id] == "-" {
					if inputs[id], err = readSecret(inv, in, "${input:"+id+"}"); err != nil {
						return err
					}
				}
			}
			res := map[string]host.Resolution{}
			for name, r := range resolve {
				switch host.Resolution(r) {
				case host.Keep, host.Replace, host.Rename:
					res[name] = host.Resolution(r)
				default:
					return &UsageError{Cmd: inv.Path, Msg: fmt.Sprintf("--resolve %s=%s: use keep, replace or rename", name, r)}
				}
			}
			h, err := openHost(inv, "")
			if err != nil {
				return err
			}
			defer closeServers(h)
			// The window's import transaction: secrets to the keyring first,
			// then config.json planned and saved under its lock.
			abs, _ := filepath.Abs(args[0]) // where ${workspaceFolder} is
			req := host.ImportRequest{Name: args[0], Path: abs, Data: data, Resolutions: res,
				Inputs: inputs, Plaintext: plaintext, DryRun: dryRun, Sandbox: sandboxed}
			out, err := h.ServerFiles.Import(inv.Context(), req)
			var missing *host.MissingInputError
			if errors.As(err, &missing) {
				// VS Code's ${input:ID}s without a value: asked for on a
				// terminal, as VS Code asks; else said how to give them.
				if err := askInputs(inv, h, req, missing, in); err != nil {
					return err
				}
				out, err = h.ServerFiles.Import(inv.Context(), req)
			}
			if err != nil {
				return validation(err)
			}
			if err := printPlan(inv, out.Plan, res, out.Moves, dryRun); err != nil {
				return err
			}
			if !dryRun && !inv.JSON {
				fmt.Fprintf(inv.Stdout, "saved %s\n", h.Dir().Config())
			}
			invalid := out.Invalid
			if invalid > 0 {
				verb := "were"
				if dryRun {
					verb = "would be"
				}
				return &ValidationError{Err: fmt.Errorf("%d server(s) in %s are invalid and %s skipped; fix them and import again", invalid, args[0], verb)}
			}
			return nil
		},
	}
}

// askInputs puts in req.Inputs a value for each input missing names,
// read from the terminal (a password input's not shown); without a
// terminal it fails saying how to give them.
func askInputs(inv *Invocation, h *host.Host, req host.ImportRequest, missing *host.MissingInputError, in *bufio.Reader) error {
	if _, ok := terminal(inv); !ok {
		sets := make([]string, len(missing.IDs))
		for i, id := range missing.IDs {
			sets[i] = "--set " + id + "=VALUE"
		}
		return &ValidationError{Err: &inputsError{missing, fmt.Sprintf("give each with %s (ID=- reads it from standard input; a password input's value goes to the keyring), or replace the placeholder in the file", strings.Join(sets, " "))}}
	}
	req.DryRun = true
	plan, err := h.ServerFiles.Import(inv.Context(), req)
	if err != nil {
		return validation(err)
	}
	declared := map[string]host.Input{}
	if plan.File != nil {
		for _, d := range plan.File.Inputs {
			declared[d.ID] = d
		}
	}
	for _, id := range missing.IDs {
		d := declared[id]
		label := "${input:" + id + "}"
		if d.Description != "" {
			label += " (" + d.Description + ")"
		}
		var v string
		if d.Password {
			v, err = readSecret(inv, in, label)
		} else {
			fmt.Fprintf(inv.Stderr, "value for %s: ", label)
			v, err = readLine(in)
		}
		if err != nil {
			return err
		}
		req.Inputs[id] = v
	}
	return nil
}

func printPlan(inv *Invocation, plan host.ImportPlan, res map[string]host.Resolution, moves []host.SecretMove, dryRun bool) error {
	type item struct {
		Name       string   `json:"name"`
		Outcome    string   `json:"outcome"`
		Resolution string   `json:"resolution"`
		RenameTo   string   `json:"renameTo,omitempty"`
		Changes    []string `json:"changes,omitempty"`
		Problems   []string `json:"problems,omitempty"`
		Disabled   bool     `json:"disabled,omitempty"`
		imports    bool     // Apply brings it in (config.Item.Imports)
		needs      []string // its ${input:ID}s without a value
	}
	items := make([]item, 0, len(plan.Items))
	for _, it := range plan.Items {
		r := it.Resolve(res)
		x := item{Name: it.Name, Outcome: string(it.Outcome), Resolution: string(r), Disabled: it.Incoming.Disabled, imports: it.Imports(res), needs: it.NeedsInputs}
		if r == host.Rename {
			x.RenameTo = it.RenameTo
		}
		for _, c := range it.Changes {
			x.Changes = append(x.Changes, c.String())
		}
		for _, p := range it.Problems {
			x.Problems = append(x.Problems, p.String())
		}
		items = append(items, x)
	}
	if inv.JSON {
		if moves == nil {
			moves = []host.SecretMove{}
		}
		return inv.PrintJSON(struct {
			File    string            `json:"file"`
			DryRun  bool              `json:"dryRun"`
			Items   []item            `json:"items"`
			Secrets []host.SecretMove `json:"secrets"`
		}{plan.File, dryRun, items, moves})
	}
	tw := tabwriter.NewWriter(inv.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SERVER\tOUTCOME\tACTION")
	for _, x := range items {
		action := x.Resolution
		switch {
		case x.Outcome == string(host.Invalid):
			action = "skip"
		case x.Resolution == string(host.Rename):
			action = "rename to " + x.RenameTo
		case x.Resolution == string(host.Keep) && x.Outcome == string(host.Added):
			action = "skip"
		case x.Resolution == string(host.Keep) && x.Outcome == string(host.Conflicting):
			action = "keep existing (use --resolve " + x.Name + "=replace|rename)"
		case x.Resolution == string(host.Keep):
			action = "nothing to do"
		case x.Outcome == string(host.Added):
			action = "add"
		}
		if x.Disabled && x.imports {
			action += ", switched off as it was there"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", x.Name, x.Outcome, action)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, x := range items {
		for _, c := range x.Changes {
			fmt.Fprintf(inv.Stdout, "  %s: %s\n", x.Name, c)
		}
		for _, p := range x.Problems {
			fmt.Fprintf(inv.Stdout, "  %s: %s\n", x.Name, p)
		}
		for _, id := range x.needs {
			fmt.Fprintf(inv.Stdout, "  %s: needs a value for ${input:%s}: asked for on a terminal, or give it with --set %s=VALUE\n", x.Name, id, id)
		}
	}
	for _, m := range moves {
		if m.Input != "" { // a password input: always the keyring
			fmt.Fprintf(inv.Stdout, "  %s: %s: the password input ${input:%s} goes to the keyring as ${secret:%s}\n", m.Server, m.Field, m.Input, m.Name)
			continue
		}
		fmt.Fprintf(inv.Stdout, "  %s: %s %s moves to the keyring as ${secret:%s} (keep it with --plaintext %s)\n", m.Server, m.Field, m.Masked, m.Name, m.Key())
	}
	sayCommandLine(inv, moves)
	if dryRun {
		_, err := fmt.Fprintln(inv.Stdout, "dry run: nothing was changed")
		return err
	}
	return nil
}

// sayCommandLine notes, per server, the moved values that go back on its
// command line when it starts.
func sayCommandLine(inv *Invocation, moves []host.SecretMove) {
	var servers []string
	fields := map[string][]string{}
	for _, m := range moves {
		if !m.OnCommandLine() {
			continue
		}
		if fields[m.Server] == nil {
			servers = append(servers, m.Server)
		}
		fields[m.Server] = append(fields[m.Server], m.Field)
	}
	for _, srv := range servers {
		fmt.Fprintf(inv.Stdout, "  %s: %s: %s\n", srv, strings.Join(fields[srv], ", "), host.CommandLineNote)
	}
}

func serversDiscoverCmd() *Command {
	return &Command{
		Name:    "discover",
		Summary: "find the MCP configs of Claude Desktop, Claude Code, Cursor, VS Code, Codex and other apps on this machine",
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			// host.Discover is what the welcome page and the import
			// wizard show too, so the three agree on every count.
			found := host.Discover(ctx)
			// What is imported already no longer needs attention, as the
			// window counts it (an unreadable app config counts nothing).
			if servers, err := loadServers(inv, "", map[string]string{}); err == nil {
				var have []string
				for _, s := range servers {
					have = append(have, s.Name)
				}
				for i := range found {
					found[i] = found[i].MarkImported(have)
				}
			}
			if inv.JSON {
				return inv.PrintJSON(found)
			}
			cells := make([][]string, 0, len(found))
			for _, f := range found {
				cells = append(cells, []string{f.App, f.Scope, f.Summary(), f.Path})
			}
			if err := inv.Table("no MCP configs of other apps found", []string{"APP", "SCOPE", "SERVERS", "FILE"}, cells); err != nil || len(found) == 0 {
				return err
			}
			_, err := fmt.Fprintln(inv.Stdout, "import one with 'switchboard servers import FILE --dry-run' first")
			return err
		},
	}
}

func serversAddCmd() *Command {
	var url, tmpl string
	env := kvFlag{}
	params := kvFlag{}
	plaintext := listFlag{}
	return &Command{
		Name:    "add",
		Args:    "NAME [--url URL | --template ID | -- COMMAND ARGS...]",
		Summary: "add one server",
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&url, "url", "", "remote server URL (http/sse)")
			fs.Var(env, "env", "environment variable KEY=VALUE (repeatable); a secret-looking value goes to the keyring; KEY=- reads the value from standard input and keeps it in the keyring")
			fs.Var(plaintext, "plaintext", "keep this secret-looking variable's value in the config instead of the keyring, as VAR (repeatable)")
			fs.StringVar(&tmpl, "template", "", "add from a template ('switchboard servers templates' lists them)")
			fs.Var(params, "param", "a template parameter KEY=VALUE (repeatable)")
		},
		Run: func(_ context.Context, inv *Invocation, args []string) error {
			if tmpl != "" {
				if len(args) != 1 || url != "" {
					return &UsageError{Cmd: inv.Path, Msg: "with --template give only NAME and --param KEY=VALUE flags"}
				}
				return addFromTemplate(inv, args[0], tmpl, params)
			}
			if len(args) < 1 || (url == "") == (len(args) < 2) {
				return &UsageError{Cmd: inv.Path, Msg: "give NAME and either --url URL or -- COMMAND ARGS..."}
			}
			entry := map[string]any{}
			if url != "" {
				entry["url"] = url
			} else {
				entry["command"], entry["args"] = args[1], args[2:]
			}
			// KEY=- values are read from standard input, one line each in
			// KEY order, and always kept in the keyring.
			given := map[string]string{}
			in := bufio.NewReader(inv.Stdin)
			for _, k := range slices.Sorted(maps.Keys(env)) {
				if env[k] != "-" {
					continue
				}
				v, err := readSecret(inv, in, k)
				if err != nil {
					return err
				}
				if v == "" {
					return &UsageError{Cmd: inv.Path, Msg: fmt.Sprintf("--env %s=-: standard input gave no value", k)}
				}
				given["env."+k], env[k] = v, ""
			}
			if len(env) > 0 {
				entry["env"] = map[string]string(env)
			}
			data, _ := json.Marshal(entry)
			srv, err := host.ParseEntry(args[0], string(data))
			if err != nil {
				return validation(err)
			}
			keepPlain := map[string]bool{}
			for k := range plaintext {
				keepPlain["env."+k] = true
			}
			// The window's form saves through the same call: the same rules,
			// the same refusal of a taken or built-in name; Detect moves
			// secret-looking values to the keyring as an import does.
			return edit(inv, func(h *host.Host) error {
				if _, err := h.Servers.Save(inv.Context(), host.ServerEdit{Server: srv, Secrets: given, Detect: true, Plaintext: keepPlain}); err != nil {
					return err
				}
				if saved, ok := h.Servers.Get(srv.Name); ok && !inv.JSON {
					sayWhereValuesWent(inv, srv, saved, plaintext)
				}
				return nil
			})
		},
	}
}

// sayWhereValuesWent tells, for each --env of 'servers add', where its
// value is kept: in the keyring (and under which name) or in config.json
// in plain text, and why; and which keyring secrets go on the command
// line.
func sayWhereValuesWent(inv *Invocation, typed, saved host.Server, plaintext listFlag) {
	for _, k := range slices.Sorted(maps.Keys(typed.Env)) {
		v := saved.Env[k]
		switch {
		case v != typed.Env[k] && strings.HasPrefix(v, "${secret:"):
			fmt.Fprintf(inv.Stdout, "env.%s: kept in the keyring as %s\n", k, v)
		case strings.Contains(v, "${"):
			fmt.Fprintf(inv.Stdout, "env.%s: a reference, resolved when the server starts\n", k)
		case plaintext[k]:
			fmt.Fprintf(inv.Stdout, "env.%s: kept in config.json in plain text (--plaintext)\n", k)
		default:
			fmt.Fprintf(inv.Stdout, "env.%s: kept in config.json in plain text (it does not look secret; --env %s=- keeps a value in the keyring)\n", k, k)
		}
	}
	if f := host.CommandLineSecrets(saved); len(f) > 0 {
		fmt.Fprintf(inv.Stdout, "%s: keyring secrets %s\n", strings.Join(f, ", "), host.CommandLineNote)
	}
}

func serversRemoveCmd() *Command {
	var keepSecrets bool
	return &Command{
		Name:    "remove",
		Args:    "NAME",
		Summary: "remove a server from the app config, and its secrets from the keyring; the agents that used it no longer do",
		Flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&keepSecrets, "keep-secrets", false, "leave the server's secrets in the keyring")
		},
		Run: func(_ context.Context, inv *Invocation, args []string) error {
			if len(args) != 1 {
				return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME"}
			}
			return edit(inv, func(h *host.Host) error {
				var names []string
				if !keepSecrets {
					var err error
					if names, err = h.Servers.SecretsOf(args[0]); err != nil {
						return err
					}
				}
				agents, _ := h.Agents.Using(args[0]) // the remove takes it out of them
				if err := h.Servers.RemoveWith(args[0], !keepSecrets); err != nil {
					return err
				}
				if len(names) > 0 && !inv.JSON {
					fmt.Fprintf(inv.Stdout, "deleted from the keyring: %s\n", strings.Join(names, ", "))
				}
				if len(agents) > 0 && !inv.JSON {
					fmt.Fprintf(inv.Stdout, "removed from the agents that used it: %s (a server added again under this name is in none of them)\n", termSafe(strings.Join(agents, ", ")))
				}
				return nil
			})
		},
	}
}

func serversToggleCmd(name string, disabled bool) *Command {
	return &Command{
		Name:    name,
		Args:    "NAME",
		Summary: name + " a server",
		Run: func(_ context.Context, inv *Invocation, args []string) error {
			if len(args) != 1 {
				return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME"}
			}
			return edit(inv, func(h *host.Host) error { return h.Servers.SetEnabled(args[0], !disabled) })
		},
	}
}

// sandboxCell is the SANDBOX column: "-" when off, else "on" and what the
// entry adds: "on,network,read=1,write=2,roots=read".
func sandboxCell(sb *host.Sandbox) string {
	if sb == nil {
		return "-"
	}
	parts := []string{"on"}
	if sb.Network {
		parts = append(parts, "network")
	}
	if n := len(sb.AllowRead); n > 0 {
		parts = append(parts, fmt.Sprintf("read=%d", n))
	}
	if n := len(sb.AllowWrite); n > 0 {
		parts = append(parts, fmt.Sprintf("write=%d", n))
	}
	if sb.Roots != "" && sb.Roots != "read" {
		parts = append(parts, "roots="+sb.Roots)
	}
	return strings.Join(parts, ",")
}

func serversTestCmd() *Command {
	var file string
	inputs := kvFlag{}
	return &Command{
		Name:    "test",
		Args:    "NAME",
		Summary: "start one server on its own, connect (server/discover or initialize) and run tools/list, time each step and name the MCP revision it speaks",
		Flags:   func(fs *flag.FlagSet) { configFlags(fs, &file, inputs) },
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) != 1 {
				return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME"}
			}
			servers, err := loadServers(inv, file, inputs)
			if err != nil {
				return err
			}
			i := slices.IndexFunc(servers, func(s host.Server) bool { return s.Name == args[0] })
			if i < 0 {
				return &ValidationError{Err: fmt.Errorf("no server named %q; see 'switchboard servers list'", args[0])}
			}
			h, err := openHost(inv, file)
			if err != nil {
				return err
			}
			defer closeServers(h)
			r, err := h.Servers.Test(ctx, servers[i])
			if err != nil {
				return &ValidationError{Err: err}
			}
			if err := printReport(inv, r); err != nil {
				return err
			}
			if !r.OK {
				return fmt.Errorf("%s: the %s step failed: %s", r.Server, r.Failed, firstLine(r.Error))
			}
			return nil
		},
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func printReport(inv *Invocation, r host.TestReport) error {
	if inv.JSON {
		return inv.PrintJSON(r)
	}
	rows := [][]string{}
	for _, s := range r.Steps {
		res := "ok"
		if s.Error != "" {
			res = "FAILED: " + termSafe(firstLine(s.Error))
		}
		rows = append(rows, []string{s.Name, fmt.Sprintf("%.1f ms", s.Ms), res})
	}
	if err := inv.Table("", []string{"STEP", "TIME", "RESULT"}, rows); err != nil {
		return err
	}
	if r.OK {
		_, err := fmt.Fprintf(inv.Stdout, "%s: ok in %.1f ms (%s %s over %s, MCP %s, %s)\n", r.Server, r.TotalMs, termSafe(r.ServerName), termSafe(r.Version), r.Transport, termSafe(r.Protocol), r.Summary)
		return err
	}
	if len(r.Stderr) > 0 {
		fmt.Fprintf(inv.Stdout, "last stderr lines:\n  %s\n", termSafe(strings.Join(r.Stderr, "\n  ")))
	}
	return nil
}

func serversTemplatesCmd() *Command {
	return &Command{
		Name:    "templates",
		Summary: "list the server templates (the catalogue and those in the app config) and their parameters",
		Run: func(_ context.Context, inv *Invocation, args []string) error {
			h, err := readHost(inv)
			if err != nil {
				return err
			}
			defer closeServers(h)
			ts := h.Library.Templates()
			type view struct {
				ID          string               `json:"id"`
				Title       string               `json:"title"`
				Description string               `json:"description"`
				Params      []host.TemplateParam `json:"params"`
			}
			var out []view
			rows := [][]string{}
			for _, t := range ts {
				ps, err := t.Params()
				if err != nil {
					fmt.Fprintf(inv.Stderr, "%v\n", err)
					continue
				}
				out = append(out, view{t.ID, t.Title, t.Description, host.ParamsView(ps)})
				var names []string
				for _, p := range ps {
					n := p.Name
					if p.Required {
						n += "*"
					}
					names = append(names, n)
				}
				rows = append(rows, []string{t.ID, strings.Join(names, " "), t.Description})
			}
			if inv.JSON {
				return inv.PrintJSON(out)
			}
			if err := inv.Table("no templates", []string{"TEMPLATE", "PARAMETERS (* required)", "DESCRIPTION"}, rows); err != nil {
				return err
			}
			_, err = fmt.Fprintln(inv.Stdout, "add one with: switchboard servers add NAME --template ID --param KEY=VALUE ...")
			return err
		},
	}
}

// addFromTemplate adds the server a template makes; secret parameters go
// to the keyring.
func addFromTemplate(inv *Invocation, name, id string, params map[string]string) error {
	var from string // the template's ID
	err := edit(inv, func(h *host.Host) error {
		t, err := h.Library.AddFromTemplate(id, name, params)
		from = t.ID
		return err
	})
	var pe *host.TemplateParamError
	switch {
	case errors.As(err, &pe) || errors.Is(err, host.ErrInvalidTemplateParam) || errors.Is(err, host.ErrBadTemplate):
		return &ValidationError{Err: fmt.Errorf("%w; set it with --param KEY=VALUE", err)}
	case errors.Is(err, host.ErrUnknownTemplate):
		return &ValidationError{Err: err}
	case err != nil:
		return err
	}
	_, err = fmt.Fprintf(inv.Stdout, "added %s from template %s\n", name, from)
	return err
}

func serversProfileCmd() *Command {
	var none bool
	return &Command{
		Name:    "profile",
		Args:    "[NAME | --none]",
		Summary: "show the profiles servers declare, or switch every server to one",
		Flags:   func(fs *flag.FlagSet) { fs.BoolVar(&none, "none", false, "use no profile: every server as written") },
		Run: func(_ context.Context, inv *Invocation, args []string) error {
			if len(args) > 1 || (none && len(args) > 0) {
				return &UsageError{Cmd: inv.Path, Msg: "give one profile NAME, --none, or nothing to list them"}
			}
			if len(args) == 1 || none {
				name := ""
				if !none {
					name = args[0]
				}
				return edit(inv, func(h *host.Host) error {
					if err := h.Library.SetProfile(name); err != nil {
						return &ValidationError{Err: err}
					}
					return nil
				})
			}
			h, err := readHost(inv)
			if err != nil {
				return err
			}
			defer closeServers(h)
			active, names, err := h.Library.Profiles()
			if err != nil {
				return validation(err)
			}
			if inv.JSON {
				if names == nil {
					names = []string{}
				}
				return inv.PrintJSON(struct {
					Active string   `json:"active"`
					Names  []string `json:"names"`
				}{active, names})
			}
			rows := [][]string{}
			for _, n := range names {
				mark := ""
				if n == active {
					mark = "active"
				}
				rows = append(rows, []string{n, mark})
			}
			return inv.Table("no server declares a profile (add \"profiles\": {\"work\": {...}} to one)", []string{"PROFILE", ""}, rows)
		},
	}
}

func serversLoginCmd() *Command {
	var file string
	inputs := kvFlag{}
	return &Command{
		Name:    "login",
		Args:    "NAME",
		Summary: "log in to a remote server with OAuth in your browser (the tokens go to the keyring)",
		Flags:   func(fs *flag.FlagSet) { configFlags(fs, &file, inputs) },
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) != 1 {
				return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME"}
			}
			name := args[0]
			servers, err := loadServers(inv, file, inputs)
			if err != nil {
				return err
			}
			i := slices.IndexFunc(servers, func(s host.Server) bool { return s.Name == name })
			if i < 0 {
				return &ValidationError{Err: fmt.Errorf("no server named %q; see 'switchboard servers list'", name)}
			}
			if servers[i].URL == "" {
				return &ValidationError{Err: fmt.Errorf("%s runs a command; only remote (http/sse) servers log in, give this one its credentials as env values", name)}
			}
			dir, err := inv.DataDir()
			if err != nil {
				return err
			}
			h := host.Open(host.Options{Context: inv.Context(), Dir: dir, NoLogFiles: file != ""})
			defer closeServers(h)
			h.Servers.Run(servers[i : i+1])
			show := func(u string) {
				fmt.Fprintf(inv.Stderr, "Opening your browser to log in to %s. If it does not open, visit:\n  %s\n", name, termSafe(u))
			}
			st, err := h.Servers.Login(ctx, name, show)
			if errors.Is(err, host.ErrNoOAuthClient) {
				path := file
				if path == "" {
					path = dir.Config()
				}
				return fmt.Errorf("%w; the entry is mcpServers.%s in %s", err, name, path)
			}
			if err != nil {
				return err
			}
			tools, err := h.Tools.Of(ctx, name)
			if err != nil {
				return fmt.Errorf("logged in, but listing the tools failed: %w", err)
			}
			if inv.JSON {
				return inv.PrintJSON(struct {
					Server string `json:"server"`
					State  string `json:"state"`
					Tools  int    `json:"tools"`
				}{name, string(st.State), len(tools)})
			}
			_, err = fmt.Fprintf(inv.Stdout, "logged in to %s: ready with %d tools\n", name, len(tools))
			return err
		},
	}
}

func serversExportCmd() *Command {
	var out string
	return &Command{
		Name:    "export",
		Summary: "write a shareable mcpServers config: secrets stay ${secret:NAME} placeholders",
		Flags:   func(fs *flag.FlagSet) { fs.StringVar(&out, "out", "", "write to this file instead of standard output") },
		Run: func(_ context.Context, inv *Invocation, args []string) error {
			if len(args) > 0 {
				return &UsageError{Cmd: inv.Path, Msg: "takes no arguments"}
			}
			h, err := readHost(inv)
			if err != nil {
				return err
			}
			defer closeServers(h)
			data, err := h.ServerFiles.Export()
			if err != nil {
				return validation(err)
			}
			plain, err := h.ServerFiles.PlainSecrets()
			if err != nil {
				return validation(err)
			}
			for _, p := range plain {
				fmt.Fprintf(inv.Stderr, "note: %s: config.json keeps this secret-looking value in plain text; the export has a ${secret:…} placeholder there instead (to keep it in the keyring: tick Secret in the server's form, or 'switchboard secrets set NAME' and write ${secret:NAME} in config.json)\n", p)
			}
			if out == "" {
				_, err = inv.Stdout.Write(data)
				return err
			}
			return os.WriteFile(out, data, 0o600)
		},
	}
}
