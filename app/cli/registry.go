package cli

import (
	"context"
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
			if host.RegistryRefused(stop) {
				return &ValidationError{Err: stop} // the registry address: the user's to change
			}
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
				version := s.Version
				if s.Status == "deprecated" || s.Status == "deleted" {
					version += " (" + s.Status + ")" // deprecated: added with a warning; deleted: refused
				}
				rows = append(rows, []string{s.Name, version, strings.Join(kinds, ","), s.Description})
			}
			if err := inv.Table("no servers match", []string{"NAME", "VERSION", "KINDS", "DESCRIPTION"}, rows); err != nil {
				return err
			}
			return stop
		},
	}
}

func registryAddCmd() *Command {
	var url, name string
	var option int
	values := onceKV{}
	return &Command{
		Name:    "add",
		Args:    "NAME [--registry URL] [--set KEY=VALUE ...] [--option N] [--name ENTRY]",
		Summary: "add a registry server as an entry (versions pinned; secret values to the keyring)",
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&url, "registry", "", "registry URL (default: Settings → registry, else the official MCP Registry)")
			fs.Var(values, "set", "a value it takes, required or optional: environment variable, header, argument (its valueHint, or its name without dashes) or {variable} KEY=VALUE; an mcpb package's user_config key (repeatable)")
			fs.IntVar(&option, "option", 0, "which package or remote to use when it offers several (0 is the first)")
			fs.StringVar(&name, "name", "", "the name to add it under (default: the last part of NAME; an mcpb package takes its bundle's name)")
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
			added, err := h.MCPRegistry.Add(inv.Context(), host.RegistryPick{URL: url, Name: args[0], Option: option, Values: values, EntryName: name})
			if missing := host.RegistryMissing(err); missing != nil {
				var how []string
				for _, m := range missing {
					how = append(how, "--set "+m.Key+"=VALUE")
				}
				return &ValidationError{Err: fmt.Errorf("%w; give it with %s", err, strings.Join(how, " "))}
			}
			if host.RegistryRefused(err) {
				return &ValidationError{Err: err}
			}
			if err != nil {
				return bundleErr(err)
			}
			if added.Warning != "" {
				fmt.Fprintf(inv.Stderr, "warning: %s\n", termSafe(added.Warning))
			}
			s, _ := h.Servers.Get(added.Name)
			fmt.Fprintf(inv.Stdout, "added %s: %s\n", termSafe(added.Name), termSafe(s.Target()))
			return nil
		},
	}
}

// onceKV is kvFlag refusing a key given twice: each value a server.json
// asks for takes one, and keeping only the last would drop the others
// without a word (--set directory=A --set directory=B ran with B alone).
type onceKV map[string]string

func (k onceKV) String() string { return "" }
func (k onceKV) Set(v string) error {
	key, _, _ := strings.Cut(v, "=")
	if _, dup := k[key]; dup && key != "" {
		return fmt.Errorf("%s is given twice: each value takes one, so give it once", key)
	}
	return kvFlag(k).Set(v)
}
