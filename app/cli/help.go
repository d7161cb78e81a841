package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// writeHelp prints the usage of cmd, generated from the command tree.
func writeHelp(w io.Writer, path string, cmd *Command) {
	var b strings.Builder
	if len(cmd.Subs) > 0 {
		fmt.Fprintf(&b, "usage: %s [--data-dir DIR] [--json] COMMAND ...\n", path)
	} else {
		fmt.Fprintln(&b, strings.TrimSpace(fmt.Sprintf("usage: %s [flags] %s", path, cmd.Args)))
	}
	if cmd.Summary != "" {
		fmt.Fprintf(&b, "\n%s%s.\n", strings.ToUpper(cmd.Summary[:1]), cmd.Summary[1:])
	}
	if path == "switchboard" {
		b.WriteString("\nWith no command, switchboard opens the app window; 'switchboard FILE.mcpb' opens it with\na bundle. When it already runs (same user and data dir), that window comes to the front\nand gets the file, and this launch exits.\n")
	}
	if len(cmd.Subs) > 0 {
		b.WriteString("\nCommands:\n")
		tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
		for _, c := range cmd.Subs {
			fmt.Fprintf(tw, "  %s\t%s\n", strings.TrimSpace(c.Name+" "+c.Args), c.Summary)
		}
		tw.Flush()
	}
	b.WriteString("\nFlags:\n")
	var g Globals
	fs := newFlagSet(path, &g, cmd, io.Discard)
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(tw, "  --%s\t%s\n", strings.TrimSpace(f.Name+" "+name), usage)
	})
	tw.Flush()
	if len(cmd.Subs) > 0 {
		fmt.Fprintf(&b, "\nRun '%s help COMMAND' for a command's flags.\n", path)
		b.WriteString("Exit codes: 0 success, 1 runtime error, 2 usage or validation error.\n")
	}
	_, _ = io.WriteString(w, b.String()) // help on a terminal: nothing to do if it fails
}

// usageLine is the one-line synopsis printed under a usage error.
func usageLine(path string) string {
	cmd, p := root(), "switchboard"
	for _, n := range strings.Fields(path)[1:] {
		for _, c := range cmd.Subs {
			if c.Name == n {
				cmd, p = c, p+" "+n
			}
		}
	}
	if len(cmd.Subs) > 0 {
		return fmt.Sprintf("usage: %s [--data-dir DIR] [--json] COMMAND ... (commands: %s)", p, subNames(cmd))
	}
	return strings.TrimSpace(fmt.Sprintf("usage: %s [flags] %s", p, cmd.Args))
}
