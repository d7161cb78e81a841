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

	"github.com/switchboard-app/switchboard/app/host"
	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/builtin/workspace"
	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

func builtinCmd() *Command {
	cmd := &Command{
		Name:    "builtin",
		Summary: "run one built-in server over stdio, for Claude Desktop or any other MCP host",
	}
	for _, b := range host.Builtins {
		cmd.Subs = append(cmd.Subs, builtinServeCmd(b))
	}
	return cmd
}

func builtinServeCmd(b host.Builtin) *Command {
	var root string
	return &Command{
		Name:    b.Def.Name,
		Summary: fmt.Sprintf("serve the %s over stdio (tools %s__*)", strings.ToLower(b.Def.Title), b.Def.Name),
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&root, "root", "", "keep the server's data in `DIR` (default: "+b.RootHelp+")")
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
				dir = b.Root(d)
				if b.Def.Name == workspace.Builtin.Name { // the folder chosen in Settings, as in the window
					dir = host.WorkspaceRoot(d)
				}
			}
			dir, err := filepath.Abs(dir)
			if err != nil {
				return &UsageError{Cmd: inv.Path, Msg: fmt.Sprintf("--root %q: %v", root, err)}
			}
			if err := os.MkdirAll(dir, 0o700); err != nil {
				return fmt.Errorf("%s: create %s: %w", b.Def.Name, dir, err)
			}
			srv, closeFn, err := b.Def.Start(builtin.Config{Root: dir})
			if err != nil {
				return err
			}
			stdio := server.NewStdioServer(srv)
			stdio.SetErrorLogger(log.New(inv.Stderr, inv.Path+": ", 0))
			// One message is capped like every other stdio stream (wire.MaxMessageBytes).
			err = stdio.Listen(ctx, wire.NewReader(inv.Stdin, 0), inv.Stdout)
			// Listen returns after the last call has finished.
			if cerr := closeFn(); cerr != nil && err == nil {
				err = fmt.Errorf("%s: %w", b.Def.Name, cerr)
			}
			if ctx.Err() != nil {
				return nil
			}
			return err
		},
	}
}
