package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/app/host"
)

// Exit codes of the CLI contract (DESIGN.md); scripts depend on them.
const (
	ExitOK      = 0
	ExitRuntime = 1
	ExitUsage   = 2
)

// UsageError is a mistake in how the command was invoked. It maps to exit code 2.
type UsageError struct {
	Cmd string // full command path, e.g. "switchboard servers import"
	Msg string
}

func (e *UsageError) Error() string {
	return fmt.Sprintf("%s: %s (see '%s --help')", e.Cmd, e.Msg, e.Cmd)
}

// ValidationError wraps an error caused by invalid user input (a config file,
// a JSON argument). It maps to exit code 2.
type ValidationError struct{ Err error }

func (e *ValidationError) Error() string { return e.Err.Error() }
func (e *ValidationError) Unwrap() error { return e.Err }

// GUIOptions is what the GUI launcher needs from the command line.
type GUIOptions struct {
	DataDir datadir.Dir
	// Files are the files the window is asked to open ('switchboard
	// bundle.mcpb', or the desktop opening a .mcpb with Switchboard), absolute.
	Files []string
}

// Env is the process environment the CLI runs in; tests substitute buffers.
type Env struct {
	Stdout io.Writer
	Stderr io.Writer
	Stdin  io.Reader
	// GUI launches the window; it blocks until the window closes.
	GUI func(ctx context.Context, o GUIOptions) error
}

// Globals are the flags every command accepts, before or after its name.
type Globals struct {
	DataDir string
	JSON    bool
}

// Invocation is what a command's run function receives.
type Invocation struct {
	Env
	Globals
	Path string // "switchboard servers list"
	ctx  context.Context
}

// Context is the command's context: it ends on SIGINT or SIGTERM, so long
// work (reading a huge config) stops instead of ignoring the signal.
func (inv *Invocation) Context() context.Context {
	if inv.ctx == nil {
		return context.Background()
	}
	return inv.ctx
}

// DataDir resolves the data directory from --data-dir, the environment or the OS default.
func (inv *Invocation) DataDir() (datadir.Dir, error) {
	return datadir.Resolve(inv.Globals.DataDir)
}

// PrintJSON writes v as indented JSON followed by a newline, with <, >
// and & as they are (a terminal or a script reads it, not an HTML page:
// "server.<new id>.env.X", not "server.\u003cnew id\u003e.env.X").
func (inv *Invocation) PrintJSON(v any) error {
	enc := json.NewEncoder(inv.Stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Table prints rows under a header, aligned; with no rows it prints empty instead.
func (inv *Invocation) Table(empty string, header []string, rows [][]string) error {
	if len(rows) == 0 {
		_, err := fmt.Fprintln(inv.Stdout, empty)
		return err
	}
	cells := make([][]string, len(rows))
	for i, r := range rows {
		cells[i] = make([]string, len(r))
		for j, c := range r {
			cells[i][j] = cell(c)
		}
	}
	return writeTable(inv.Stdout, header, cells)
}

// cell is a table cell as printed: terminal-safe (names and descriptions
// come from servers and registries) and on one line, a tab or a line break
// becoming a space so it cannot shift the columns or fake a row.
func cell(s string) string {
	return strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(termSafe(s))
}

// Command is one node of the command tree: subcommands, a Run, or both (the
// Run is then what the group does alone: 'switchboard models' lists).
type Command struct {
	Name    string
	Args    string // positional synopsis, e.g. "FILE"
	Summary string
	// Flags registers the command's own flags.
	Flags func(fs *flag.FlagSet)
	// Run executes the command with its positional arguments.
	Run  func(ctx context.Context, inv *Invocation, args []string) error
	Subs []*Command
}

// Run parses args (without the program name), runs the command and returns the exit code.
func Run(ctx context.Context, args []string, env Env) int {
	if env.Stdout == nil {
		env.Stdout = os.Stdout
	}
	if env.Stderr == nil {
		env.Stderr = os.Stderr
	}
	if env.Stdin == nil {
		env.Stdin = os.Stdin
	}
	err := dispatch(ctx, root(), args, env)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return ExitOK
	}
	var ue *UsageError
	if errors.As(err, &ue) {
		fmt.Fprintln(env.Stderr, err.Error())
		fmt.Fprintln(env.Stderr, usageLine(ue.Cmd))
		return ExitUsage
	}
	// The sentence the window shows, then the technical detail; errors may
	// carry a server's text.
	fmt.Fprintln(env.Stderr, "switchboard: "+termSafe(host.Plain(err)))
	var ve *ValidationError
	if errors.As(err, &ve) {
		return ExitUsage
	}
	return ExitRuntime
}

func dispatch(ctx context.Context, top *Command, args []string, env Env) error {
	var g Globals
	cmd, path := top, "switchboard"
	for {
		fs := newFlagSet(path, &g, cmd, env.Stderr)
		// Global flags may precede the subcommand name: parse up to the first positional.
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				writeHelp(env.Stdout, path, cmd)
				return err
			}
			return &UsageError{Cmd: path, Msg: err.Error()}
		}
		rest := fs.Args()
		if len(cmd.Subs) == 0 {
			pos, err := parseInterspersed(fs, rest)
			if err != nil {
				if errors.Is(err, flag.ErrHelp) {
					writeHelp(env.Stdout, path, cmd)
					return err
				}
				return &UsageError{Cmd: path, Msg: err.Error()}
			}
			return cmd.Run(ctx, &Invocation{Env: env, Globals: g, Path: path, ctx: ctx}, pos)
		}
		if len(rest) == 0 {
			if cmd == top {
				return launchGUI(ctx, env, g)
			}
			if cmd.Run != nil { // a group with a default: 'switchboard models' lists them
				return cmd.Run(ctx, &Invocation{Env: env, Globals: g, Path: path, ctx: ctx}, nil)
			}
			return &UsageError{Cmd: path, Msg: "missing subcommand; one of " + subNames(cmd)}
		}
		name := rest[0]
		if cmd == top {
			if files, ok := fileArgs(top, rest, ""); ok {
				return launchGUI(ctx, env, g, files...)
			}
		}
		if name == "help" {
			return helpFor(env.Stdout, path, cmd, rest[1:])
		}
		i := slices.IndexFunc(cmd.Subs, func(c *Command) bool { return c.Name == name })
		if i < 0 {
			return &UsageError{Cmd: path, Msg: fmt.Sprintf("unknown command %q; one of %s%s", name, subNames(cmd), didYouMean(path, cmd, name))}
		}
		cmd, path, args = cmd.Subs[i], path+" "+name, rest[1:]
	}
}

