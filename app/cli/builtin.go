package cli

import (
	"context"
	"flag"
	"fmt"
	"log"
	"strings"

	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/app/host"
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
		Name:    b.Name(),
		Summary: fmt.Sprintf("serve the %s over stdio (tools %s__*)", strings.ToLower(b.Title()), b.Name()),
		Flags: func(fs *flag.FlagSet) {
			// flag shows the back-quoted word as the value's name: --root DIR.
			fs.StringVar(&root, "root", "", strings.Replace(b.RootUsage, "DIR", "`DIR`", 1)+" (default: "+b.RootHelp+")")
		},
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) > 0 {
				return &UsageError{Cmd: inv.Path, Msg: fmt.Sprintf("takes no arguments, got %q (use --root DIR for the folder it serves)", args[0])}
			}
			var dir datadir.Dir
			if root == "" {
				d, err := inv.DataDir()
				if err != nil {
					return err
				}
				dir = d
			}
			return b.ServeStdio(ctx, host.Stdio{Dir: dir, Root: root, In: inv.Stdin, Out: inv.Stdout, Log: log.New(inv.Stderr, inv.Path+": ", 0)})
		},
	}
}
