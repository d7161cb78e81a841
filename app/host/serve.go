package host

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/buildinfo"
	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/mcpmanager/bridge"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/gateway"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// Serve is 'switchboard serve': every running server's tools, prompts,
// resources and skills as one MCP server, over stdio (Stdio) or
// Streamable HTTP on loopback (HTTP), for one MCP client app. The window
// shares its servers another way (Shared); an app's serve attached to it
// relays bytes and never comes here.
type Serve struct {
	h *Host
	// relay takes the servers' sampling and elicitation (see Relay).
	relay serveRelay
	// release starts the servers HoldServers held (nil: none held).
	release func()
}

// HoldFor bounds how long HoldServers holds servers back when no client
// lists tools. A variable so tests can change it.
var HoldFor = time.Second

// HoldServers makes the servers the next Run starts whose tools are known
// from their last run start only once serve has answered its client's
// first tools/list (or after HoldFor): the client gets those tools at
// once, without their processes taking the CPU that answer needs. Call it
// before the servers start.
func (s *Serve) HoldServers() {
	held := make(chan struct{})
	var once sync.Once
	s.release = func() { once.Do(func() { close(held) }) }
	time.AfterFunc(HoldFor, s.release)
	s.h.mgr.HoldRecalled(held)
}

// Follow keeps the servers serve runs as config.json says, as the window
// and the daemon do (Servers.Follow): whenever another process changes it
// ('switchboard servers disable', the window, an editor), the servers it
// adds, removes, switches off or changes are started, stopped or
// restarted, the others left running, and serve's client hears of it as
// tools (prompts, resources) list_changed. client, when not "", is the app
// served ('serve --client'): only the servers chosen for it run, as at the
// start. warn hears of a file that does not load (the servers keep running
// as they were) and of a server left out. Call it once the servers run
// (launched from config.json, not a --config file); following ends at
// Close.
func (s *Serve) Follow(client string, warn func(error)) {
	h := s.h
	said := map[string]bool{} // a server left out is told once, not at every change
	since, err := config.StampOf(h.dir.Config())
	if err == nil {
		// What changed since the servers were read for the start; what
		// was left out then was told then.
		var skipped []error
		skipped, err = s.follow(client)
		for _, e := range skipped {
			said[e.Error()] = true
		}
	}
	if err != nil {
		warn(err)
	}
	h.wg.Go(func() {
		config.Watch(h.ctx, h.dir.Config(), since, func(_ *config.Config, err error) {
			var skipped []error
			if err == nil {
				skipped, err = s.follow(client)
			}
			for _, e := range skipped {
				if !said[e.Error()] {
					said[e.Error()] = true
					warn(e)
				}
			}
			if err != nil {
				warn(err)
			}
		})
	})
}

// follow runs config.json's servers as serve starts them: the runnable
// ones (skipped: those left out, and why), only those chosen for client
// when a choice was made for it. The choice is read without recording a
// connection (Clients.Serving writes config.json, which would be seen as
// a change again).
func (s *Serve) follow(client string) (skipped []error, err error) {
	servers, skipped, err := s.h.Servers.Runnable()
	if err != nil {
		return nil, err
	}
	if client != "" {
		cfg, err := s.h.readConfig()
		if err != nil {
			return skipped, err
		}
		states, err := clientsSection.Get(cfg)
		if err != nil {
			return skipped, err
		}
		if only := states[client].Servers; len(only) > 0 {
			servers = slices.DeleteFunc(servers, func(srv Server) bool { return !slices.Contains(only, srv.Name) })
		}
	}
	s.h.Servers.Run(servers)
	return skipped, nil
}

// AddressRefused is, for an Attach error, why the address file the
// running Switchboard leaves in the data dir was not followed (another
// user's, a link, others may write to it: see bridge.Dial), or "" when
// it was not refused. 'serve' says it when it runs the servers itself.
func AddressRefused(err error) string {
	if refused := (*bridge.Error)(nil); errors.As(err, &refused) && refused.Op == "check" {
		return refused.Error()
	}
	return ""
}

// Relay makes the servers' sampling and elicitation requests go to the
// client whose call caused them, when it declared the capability, and
// to fallback otherwise (or before serving starts). Call it before the
// servers start, so no request finds nobody to answer it.
func (s *Serve) Relay(fallback RequestHandler) {
	s.relay.fallback = fallback
	s.h.Servers.HandleRequests(&s.relay)
}

// Stdio serves r's client on in and out until in ends (then, after the
// answers in flight, at most gateway.DrainTimeout) or ctx does.
func (s *Serve) Stdio(ctx context.Context, in io.Reader, out io.Writer, r ServeRequest) error {
	g, stop, err := s.start(ctx, r)
	if err != nil {
		return err
	}
	defer stop()
	return g.ServeStdio(ctx, in, out)
}

