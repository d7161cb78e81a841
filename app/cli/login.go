package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"

	"github.com/switchboard-app/switchboard/app/host"
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
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
			h := host.Open(host.Options{Context: inv.Context(), Dir: dir, NoLogFiles: file != "",
				OnLoginURL: func(server, u string) {
					fmt.Fprintf(inv.Stderr, "Opening your browser to log in to %s. If it does not open, visit:\n  %s\n", server, termSafe(u))
				},
			})
			defer closeServers(h)
			if err := h.Secrets().Available(); err != nil {
				return fmt.Errorf("%s: the tokens could not be kept: %w", name, err)
			}
			h.Run(servers[i : i+1])
			m := h.Manager()
			if err := m.Login(ctx, name); err != nil {
				if errors.Is(err, context.Canceled) {
					return fmt.Errorf("%s: login cancelled", name)
				}
				return err
			}
			sctx, cancel := context.WithTimeout(ctx, SettleTimeout)
			defer cancel()
			m.WaitSettled(sctx)
			st := statusOf(m, name)
			if st.State != supervisor.Ready {
				return fmt.Errorf("logged in, but %s", st.Error)
			}
			tools, err := m.Registry().ServerTools(ctx, name)
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

func statusOf(m *mcpmanager.Manager, name string) supervisor.Status {
	for _, st := range m.Status() {
		if st.Name == name {
			return st
		}
	}
	return supervisor.Status{Name: name}
}