func launchGUI(ctx context.Context, env Env, g Globals, files ...string) error {
	dir, err := datadir.Resolve(g.DataDir)
	if err != nil {
		return err
	}
	if env.GUI == nil {
		return errors.New("this binary has no GUI; run a subcommand (see 'switchboard --help')")
	}
	return env.GUI(ctx, GUIOptions{DataDir: dir, Files: files})
}

// fileArgs says whether the positional arguments of a bare 'switchboard'
// are files to open in the window rather than a command: the first is no
// command's name, and each ends in .mcpb or is an existing file. The paths
// are made absolute against wd ("" means the working directory).
func fileArgs(top *Command, rest []string, wd string) ([]string, bool) {
	if len(rest) == 0 || rest[0] == "help" || slices.ContainsFunc(top.Subs, func(c *Command) bool { return c.Name == rest[0] }) {
		return nil, false
	}
	var files []string
	for _, a := range rest {
		if wd != "" && !filepath.IsAbs(a) {
			a = filepath.Join(wd, a)
		}
		abs, err := filepath.Abs(a)
		if err != nil {
			return nil, false
		}
		if fi, err := os.Stat(abs); !strings.EqualFold(filepath.Ext(abs), ".mcpb") && (err != nil || fi.IsDir()) {
			return nil, false
		}
		files = append(files, abs)
	}
	return files, true
}

// GUIFiles returns the files a second launch of Switchboard was given
// (its arguments without the program name, run in wd) for the running
// window to open; nil when it was not asked to open any.
func GUIFiles(args []string, wd string) []string {
	var g Globals
	fs := newFlagSet("switchboard", &g, root(), io.Discard)
	if err := fs.Parse(args); err != nil {
		return nil
	}
	files, _ := fileArgs(root(), fs.Args(), wd)
	return files
}

// helpFor prints help for "cmd help [sub...]".
func helpFor(w io.Writer, path string, cmd *Command, names []string) error {
	for _, n := range names {
		i := slices.IndexFunc(cmd.Subs, func(c *Command) bool { return c.Name == n })
		if i < 0 {
			return &UsageError{Cmd: path, Msg: fmt.Sprintf("unknown command %q; one of %s", n, subNames(cmd))}
		}
		cmd, path = cmd.Subs[i], path+" "+n
	}
	writeHelp(w, path, cmd)
	return nil
}

func newFlagSet(path string, g *Globals, cmd *Command, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(path, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported once, by Run
	fs.StringVar(&g.DataDir, "data-dir", g.DataDir, "data directory (env "+datadir.EnvVar+"; default: the OS config dir + /switchboard)")
	fs.BoolVar(&g.JSON, "json", g.JSON, "machine-readable output")
	if len(cmd.Subs) == 0 && cmd.Flags != nil {
		cmd.Flags(fs)
	}
	return fs
}

// parseInterspersed lets flags follow positional arguments
// ("servers import FILE --dry-run"); everything after "--" is positional.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var tail []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, tail = args[:i], args[i+1:]
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return append(pos, tail...), nil
		}
		pos, args = append(pos, args[0]), args[1:]
	}
}

// didYouMean names the command one level down that is called name
// ('switchboard install' is 'switchboard servers install'), or "".
func didYouMean(path string, cmd *Command, name string) string {
	for _, g := range cmd.Subs {
		if slices.ContainsFunc(g.Subs, func(c *Command) bool { return c.Name == name }) {
			return fmt.Sprintf("; did you mean '%s %s %s'?", path, g.Name, name)
		}
	}
	return ""
}

func subNames(cmd *Command) string {
	names := make([]string, 0, len(cmd.Subs))
	for _, c := range cmd.Subs {
		names = append(names, c.Name)
	}
	return strings.Join(names, ", ")
}
