package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/app/host"
)

// clientsCmd is 'switchboard clients': the other MCP apps on this
// computer and their link to Switchboard.
func clientsCmd() *Command {
	list := clientsListCmd()
	return &Command{
		Name:    "clients",
		Summary: "the MCP apps on this computer (Claude Desktop, Claude Code, Cursor, VS Code, …) and whether they use Switchboard",
		Run:     list.Run,
		Subs:    []*Command{list, clientsConnectCmd(), clientsDisconnectCmd(), clientsServersCmd()},
	}
}

func clientsListCmd() *Command {
	return &Command{
		Name:    "list",
		Summary: "each app found: its config files, connected or not, how many servers of its own it still runs",
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) > 0 {
				return &UsageError{Cmd: inv.Path, Msg: "takes no arguments"}
			}
			h, err := openHost(inv, "")
			if err != nil {
				return err
			}
			defer closeServers(h)
			wd, _ := os.Getwd()
			apps, err := h.Clients.List(ctx, wd)
			if err != nil {
				return err
			}
			found := apps[:0]
			for _, a := range apps {
				if a.Found {
					found = append(found, a)
				}
			}
			if inv.JSON {
				return inv.PrintJSON(found)
			}
			var rows [][]string
			for _, a := range found {
				state := "not connected"
				switch {
				case a.Broken != "":
					state = "broken: " + a.Broken
				case a.Connected:
					state = "connected"
				}
				if a.Running {
					state += " (running)"
				}
				for i, f := range a.Files {
					name, st := a.Name, state
					if i > 0 {
						name, st = "", ""
					}
					servers := fmt.Sprint(f.Servers)
					if f.Problem != "" {
						servers = "cannot be read: " + f.Problem
					}
					rows = append(rows, []string{name, st, f.Scope, f.Path, servers})
				}
			}
			return inv.Table("no MCP apps found for this user", []string{"APP", "STATE", "SCOPE", "FILE", "OWN SERVERS"}, rows)
		},
	}
}

func clientsConnectCmd() *Command {
	var req host.ClientConnect
	var servers string
	plaintext := listFlag{}
	inputs := kvFlag{}
	return &Command{
		Name: "connect",
		Args: "NAME",
		Summary: "add Switchboard to the app's config file (the rest of the file stays byte for byte; a backup is kept); " +
			"--move also moves the app's own servers here",
		Flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&req.Move, "move", false, "move the app's own servers into Switchboard (secrets to the keyring) and out of its file")
			fs.StringVar(&servers, "servers", "", "the servers the app sees, `A,B` (default: all)")
			fs.StringVar(&req.Project, "project", "", "write the app's project file in `DIR` (.mcp.json, .vscode/mcp.json) instead of its user file")
			fs.StringVar(&req.EnvDiffers, "env-differs", "", "when a server to move is in Switchboard with another environment: keep (Switchboard's) or import (the app's as well)")
			fs.BoolVar(&req.DryRun, "dry-run", false, "show the change to the file and write nothing")
			fs.Var(plaintext, "plaintext", "with --move, keep this secret-looking value in the config instead of the keyring, as SERVER.env.VAR or SERVER.headers.NAME (repeatable)")
			fs.Var(inputs, "set", "with --move, the value of a VS Code ${input:ID} placeholder of the servers moved, as ID=VALUE (repeatable); ID=- reads it from standard input; one not given is asked for on a terminal (a password input's value goes to the keyring either way)")
		},
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) != 1 {
				return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME (see 'switchboard clients')"}
			}
			req.Plaintext = plaintext
			if req.EnvDiffers != "" && req.EnvDiffers != "keep" && req.EnvDiffers != "import" {
				return &UsageError{Cmd: inv.Path, Msg: "--env-differs is keep or import"}
			}
			if len(inputs) > 0 && !req.Move {
				return &UsageError{Cmd: inv.Path, Msg: "--set gives the values of the servers --move moves: add --move"}
			}
			req.Name = args[0]
			if servers != "" {
				req.Servers = strings.Split(servers, ",")
			}
			in := bufio.NewReader(inv.Stdin)
			if err := readDashInputs(inv, in, inputs); err != nil {
				return err
			}
			req.Inputs = inputs
			h, err := openHost(inv, "")
			if err != nil {
				return err
			}
			defer closeServers(h)
			ch, err := h.Clients.Connect(ctx, req)
			if missing, ok := errors.AsType[*host.MissingInputError](err); ok {
				// VS Code's ${input:ID}s without a value: asked for on a
				// terminal, as VS Code asks; else said how to give them.
				data, rerr := os.ReadFile(ch.Path)
				if rerr != nil {
					return rerr
				}
				imp := host.ImportRequest{Name: ch.Path, Path: ch.Path, Data: data, Inputs: req.Inputs}
				if err := askInputs(inv, h, imp, missing, in); err != nil {
					return fmt.Errorf("moving %s's servers: %w", ch.Path, err)
				}
				ch, err = h.Clients.Connect(ctx, req)
			}
			if err != nil {
				return clientErr(err)
			}
			return printChange(inv, ch, "connected to Switchboard", "moved", req.DryRun)
		},
	}
}

