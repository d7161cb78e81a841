package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/app/buildinfo"
	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/gateway"
	"github.com/switchboard-app/switchboard/mcpmanager/registry"
)

// configFlags registers --config FILE and --set ID=VALUE.
func configFlags(fs *flag.FlagSet, file *string, inputs kvFlag) {
	fs.StringVar(file, "config", "", "use this mcpServers file instead of the app config")
	fs.Var(inputs, "set", "value for a VS Code ${input:ID} placeholder, as ID=VALUE (repeatable)")
}

// SettleTimeout bounds how long CLI commands wait for servers to start.
var SettleTimeout = 90 * time.Second

// startServers runs the servers of --config FILE (or the app config) until
// each is ready or has failed, and returns the manager to close.
func startServers(ctx context.Context, inv *Invocation, file string, inputs map[string]string, only ...string) (*mcpmanager.Manager, error) {
	return startServersWith(ctx, inv, file, inputs, func(m *mcpmanager.Manager) {
		// Forms servers send are asked on the terminal (never --yes here).
		m.SetRequestHandler(newTerminalRequests(inv.Stdin, inv.Stderr, false, isTTY(inv.Stdin)))
	}, only...)
}

// startServersWith is startServers with a setup hook that runs on the new
// manager before any server starts (to set a request handler). only, when
// not nil, names the servers to start.
func startServersWith(ctx context.Context, inv *Invocation, file string, inputs map[string]string, setup func(*mcpmanager.Manager), only ...string) (*mcpmanager.Manager, error) {
	servers, err := loadServers(inv, file, inputs)
	if err != nil {
		return nil, err
	}
	if only != nil { // a non-nil empty list starts none (an agent without servers)
		servers = slices.DeleteFunc(servers, func(s config.Server) bool { return !slices.Contains(only, s.Name) })
	}
	red := secrets.NewRedactor()
	store := secrets.NewStore()
	opts := mcpmanager.Options{Redact: red.Redact, Tokens: store} // OAuth tokens saved by 'servers login'

	if file == "" {
		if dir, err := inv.DataDir(); err == nil && dir.Ensure() == nil {
			opts.LogDir = dir.Logs()
		}
	}
	m := mcpmanager.New(opts)
	if setup != nil {
		setup(m)
	}
	if dir, err := inv.DataDir(); err == nil && dir.Ensure() == nil {
		for _, err := range m.AttachBuiltins(func(b builtin.Server) string { return builtinRoot(b, dir) }, builtinDefs()...) {
			fmt.Fprintf(inv.Stderr, "switchboard: built-in %v\n", err)
		}
	}
	m.Apply(secrets.Prepare(servers, store.Lookup, red))
	sctx, cancel := context.WithTimeout(ctx, SettleTimeout)
	defer cancel()
	m.WaitSettled(sctx)
	return m, nil
}

func closeServers(m *mcpmanager.Manager) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	_ = m.Close(ctx)
}

func toolsCmd() *Command {
	return &Command{
		Name:    "tools",
		Summary: "list and call the tools of every server",
		Subs:    []*Command{toolsListCmd(), toolsCallCmd()},
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
			m, err := startServers(ctx, inv, file, inputs)
			if err != nil {
				return err
			}
			defer closeServers(m)
			tools, errs := m.Registry().Tools(ctx)
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
					schema, _ := json.Marshal(t.Tool.InputSchema)
					if len(t.Tool.RawInputSchema) > 0 {
						schema = t.Tool.RawInputSchema
					}
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
		Summary: "call one tool (server__tool) with --args JSON and print its result",
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
			var owners []string
			for _, s := range all {
				if strings.HasPrefix(args[0], registry.Prefix(s.Name)) {
					owners = append(owners, s.Name)
				}
			}
			if len(owners) == 0 { // a cut or unusual name: start them all and let the registry resolve it
				for _, s := range all {
					owners = append(owners, s.Name)
				}
			}
			m, err := startServers(ctx, inv, file, inputs, owners...)
			if err != nil {
				return err
			}
			defer closeServers(m)
			res, err := m.Registry().Call(ctx, args[0], toolArgs, registry.CallOptions{})
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

func serveCmd() *Command {
	var file, httpAddr string
	var anyHost bool
	inputs := kvFlag{}
	return &Command{
		Name:    "serve",
		Summary: "serve every managed tool as one MCP server over stdio (or Streamable HTTP with --http)",
		Flags: func(fs *flag.FlagSet) {
			configFlags(fs, &file, inputs)
			fs.StringVar(&httpAddr, "http", "", "serve Streamable HTTP at ADDR (e.g. 127.0.0.1:8765) instead of stdio; needs the printed bearer token")
			fs.BoolVar(&anyHost, "listen-any", false, "with --http: allow an address that is not loopback (other machines could reach it)")
		},
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) > 0 {
				return &UsageError{Cmd: inv.Path, Msg: "takes no arguments"}
			}
			if httpAddr != "" && !gateway.LoopbackAddr(httpAddr) && !anyHost {
				return &UsageError{Cmd: inv.Path, Msg: fmt.Sprintf("--http %s is not a loopback address; use 127.0.0.1:PORT, or add --listen-any if you mean it", httpAddr)}
			}
			// stdin is the MCP stream (or nobody's): servers' forms are declined.
			m, err := startServersWith(ctx, inv, file, inputs, func(m *mcpmanager.Manager) {
				m.SetRequestHandler(newTerminalRequests(inv.Stdin, inv.Stderr, false, false))
			})
			if err != nil {
				return err
			}
			defer closeServers(m)
			g := gateway.New(m.Registry(), buildinfo.String())
			g.Refresh(ctx)
			for _, e := range g.Errors() {
				fmt.Fprintf(inv.Stderr, "switchboard serve: %s\n", termSafe(e.Err))
			}
			// Keep the published list current as servers restart or change tools.
			go func() {
				t := time.NewTicker(2 * time.Second)
				defer t.Stop()
				for {
					select {
					case <-ctx.Done():
						return
					case <-t.C:
						g.Refresh(ctx)
					}
				}
			}()
			if httpAddr != "" {
				return serveHTTP(ctx, inv, g, httpAddr)
			}
			stdio := server.NewStdioServer(g.Server())
			err = stdio.Listen(ctx, inv.Stdin, inv.Stdout)
			if ctx.Err() != nil {
				return nil
			}
			return err
		},
	}
}

// serveHTTP serves g until ctx ends. The token comes from
// SWITCHBOARD_SERVE_TOKEN or is generated and printed once.
func serveHTTP(ctx context.Context, inv *Invocation, g *gateway.Gateway, addr string) error {
	token := os.Getenv("SWITCHBOARD_SERVE_TOKEN")
	if token == "" {
		token = gateway.NewToken()
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	srv := &http.Server{Handler: g.HTTPHandler(token), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(inv.Stderr, "switchboard serve: Streamable HTTP at http://%s/mcp\nswitchboard serve: send  Authorization: Bearer %s\n", l.Addr(), token)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(l) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		return nil
	}
}
