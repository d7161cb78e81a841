package cli

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/builtin/contentstore"
	"github.com/switchboard-app/switchboard/builtin/workspace"
)

// builtinServer is a built-in server the CLI can serve, with the place in
// the data directory its root defaults to.
type builtinServer struct {
	def      builtin.Server
	root     func(datadir.Dir) string
	rootHelp string
}

// builtins are the servers of 'switchboard builtin NAME'.
var builtins = []builtinServer{
	{def: contentstore.Builtin, root: datadir.Dir.Stores, rootHelp: "<data dir>/stores"},
	{def: workspace.Builtin, root: datadir.Dir.Workspace, rootHelp: "<data dir>/workspace"},
}

func builtinCmd() *Command {
	cmd := &Command{
		Name:    "builtin",
		Summary: "run one built-in server over stdio, for Claude Desktop or any other MCP host",
	}
	for _, b := range builtins {
		cmd.Subs = append(cmd.Subs, builtinServeCmd(b))
	}
	return cmd
}

func builtinServeCmd(b builtinServer) *Command {
	var root string
	return &Command{
		Name:    b.def.Name,
		Summary: fmt.Sprintf("serve the %s over stdio (tools %s__*)", strings.ToLower(b.def.Title), b.def.Name),
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&root, "root", "", "keep the server's data in `DIR` (default: "+b.rootHelp+")")
		},
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) > 0 {
				return &UsageError{Cmd: inv.Path, Msg: fmt.Sprintf("takes no arguments, got %q (use --root DIR for the data directory)", args[0])}
			}
			dir := root
			if dir == "" {
				d, err := inv.DataDir()
				if err != nil {
					return err
				}
				dir = b.root(d)
			}
			dir, err := filepath.Abs(dir)
			if err != nil {
				return &UsageError{Cmd: inv.Path, Msg: fmt.Sprintf("--root %q: %v", root, err)}
			}
			if err := os.MkdirAll(dir, 0o700); err != nil {
				return fmt.Errorf("%s: create %s: %w", b.def.Name, dir, err)
			}
			srv, closeFn, err := b.def.Start(builtin.Config{Root: dir})
			if err != nil {
				return err
			}
			stdio := server.NewStdioServer(srv)
			stdio.SetErrorLogger(log.New(inv.Stderr, inv.Path+": ", 0))
			err = stdio.Listen(ctx, inv.Stdin, inv.Stdout)
			// Listen returns after the last call has finished.
			if cerr := closeFn(); cerr != nil && err == nil {
				err = fmt.Errorf("%s: %w", b.def.Name, cerr)
			}
			if ctx.Err() != nil {
				return nil
			}
			return err
		},
	}
}

// builtinDefs lists every built-in server definition.
func builtinDefs() []builtin.Server {
	out := make([]builtin.Server, 0, len(builtins))
	for _, b := range builtins {
		out = append(out, b.def)
	}
	return out
}

// builtinRoot is where def keeps its data inside dir.
func builtinRoot(def builtin.Server, dir datadir.Dir) string {
	for _, b := range builtins {
		if b.def.Name == def.Name {
			return b.root(dir)
		}
	}
	return dir.String()
}