// HTTP serves Streamable HTTP at r.Addr (http://ADDR/mcp) until ctx
// ends; every request must send "Authorization: Bearer TOKEN" (r.Token)
// and come from this computer's own origin. An address that is not
// loopback is refused with ErrNotLoopback unless r.AnyHost.
func (s *Serve) HTTP(ctx context.Context, r ServeRequest) error {
	if err := CheckServeAddr(r.Addr, r.AnyHost); err != nil {
		return err
	}
	if r.Token == "" {
		return errors.New("serve over HTTP needs a bearer token")
	}
	l, err := net.Listen("tcp", r.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", r.Addr, err)
	}
	g, stop, err := s.start(ctx, r)
	if err != nil {
		_ = l.Close()
		return err
	}
	defer stop()
	if r.Listening != nil {
		r.Listening(l.Addr())
	}
	// ConnContext: a 2026-07-28 client's calls on one connection are one
	// caller's, whose servers' questions are its own (gateway.ConnContext).
	srv := &http.Server{Handler: g.HTTPHandler(r.Token), ReadHeaderTimeout: 10 * time.Second, ConnContext: gateway.ConnContext}
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

// CheckServeAddr refuses, with ErrNotLoopback, an HTTP address for serve
// that other machines could reach, unless anyHost says they may.
func CheckServeAddr(addr string, anyHost bool) error {
	if !anyHost && !gateway.LoopbackAddr(addr) {
		return fmt.Errorf("--http %s %w", addr, ErrNotLoopback)
	}
	return nil
}

// NewServeToken returns a random bearer token for HTTP.
func NewServeToken() string { return gateway.NewToken() }

// start makes the gateway of r and keeps it current: republished on every
// change the router signals and as the skills on this computer change,
// with one report of the servers that did not start once all settled.
// stop ends that work and records the client's calls.
func (s *Serve) start(ctx context.Context, r ServeRequest) (*gateway.Gateway, func(), error) {
	warn := func(msg string) {
		if r.Warn != nil {
			r.Warn(msg)
		}
	}
	var calls atomic.Int64
	opts := gateway.Options{Version: buildinfo.String(), OnCall: func(gateway.Call) { calls.Add(1) }, ToolsAnswered: s.release}
	cm, err := s.h.Settings.serveCode() // settings.serve.tools, its limits and decisions
	switch {
	case err != nil && r.Code != "" && r.Code != chat.ToolsDirect:
		return nil, nil, err // a script needs the limits and the rules
	case err != nil && r.Code == "":
		warn(err.Error() + "; serving the tools as they are")
	}
	if r.Code != "" {
		if err := chat.ValidToolMode(r.Code); err != nil {
			return nil, nil, err
		}
		cm.Mode = codeModeOf(r.Code)
	}
	opts.Code, opts.CodeLimits, opts.Decide = cm.Mode, cm.Limits, cm.Decide
	g := s.h.Tools.gateway(opts)
	s.relay.g.Store(g)

	ctx, cancel := context.WithCancel(ctx)
	var bg sync.WaitGroup
	bg.Go(func() { g.Watch(ctx) })
	skillsChanged := make(chan struct{}, 1)
	bg.Go(func() {
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
	if err := s.h.LocalSkills.Watch(ctx, onSkills); err != nil {
		warn(fmt.Sprintf("the skills folders are not watched (%v); changes are found within a second of a request", err))
	}
	bg.Go(func() {
		sctx, scancel := context.WithTimeout(ctx, cmp.Or(r.SettleWait, time.Minute))
		s.h.Servers.Settle(sctx)
		scancel()
		if ctx.Err() != nil {
			return
		}
		g.Refresh(ctx)
		for _, e := range g.Errors() {
			if st, ok := s.h.Servers.StatusOf(e.Server); ok && st.State == supervisor.Disabled {
				continue // switched off by the user: nothing to warn of
			}
			warn(e.Err)
		}
	})
	stop := func() {
		cancel()
		bg.Wait()
		if r.Client != "" {
			_ = s.h.Clients.AddCalls(r.Client, calls.Load())
		}
	}
	return g, stop, nil
}

// serveRelay answers servers' requests during serve: the gateway's
// client whose call caused them gets them when it declared the
// capability; when none does (gateway.ErrNoClient), fallback answers.
type serveRelay struct {
	g        atomic.Pointer[gateway.Gateway]
	fallback RequestHandler
}

var _ RequestHandler = (*serveRelay)(nil)

func (r *serveRelay) CreateMessage(ctx context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	if g := r.g.Load(); g != nil {
		res, err := g.CreateMessage(ctx, server, req)
		if !errors.Is(err, gateway.ErrNoClient) {
			return res, err
		}
	}
	return r.fallback.CreateMessage(ctx, server, req)
}

func (r *serveRelay) Elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	if g := r.g.Load(); g != nil {
		res, err := g.Elicit(ctx, server, req)
		if !errors.Is(err, gateway.ErrNoClient) {
			return res, err
		}
	}
	return r.fallback.Elicit(ctx, server, req)
}
