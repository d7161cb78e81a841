package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/host"
)

func toolsCmd() *Command {
	return &Command{
		Name:    "tools",
		Summary: "list and call the tools of every server",
		Subs:    []*Command{toolsListCmd(), toolsCallCmd(), toolsChangesCmd(), toolsTrustCmd(), toolsRejectCmd()},
	}
}

func toolsListCmd() *Command {
	var file string
	inputs := kvFlag{}
	return &Command{
		Name:    "list",
		Summary: "start the servers and list their tools as server__tool, with per-server errors",
		Flags: func(fs *flag.FlagSet) {
			configFlags(fs, &file, inputs)
		},
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) > 0 {
				return &UsageError{Cmd: inv.Path, Msg: "takes no arguments"}
			}
			h, err := startServers(ctx, inv, file, inputs)
			if err != nil {
				return err
			}
			defer closeServers(h)
			tools, errs := h.Tools.List(ctx)
			if inv.JSON {
				type tool struct {
					Name        string          `json:"name"`
					Server      string          `json:"server"`
					Description string          `json:"description"`
					InputSchema json.RawMessage `json:"inputSchema"`
				}
				out := struct {
					Tools  []tool `json:"tools"`
					Errors any    `json:"errors"`
				}{Tools: []tool{}, Errors: errs}
				if errs == nil {
					out.Errors = []any{}
				}
				for _, t := range tools {
					schema, _ := t.Schema()
					out.Tools = append(out.Tools, tool{t.Name, t.Server, t.Tool.Description, schema})
				}
				return inv.PrintJSON(out)
			}
			tw := tabwriter.NewWriter(inv.Stdout, 0, 4, 2, ' ', 0)
			for _, t := range tools {
				desc, _, _ := strings.Cut(t.Tool.Description, "\n")
				if len(desc) > 80 {
					desc = desc[:77] + "..."
				}
				fmt.Fprintf(tw, "%s\t%s\n", termSafe(t.Name), termSafe(desc))
			}
			tw.Flush()
			for _, e := range errs {
				fmt.Fprintf(inv.Stderr, "%s\n", termSafe(e.Err))
			}
			if len(tools) == 0 && len(errs) > 0 {
				return fmt.Errorf("no server could be started; see the errors above")
			}
			return nil
		},
	}
}

func toolsCallCmd() *Command {
	var file, argsJSON string
	inputs := kvFlag{}
	return &Command{
		Name:    "call",
		Args:    "NAME",
		Summary: "call one tool (server__tool) with --args JSON and print its result (an MCP task's status lines go to stderr)",
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&file, "config", "", "use this mcpServers file instead of the app config")
			fs.StringVar(&argsJSON, "args", "{}", "the tool's arguments as a JSON object")
			fs.Var(inputs, "set", "value for a VS Code ${input:ID} placeholder, as ID=VALUE (repeatable)")
		},
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) != 1 {
				return &UsageError{Cmd: inv.Path, Msg: "needs exactly one tool NAME (see 'switchboard tools list')"}
			}
			var toolArgs map[string]any
			if err := json.Unmarshal([]byte(argsJSON), &toolArgs); err != nil {
				return &UsageError{Cmd: inv.Path, Msg: fmt.Sprintf("--args must be a JSON object: %v", err)}
			}
			// Start only the server the tool belongs to (its name, sanitized, is the prefix).
			all, err := loadServers(inv, file, inputs)
			if err != nil {
				return err
			}
			owners := host.Owners(args[0], all)
			if len(owners) == 0 { // a cut or unusual name: start them all and let the router resolve it
				for _, s := range all {
					owners = append(owners, s.Name)
				}
			}
			h, err := startServers(ctx, inv, file, inputs, owners...)
			if err != nil {
				return err
			}
			defer closeServers(h)
			// A tool that runs as an MCP task says how it is going, on stderr.
			res, err := h.Tools.CallWith(ctx, args[0], toolArgs, func(u host.TaskUpdate) {
				line := "task " + u.ID + ": " + u.Status
				if u.Message != "" {
					line += ": " + u.Message
				}
				fmt.Fprintln(inv.Stderr, termSafe(line))
			})
			if err != nil {
				return err
			}
			if inv.JSON {
				if err := inv.PrintJSON(res); err != nil {
					return err
				}
			} else {
				for _, c := range res.Content {
					switch c := c.(type) {
					case mcp.TextContent:
						fmt.Fprintln(inv.Stdout, termSafe(c.Text))
					case mcp.ImageContent:
						fmt.Fprintf(inv.Stdout, "[image %s, %d bytes base64]\n", termSafe(c.MIMEType), len(c.Data))
					case mcp.AudioContent:
						fmt.Fprintf(inv.Stdout, "[audio %s, %d bytes base64]\n", termSafe(c.MIMEType), len(c.Data))
					case mcp.ResourceLink:
						fmt.Fprintf(inv.Stdout, "[resource link %s]\n", termSafe(c.URI))
					case mcp.EmbeddedResource:
						if r, ok := c.Resource.(mcp.TextResourceContents); ok {
							fmt.Fprintf(inv.Stdout, "[resource %s]\n%s\n", termSafe(r.URI), termSafe(r.Text))
						} else {
							fmt.Fprintln(inv.Stdout, "[binary resource]")
						}
					}
				}
			}
			if res.IsError {
				return fmt.Errorf("%s returned a tool error", args[0])
			}
			return nil
		},
	}
}

// toolsTrustCmd accepts a tool's changed definition (see mcpmanager/pins):
// the same decision as Accept on the window's Servers page. It starts no
// server: the changed definition was kept when it was listed.
func toolsTrustCmd() *Command {
	return toolDecisionCmd(toolDecision{
		name:    "trust",
		summary: "accept the changed (or new) definition of a withheld tool: NAME is server__tool, or the tool's own name with --server",
		decide:  func(p *host.Pins, name, server string) (string, string, error) { return p.Trust(name, server) },
		status:  "trusted",
		said:    "its current definition is trusted; the tool is offered again",
	})
}

// toolDecision is one decision on a withheld tool, as tools trust and
// tools reject each make it.
type toolDecision struct {
	name, summary string
	decide        func(p *host.Pins, name, server string) (srv, tool string, err error)
	status        string // --json's "status"
	said          string // the line after "server: tool: "
}

// toolDecisionCmd is the command that makes d on the tool NAME
// (server__tool, or the tool's own name with --server).
func toolDecisionCmd(d toolDecision) *Command {
	var server string
	return &Command{
		Name:    d.name,
		Args:    "NAME",
		Summary: d.summary,
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&server, "server", "", "the server of the tool; NAME is then the server's own tool name")
		},
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) != 1 {
				return &UsageError{Cmd: inv.Path, Msg: "needs exactly one tool NAME (the withheld tools are shown by 'switchboard tools changes')"}
			}
			h, err := openHost(inv, "")
			if err != nil {
				return err
			}
			defer closeServers(h)
			srv, tool, err := d.decide(h.Pins, args[0], server)
			if err != nil {
				return err
			}
			if inv.JSON {
				return inv.PrintJSON(map[string]string{"server": srv, "tool": tool, "status": d.status})
			}
			fmt.Fprintf(inv.Stdout, "%s: %s: %s\n", termSafe(srv), termSafe(tool), d.said)
			return nil
		},
	}
}
