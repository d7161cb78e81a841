package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/switchboard-app/switchboard/app/host"
)

func registryCmd() *Command {
	return &Command{
		Name:    "registry",
		Summary: "search the MCP Registry and add its servers",
		Subs:    []*Command{registrySearchCmd(), registryAddCmd()},
	}
}

func registrySearchCmd() *Command {
	var url string
	var all bool
	return &Command{
		Name:    "search",
		Args:    "[QUERY] [--registry URL] [--all]",
		Summary: "list the registry's servers matching QUERY (one page; --all follows every page)",
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&url, "registry", "", "registry URL (default: Settings → registry, else the official MCP Registry)")
			fs.BoolVar(&all, "all", false, "follow nextCursor through every page")
		},
		Run: func(_ context.Context, inv *Invocation, args []string) error {
			if len(args) > 1 {
				return &UsageError{Cmd: inv.Path, Msg: "give at most one QUERY (quote several words)"}
			}
			query := strings.Join(args, " ")
			h, err := openHost(inv, "")
			if err != nil {
				return err
			}
			defer closeServers(h)
			// stop is why --all ended early (a limit, a cancel): printed
			// after what it listed, and the exit status.
			l, stop := h.MCPRegistry.Search(inv.Context(), host.RegistrySearch{URL: url, Query: query, All: all})
			if stop != nil && (!all || len(l.Servers) == 0) {
				return stop
			}
			servers := l.Servers
			if l.NextCursor != "" && !inv.JSON {
				defer fmt.Fprintf(inv.Stderr, "more servers: run again with --all\n")
			}
			if l.Stale {
				why, detail, _ := strings.Cut(l.Why, "\n")
				fmt.Fprintf(inv.Stderr, "%s Showing the listing fetched %s ago.\n", termSafe(why), host.Ago(time.Since(l.FetchedAt)))
				if detail != "" {
					fmt.Fprintln(inv.Stderr, "  "+termSafe(detail))
				}
			}
			if inv.JSON {
				if err := inv.PrintJSON(servers); err != nil {
					return err
				}
				return stop
			}
			var rows [][]string
			for _, s := range servers {
				var kinds []string
				for _, o := range s.Options {
					kinds = append(kinds, strings.Fields(o.Label)[0])
				}
				rows = append(rows, []string{s.Name, s.Version, strings.Join(kinds, ","), s.Description})
			}
			if err := inv.Table("no servers match", []string{"NAME", "VERSION", "KINDS", "DESCRIPTION"}, rows); err != nil {
				return err
			}
			return stop
		},
	}
}

func registryAddCmd() *Command {
	var url string
	var option int
	values := kvFlag{}
	return &Command{
		Name:    "add",
		Args:    "NAME [--registry URL] [--set VAR=VALUE ...] [--option N]",
		Summary: "add a registry server as an entry (versions pinned; secret values to the keyring)",
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&url, "registry", "", "registry URL (default: Settings → registry, else the official MCP Registry)")
			fs.Var(values, "set", "a value it asks for: environment variable, header or URL variable VAR=VALUE (repeatable)")
			fs.IntVar(&option, "option", 0, "which package or remote to use when it offers several (0 is the first)")
		},
		Run: func(_ context.Context, inv *Invocation, args []string) error {
			if len(args) != 1 {
				return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME ('switchboard registry search' lists them)"}
			}
			h, err := openHost(inv, "")
			if err != nil {
				return err
			}
			defer closeServers(h)
			name, err := h.MCPRegistry.Add(inv.Context(), host.RegistryPick{URL: url, Name: args[0], Option: option, Values: values})
			if errors.Is(err, host.ErrRegistryMissing) || errors.Is(err, host.ErrRegistryNotFound) || errors.Is(err, host.ErrRegistryUnsupported) {
				return &ValidationError{Err: err}
			}
			if err != nil {
				return bundleErr(err)
			}
			s, _ := h.Servers.Get(name)
			fmt.Fprintf(inv.Stdout, "added %s: %s\n", termSafe(name), termSafe(s.Target()))
			return nil
		},
	}
}
