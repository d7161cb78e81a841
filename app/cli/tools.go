package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/buildinfo"
	"github.com/switchboard-app/switchboard/app/host"
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
// each is ready or has failed, and returns the host to close.
func startServers(ctx context.Context, inv *Invocation, file string, inputs map[string]string, only ...string) (*host.Host, error) {
	return startServersWith(ctx, inv, file, inputs, func(h *host.Host) {
		// Forms servers send are asked on the terminal (never --yes here).
		h.Manager().SetRequestHandler(newTerminalRequests(inv.Stdin, inv.Stderr, false, isTTY(inv.Stdin)))
	}, only...)
}

// openHost opens the data directory's host (the same core the window
// runs), keeping servers' logs in memory for a --config file.
func openHost(inv *Invocation, file string) (*host.Host, error) {
	dir, err := inv.DataDir()
	if err != nil {
		return nil, err
	}
	if err := dir.Ensure(); err != nil {
		return nil, err
	}
	return host.Open(host.Options{Context: inv.Context(), Dir: dir, NoLogFiles: file != ""}), nil
}

// startServersWith is startServers with a setup hook that runs on the new
// host before any server starts (to set a request handler). only, when
// not nil, names the servers to start.
func startServersWith(ctx context.Context, inv *Invocation, file string, inputs map[string]string, setup func(*host.Host), only ...string) (*host.Host, error) {
	h, err := launch(inv, file, inputs, setup, only...)
	if err != nil {
		return nil, err
	}
	settle(ctx, h)
	return h, nil
}

// settle waits until every server started is ready or has failed, at most
// SettleTimeout.
func settle(ctx context.Context, h *host.Host) {
	sctx, cancel := context.WithTimeout(ctx, SettleTimeout)
	defer cancel()
	h.Manager().WaitSettled(sctx)
}

// launch starts the built-ins (workspace in settings.workspace.root, as in
// the window) and the servers of --config FILE or the app config, without
// waiting for them.
func launch(inv *Invocation, file string, inputs map[string]string, setup func(*host.Host), only ...string) (*host.Host, error) {
	servers, err := loadServers(inv, file, inputs)
	if err != nil {
		return nil, err
	}
	h, err := openHost(inv, file)
	if err != nil {
		return nil, err
	}
	if setup != nil {
		setup(h)
	}
	start(h, servers, only)
	return h, nil
}

// start runs the built-ins and servers (only those named in only, when it
// is not nil: a non-nil empty list starts none, an agent without servers).
func start(h *host.Host, servers []config.Server, only []string) {
	if only != nil {
		servers = slices.DeleteFunc(servers, func(s config.Server) bool { return !slices.Contains(only, s.Name) })
	}
	h.StartBuiltins()
	h.Run(servers)
}

func closeServers(h *host.Host) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	_ = h.Close(ctx)
}

func toolsCmd() *Command {
	return &Command{
		Name:    "tools",
		Summary: "list and call the tools of every server",
		Subs:    []*Command{toolsListCmd(), toolsCallCmd(), toolsTrustCmd()},
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
			tools, errs := h.Registry().Tools(ctx)
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
			h, err := startServers(ctx, inv, file, inputs, owners...)
			if err != nil {
				return err
			}
			defer closeServers(h)
			// A tool that runs as an MCP task says how it is going, on stderr.
			res, err := host.CallWith(ctx, h, args[0], toolArgs, registry.CallOptions{OnTask: func(u registry.TaskUpdate) {
				line := "task " + u.ID + ": " + u.Status
				if u.Message != "" {
					line += ": " + u.Message
				}
				fmt.Fprintln(inv.Stderr, termSafe(line))
			}})
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
			// Servers' sampling and elicitation go to the connected client
			// when it takes them; otherwise they are declined (stdin is the
			// MCP stream, or nobody's).
			// Serve at once: tools appear as their servers become ready.
			passOn := &gatewayRequests{fallback: newTerminalRequests(inv.Stdin, inv.Stderr, false, false)}
			h, err := launch(inv, file, inputs, func(h *host.Host) {
				h.Manager().SetRequestHandler(passOn)
			})
			if err != nil {
				return err
			}
			defer closeServers(h)
			g := gateway.New(h.Registry(), gateway.Options{Version: buildinfo.String(), Settled: h.Manager().WaitSettled})
			passOn.g.Store(g)
			ctx, cancel := context.WithCancel(ctx)
			var bg sync.WaitGroup
			defer bg.Wait()
			defer cancel()
			bg.Go(func() { g.Watch(ctx) }) // republish on every change the registry signals
			bg.Go(func() {
				// Say once which servers did not start, when all have settled.
				sctx, scancel := context.WithTimeout(ctx, SettleTimeout)
				h.Manager().WaitSettled(sctx)
				scancel()
				if ctx.Err() != nil {
					return
				}
				g.Refresh(ctx)
				for _, e := range g.Errors() {
					fmt.Fprintf(inv.Stderr, "switchboard serve: %s\n", termSafe(e.Err))
				}
			})
			if httpAddr != "" {
				return serveHTTP(ctx, inv, g, httpAddr)
			}
			return g.ServeStdio(ctx, inv.Stdin, inv.Stdout)
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

// gatewayRequests answers servers' requests during 'serve': the client
// connected to the gateway gets them when it declared the capability;
// otherwise fallback answers (declines).
type gatewayRequests struct {
	g        atomic.Pointer[gateway.Gateway]
	fallback mcpmanager.RequestHandler
}

func (r *gatewayRequests) CreateMessage(ctx context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	if g := r.g.Load(); g != nil {
		res, err := g.CreateMessage(ctx, server, req)
		if !errors.Is(err, gateway.ErrNoClient) {
			return res, err
		}
	}
	return r.fallback.CreateMessage(ctx, server, req)
}

func (r *gatewayRequests) Elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	if g := r.g.Load(); g != nil {
		res, err := g.Elicit(ctx, server, req)
		if !errors.Is(err, gateway.ErrNoClient) {
			return res, err
		}
	}
	return r.fallback.Elicit(ctx, server, req)
}