// readDashInputs reads each input given as ID=- from standard input.
func readDashInputs(inv *Invocation, in *bufio.Reader, inputs kvFlag) error {
	for _, id := range slices.Sorted(maps.Keys(inputs)) {
		if inputs[id] == "-" {
			v, err := readSecret(inv, in, "${input:"+id+"}")
			if err != nil {
				return err
			}
			inputs[id] = v
		}
	}
	return nil
}

// inputsError is a *host.MissingInputError said with what the command at
// hand can do about it (and nothing it cannot).
type inputsError struct {
	missing *host.MissingInputError
	todo    string
}

func (e *inputsError) Error() string {
	return e.missing.Needs("the config needs") + ": " + e.todo
}

// Unwrap returns the *host.MissingInputError.
func (e *inputsError) Unwrap() error { return e.missing }

func clientsDisconnectCmd() *Command {
	var req host.ClientDisconnect
	var without bool
	return &Command{
		Name:    "disconnect",
		Args:    "NAME",
		Summary: "take Switchboard out of the app's config file and give back the servers moved from it, each where it was, with its secrets from the keyring",
		Flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&req.WithSecrets, "with-secrets", true, "write the moved servers' secrets back from the keyring into the app's file they came from, as the app had them (the default)")
			fs.BoolVar(&without, "without-secrets", false, "leave the moved servers' secrets empty in the app's file (the keyring keeps them)")
			fs.StringVar(&req.Project, "project", "", "the app's project file in `DIR`")
			fs.BoolVar(&req.DryRun, "dry-run", false, "show the change to the file and write nothing")
		},
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) != 1 {
				return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME (see 'switchboard clients')"}
			}
			if without {
				req.WithSecrets = false
			}
			req.Name = args[0]
			h, err := openHost(inv, "")
			if err != nil {
				return err
			}
			defer closeServers(h)
			ch, err := h.Clients.Disconnect(ctx, req)
			if err != nil {
				return clientErr(err)
			}
			return printChange(inv, ch, "disconnected from Switchboard", "returned", req.DryRun)
		},
	}
}

func clientsServersCmd() *Command {
	return &Command{
		Name:    "servers",
		Args:    "NAME [A,B]",
		Summary: "choose the servers the app sees (A,B), or let it see all of them (no list)",
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return &UsageError{Cmd: inv.Path, Msg: "needs NAME and optionally a list A,B"}
			}
			var list []string
			if len(args) == 2 && args[1] != "" {
				list = strings.Split(args[1], ",")
			}
			h, err := openHost(inv, "")
			if err != nil {
				return err
			}
			defer closeServers(h)
			if err := h.Clients.SetServers(args[0], list); err != nil {
				return clientErr(err)
			}
			what := "all servers"
			if len(list) > 0 {
				// The built-ins are no choice of the list: every app has them.
				what = strings.Join(list, ", ") + ", and the built-in " + strings.Join(host.BuiltinNames(), " and ")
			}
			_, err = fmt.Fprintf(inv.Stdout, "%s sees %s\n", args[0], what)
			return err
		},
	}
}

// clientErr maps the host's errors to the CLI's exit codes.
func clientErr(err error) error {
	if errors.Is(err, host.ErrNoClient) || errors.Is(err, host.ErrClientEnvDiffers) || errors.Is(err, host.ErrNoServer) {
		return &ValidationError{Err: err}
	}
	if errors.Is(err, host.ErrClientFileInvalid) {
		return &ValidationError{Err: err}
	}
	if ie, ok := errors.AsType[*host.ClientInputError](err); ok {
		// The window's advice is for the window: here --set gives them.
		return &ValidationError{Err: fmt.Errorf("%s: give each with --set ID=VALUE (ID=- reads it from standard input), or replace the placeholder in the file", ie.Needs())}
	}
	return err
}

// printChange says what a connect or disconnect changed; moved is what
// the servers it lists (ch.Moved) went through: "moved" out of the app's
// file, "returned" to it.
func printChange(inv *Invocation, ch host.ClientChange, done, moved string, dry bool) error {
	if inv.JSON {
		return inv.PrintJSON(ch)
	}
	w := inv.Stdout
	switch {
	case !ch.Changed:
		fmt.Fprintf(w, "%s: %s is already as it should be; nothing changed\n", ch.Title, ch.Path)
	case dry:
		fmt.Fprintf(w, "%s: would change %s:\n%s", ch.Title, ch.Path, ch.Diff)
	default:
		fmt.Fprintf(w, "%s %s (%s)\n", ch.Title, done, ch.Path)
		if ch.Backup != "" {
			fmt.Fprintf(w, "backup: %s\n", ch.Backup)
		}
	}
	for _, m := range ch.Moved {
		fmt.Fprintf(w, "%s: %s\n", moved, termSafe(m))
	}
	for _, s := range ch.Skipped {
		fmt.Fprintf(w, "not moved: %s\n", termSafe(s))
	}
	for _, s := range ch.Warnings {
		fmt.Fprintf(inv.Stderr, "note: %s\n", s)
	}
	return nil
}
