package cli

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/switchboard-app/switchboard/app/buildinfo"
)

// daemonCmd keeps Switchboard running without a window: the servers of
// config.json (followed, as the window follows it) run once and every
// app's 'switchboard serve' attaches to them over the local socket.
func daemonCmd() *Command {
	return &Command{
		Name:    "daemon",
		Summary: "keep Switchboard running without a window: run the servers once and share them with every app's 'switchboard serve'",
		Flags:   func(*flag.FlagSet) {},
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) > 0 {
				return &UsageError{Cmd: inv.Path, Msg: "takes no arguments"}
			}
			h, err := openHost(inv, "")
			if err != nil {
				return err
			}
			defer closeServers(h)
			// Before any server starts: they offer sampling and elicitation,
			// which go to the app whose call caused them (or are declined).
			if err := h.Shared.Start(ctx); err != nil {
				return fmt.Errorf("share the servers: %w; quit the other Switchboard first, or let the apps use it", err)
			}
			h.Servers.StartBuiltins()
			if err := h.Servers.Follow(func(err error) {
				if err != nil {
					fmt.Fprintf(inv.Stderr, "switchboard daemon: config.json: %s\n", termSafe(err.Error()))
				}
			}); err != nil {
				fmt.Fprintf(inv.Stderr, "switchboard daemon: config.json: %s (fix it: the servers start once it loads)\n", termSafe(err.Error()))
			}
			addr, _ := h.Shared.Listening()
			fmt.Fprintf(inv.Stderr, "switchboard daemon %s (pid %d): sharing the servers of %s at %s; stop it with Ctrl-C\n", buildinfo.String(), os.Getpid(), h.Dir(), addr)
			<-ctx.Done()
			fmt.Fprintln(inv.Stderr, "switchboard daemon: stopping; attached apps run their servers themselves from now on")
			return nil
		},
	}
}
