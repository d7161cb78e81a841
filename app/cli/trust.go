package cli

import (
	"context"
	"flag"
	"fmt"
)

// toolsTrustCmd accepts a tool's changed definition (see mcpmanager/pins):
// the same decision as Accept on the window's Servers page. It starts no
// server: the changed definition was kept when it was listed.
func toolsTrustCmd() *Command {
	var server string
	return &Command{
		Name:    "trust",
		Args:    "NAME",
		Summary: "accept the changed (or new) definition of a withheld tool: NAME is server__tool, or the tool's own name with --server",
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&server, "server", "", "the server of the tool; NAME is then the server's own tool name")
		},
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) != 1 {
				return &UsageError{Cmd: inv.Path, Msg: "needs exactly one tool NAME (the withheld tools are listed by 'switchboard tools list')"}
			}
			h, err := openHost(inv, "")
			if err != nil {
				return err
			}
			defer closeServers(h)
			srv, tool, err := h.Pins.Trust(args[0], server)
			if err != nil {
				return err
			}
			if inv.JSON {
				return inv.PrintJSON(map[string]string{"server": srv, "tool": tool, "status": "trusted"})
			}
			fmt.Fprintf(inv.Stdout, "%s: %s: its current definition is trusted; the tool is offered again\n", termSafe(srv), termSafe(tool))
			return nil
		},
	}
}
