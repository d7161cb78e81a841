package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/switchboard-app/switchboard/app/host"
)

// serversSkillsCmd lists a server's skills (the skills extension), or
// switches one on or off for every chat.
func serversSkillsCmd() *Command {
	var file, on, off string
	inputs := kvFlag{}
	return &Command{
		Name: "skills",
		Args: "NAME",
		Summary: "start one server and list its skills (name, size, on or off; none are read), " +
			"or switch one on or off for the chats with --on SKILL / --off SKILL",
		Flags: func(fs *flag.FlagSet) {
			configFlags(fs, &file, inputs)
			fs.StringVar(&on, "on", "", "switch this skill of the server on for the chats")
			fs.StringVar(&off, "off", "", "switch this skill of the server off for the chats")
		},
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) != 1 {
				return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME"}
			}
			if on != "" && off != "" {
				return &UsageError{Cmd: inv.Path, Msg: "give --on or --off, not both"}
			}
			name := args[0]
			h, err := startServers(ctx, inv, file, inputs, name)
			if err != nil {
				return err
			}
			defer closeServers(h)
			if _, ok := h.Servers.StatusOf(name); !ok {
				return &ValidationError{Err: fmt.Errorf("no server named %q; see 'switchboard servers list'", name)}
			}
			if skill := on + off; skill != "" {
				if err := h.Skills.SetOn(ctx, name, skill, on != ""); err != nil {
					if errors.Is(err, host.ErrNoSuchSkill) {
						return &ValidationError{Err: err}
					}
					return err
				}
				state := map[bool]string{true: "on", false: "off"}[on != ""]
				_, err := fmt.Fprintf(inv.Stdout, "%s: skill %s is %s for the chats\n", name, skill, state)
				return err
			}
			list, err := h.Skills.Server(ctx, name)
			if err != nil {
				return err
			}
			if inv.JSON {
				return inv.PrintJSON(list)
			}
			if !list.Offered {
				if st := serverState(h, name); st != "" {
					return fmt.Errorf("%s: %s; see 'switchboard servers test %s'", name, st, name)
				}
				_, err := fmt.Fprintf(inv.Stdout, "%s offers no skills (it does not declare the io.modelcontextprotocol/skills extension)\n", name)
				return err
			}
			rows := [][]string{}
			for _, s := range list.Skills {
				size := fmt.Sprintf("%s in %d files", bytesText(s.Size), s.Files)
				if s.Dynamic {
					size = "dynamic"
				}
				rows = append(rows, []string{termSafe(s.Name), map[bool]string{true: "on", false: "off"}[s.On], size, termSafe(s.Description)})
			}
			if err := inv.Table(name+" lists no skills", []string{"SKILL", "STATE", "SIZE", "DESCRIPTION"}, rows); err != nil {
				return err
			}
			for _, why := range list.Invalid {
				fmt.Fprintf(inv.Stderr, "%s: left out a skill that breaks the extension's rules: %s\n", name, termSafe(why))
			}
			return nil
		},
	}
}

// serverState is why server is not ready ("" when it is, or unknown).
func serverState(h *host.Host, server string) string {
	if st, ok := h.Servers.StatusOf(server); ok && st.State != host.ServerReady {
		return strings.TrimSpace(fmt.Sprintf("server is %s %s", st.State, firstLine(st.Error)))
	}
	return ""
}

// bytesText is a size in bytes for people.
func bytesText(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}
