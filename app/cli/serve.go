package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/buildinfo"
	"github.com/switchboard-app/switchboard/app/host"
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/gateway"
)

func serveCmd() *Command {
	var file, httpAddr, client string
	var anyHost, local bool
	var code codeFlag
	inputs := kvFlag{}
	return &Command{
		Name:    "serve",
		Summary: "serve every managed tool as one MCP server over stdio (or Streamable HTTP with --http)",
		Flags: func(fs *flag.FlagSet) {
			configFlags(fs, &file, inputs)
			fs.StringVar(&httpAddr, "http", "", "serve Streamable HTTP at ADDR (e.g. 127.0.0.1:8765) instead of stdio; needs the printed bearer token")
			fs.BoolVar(&anyHost, "listen-any", false, "with --http: allow an address that is not loopback (other machines could reach it)")
			clientFlag(fs, &client)
			fs.BoolVar(&local, "local", false, "run the servers in this process even when a running Switchboard shares its own (see 'switchboard daemon')")
			fs.Var(&code, "code", "code mode: offer list_functions, describe_function and run_script instead of the tools (--code=both: besides them; --code=false: the tools only); each call a script makes is decided by your approval settings, an \"ask\" goes to the client as an elicitation or is refused. Without it, settings.serve.tools chooses (Settings → Chat → Code mode), for the running Switchboard's attached apps too; with it, serve runs its own servers")
		},
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) > 0 {
				return &UsageError{Cmd: inv.Path, Msg: "takes no arguments"}
			}
			if httpAddr != "" && !gateway.LoopbackAddr(httpAddr) && !anyHost {
				return &UsageError{Cmd: inv.Path, Msg: fmt.Sprintf("--http %s is not a loopback address; use 127.0.0.1:PORT, or add --listen-any if you mean it", httpAddr)}
			}
			in, out := inv.Stdin, inv.Stdout
			if httpAddr == "" && file == "" && len(inputs) == 0 && !local && !code.set {
				// A running Switchboard (the window, 'switchboard daemon')
				// shares its servers: relay to it instead of starting them.
				// It offers them in the code mode of settings.serve.
				var done bool
				var err error
				if in, out, done, err = attachRunning(ctx, inv, client); done {
					return err
				}
			}
			// Servers' sampling and elicitation go to the client whose call
			// caused them when it takes them; otherwise they are declined
			// (stdin is the MCP stream, or nobody's). One the gateway cannot
			// tie to a single call, or past its cap, fails with its error.
			// Serve at once: tools appear as their servers become ready.
			passOn := &gatewayRequests{fallback: newTerminalRequests(inv.Stdin, inv.Stderr, false, false)}
			only, err := servingClient(inv, client)
			if err != nil {
				return err
			}
			h, err := launch(inv, file, inputs, func(h *host.Host) {
				h.Servers.HandleRequests(passOn)
			}, only...)
			if err != nil {
				return err
			}
			defer closeServers(h)
			// The app's calls are counted as the running Switchboard
			// counts an attached app's: each one routed to a server.
			var calls atomic.Int64
			opts := gateway.Options{Version: buildinfo.String(), OnCall: func(gateway.Call) { calls.Add(1) }}
			cm, err := h.Settings.ServeCode() // settings.serve.tools, its limits and decisions
			switch {
			case err != nil && code.set && code.mode != gateway.CodeOff:
				return err
			case err != nil && !code.set:
				fmt.Fprintf(inv.Stderr, "switchboard serve: %s; serving the tools as they are\n", termSafe(err.Error()))
			}
			if code.set {
				cm.Mode = code.mode
			}
			opts.Code, opts.CodeLimits, opts.Decide = cm.Mode, cm.Limits, cm.Decide
			g := h.Tools.Gateway(opts)
			passOn.g.Store(g)
			if client != "" {
				defer func() { _ = h.Clients.AddCalls(client, calls.Load()) }()
			}
			ctx, cancel := context.WithCancel(ctx)
			var bg sync.WaitGroup
			defer bg.Wait()
			defer cancel()
			bg.Go(func() { g.Watch(ctx) }) // republish on every change the router signals
			skillsChanged := make(chan struct{}, 1)
			bg.Go(func() { // the skills on this computer republished (their SKILL.md resources) as they change
				for {
					select {
					case <-ctx.Done():
						return
					case <-skillsChanged:
						g.Refresh(ctx)
					}
				}
			})
			onSkills := func() {
				select {
				case skillsChanged <- struct{}{}:
				default:
				}
			}
			if err := h.LocalSkills.Watch(ctx, onSkills); err != nil { // the skills on this computer, found again as they change
				fmt.Fprintf(inv.Stderr, "switchboard: the skills folders are not watched (%v); changes are found within a second of a request\n", err)
			}
			bg.Go(func() {
				// Say once which servers did not start, when all have settled.
				sctx, scancel := context.WithTimeout(ctx, SettleTimeout)
				h.Servers.Settle(sctx)
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
			return g.ServeStdio(ctx, in, out)
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
// whose call caused them gets them when it declared the capability;
// when none does (gateway.ErrNoClient), fallback answers (declines).
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

// codeFlag is serve's --code: set when given, mode gateway.CodeOnly
// (--code), CodeBoth (--code=both) or CodeOff (--code=false).
type codeFlag struct {
	mode string
	set  bool
}

func (c *codeFlag) String() string   { return c.mode }
func (c *codeFlag) IsBoolFlag() bool { return true }
func (c *codeFlag) Set(v string) error {
	switch v {
	case "true", gateway.CodeOnly:
		c.mode = gateway.CodeOnly
	case gateway.CodeBoth:
		c.mode = gateway.CodeBoth
	case "false", "off", "direct":
		c.mode = gateway.CodeOff
	default:
		return fmt.Errorf("--code=%s: write --code (code mode instead of the tools), --code=both (besides them) or --code=false (the tools only)", v)
	}
	c.set = true
	return nil
}
