package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/switchboard-app/switchboard/app/host"
)

// toolsChangesCmd shows what waits for review (see mcpmanager/pins): each
// withheld tool's diff of the trusted and the new definition and the
// hidden instructions found in the new one, so that a person decides with
// 'tools trust' or 'tools reject' from the terminal knowing what changed,
// as the window's Servers page shows it. It starts no server.
func toolsChangesCmd() *Command {
	var server string
	return &Command{
		Name:    "changes",
		Args:    "[NAME]",
		Summary: "show the withheld tools whose definition changed (or that are new) with a diff and the warnings, to review before 'tools trust' or 'tools reject'",
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&server, "server", "", "the server of the tool; NAME is then the server's own tool name")
		},
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) > 1 || (server != "" && len(args) == 0) {
				return &UsageError{Cmd: inv.Path, Msg: "takes at most one tool NAME (server__tool, or the tool's own name with --server)"}
			}
			h, err := openHost(inv, "")
			if err != nil {
				return err
			}
			defer closeServers(h)
			reviews, err := h.Pins.Review(strings.Join(args, ""), server)
			if err != nil {
				return err
			}
			if inv.JSON {
				return inv.PrintJSON(reviews)
			}
			if len(reviews) == 0 {
				fmt.Fprintln(inv.Stdout, "no tool waits for review: every tool listed is offered as you trusted it")
				return nil
			}
			for i, r := range reviews {
				if i > 0 {
					fmt.Fprintln(inv.Stdout)
				}
				printReview(inv.Stdout, r)
			}
			return nil
		},
	}
}

// printReview writes one withheld tool for the terminal: what happened,
// the diff (or the new definition), the warnings and the two ways on.
// The texts come from a server: termSafe keeps escape sequences and bidi
// overrides from acting on the terminal.
func printReview(w io.Writer, r host.ChangeReview) {
	what := "its definition changed since you trusted it"
	body := r.Diff
	if r.Old == "" {
		what = "a new tool of a server you trusted"
		body = "+ " + strings.ReplaceAll(r.New, "\n", "\n+ ") + "\n"
	}
	state := "withheld"
	if r.Rejected {
		state = "withheld (you rejected this change; it is offered again if the server changes back)"
	}
	fmt.Fprintf(w, "%s (%s: %s): %s; %s\n", termSafe(r.Name), termSafe(r.Server), termSafe(r.Tool), what, state)
	for line := range strings.Lines(body) {
		fmt.Fprint(w, "    "+termSafe(line))
	}
	for _, f := range r.Warnings {
		fmt.Fprintf(w, "  ⚠ %s (%s): %s\n", termSafe(f.Reason), termSafe(f.Where), termSafe(f.Excerpt))
	}
	fmt.Fprintf(w, "  accept: switchboard tools trust %s\n  reject: switchboard tools reject %s\n", termSafe(r.Name), termSafe(r.Name))
}

// toolsRejectCmd keeps a withheld tool's trusted definition (Reject on the
// window's Servers page): the tool stays withheld, and is offered again
// only if its server goes back to the definition you trusted.
func toolsRejectCmd() *Command {
	return toolDecisionCmd(toolDecision{
		name:    "reject",
		summary: "refuse the changed (or new) definition of a withheld tool: it stays withheld; NAME is server__tool, or the tool's own name with --server",
		decide:  func(p *host.Pins, name, server string) (string, string, error) { return p.RejectNamed(name, server) },
		status:  "rejected",
		said:    "the change is rejected; the tool stays withheld until its server goes back to the definition you trusted",
	})
}
