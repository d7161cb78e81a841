package cli

import (
	"context"
	"flag"
	"fmt"
	"slices"

	"github.com/switchboard-app/switchboard/app/host"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

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
			i := slices.IndexFunc(servers, func(s config.Server) bool { return s.Name == name })
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
