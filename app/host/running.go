package host

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/gateway"
	"github.com/switchboard-app/switchboard/mcpmanager/library"
	"github.com/switchboard-app/switchboard/mcpmanager/serverlog"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// Timeouts of the use cases below; package vars so tests can shorten them.
var (
	// TestTimeout bounds a test connection.
	TestTimeout = 2 * time.Minute
	// LoginSettleTimeout bounds how long Login waits for the server to be
	// ready again once the login succeeded.
	LoginSettleTimeout = time.Minute
)

// Status is every server's state, configured and built-in.
func (s *Servers) Status() []supervisor.Status { return s.h.mgr.Status() }

// StatusOf is one server's state; false when no such server runs.
func (s *Servers) StatusOf(name string) (supervisor.Status, bool) {
	for _, st := range s.h.mgr.Status() {
		if st.Name == name {
			return st, true
		}
	}
	return supervisor.Status{Name: name}, false
}

// Restart stops and starts one server.
func (s *Servers) Restart(ctx context.Context, name string) error { return s.h.mgr.Restart(ctx, name) }

// Settle waits until every server started is ready or has failed, or ctx
// ends.
func (s *Servers) Settle(ctx context.Context) { s.h.mgr.WaitSettled(ctx) }

// HandleRequests routes what servers ask of the host (sampling,
// elicitation) to r: the window's chat, the terminal, or serve's client.
func (s *Servers) HandleRequests(r mcpmanager.RequestHandler) { s.h.mgr.SetRequestHandler(r) }

// Log is the last lines (at most 1000; 200 when lines is not positive) a
// running server wrote to stderr.
func (s *Servers) Log(name string, lines int) ([]string, error) {
	sup, err := s.h.mgr.Server(name)
	if err != nil {
		return nil, err
	}
	if lines <= 0 || lines > 1000 {
		lines = 200
	}
	return sup.Log().Tail(lines), nil
}

// LogEntries is Log with MCP log messages: minLevel (debug … emergency)
// keeps only those at that level or above, "" keeps everything.
func (s *Servers) LogEntries(name, minLevel string, lines int) ([]serverlog.Entry, error) {
	sup, err := s.h.mgr.Server(name)
	if err != nil {
		return nil, err
	}
	if lines <= 0 || lines > 1000 {
		lines = 200
	}
	return sup.Log().Entries(lines, minLevel), nil
}

// Roots are the folders a running server is offered as its MCP roots
// (none when it does not run).
func (s *Servers) Roots(name string) []string {
	if sup, err := s.h.mgr.Server(name); err == nil {
		return sup.Roots()
	}
	return nil
}

// SetLogLevel asks a server that offers MCP logging for messages at level
// and above.
func (s *Servers) SetLogLevel(ctx context.Context, name, level string) error {
	return s.h.mgr.SetLogLevel(ctx, name, level)
}

// Test starts srv on its own as it would run now (the active profile, its
// secrets, its roots), runs initialize and tools/list, and reports each
// step's time and exactly what failed, secrets masked. A disabled server
// is tested too: that is how a user checks it before enabling it.
func (s *Servers) Test(ctx context.Context, srv config.Server) (mcpmanager.TestReport, error) {
	if _, isTemplate := library.TemplateOf(srv); isTemplate {
		return mcpmanager.TestReport{}, fmt.Errorf("%s is a template: add a server from it, then test that", srv.Name)
	}
	cfg, err := s.h.Config()
	if err != nil {
		cfg = &config.Config{} // a --config file's server: no profile, the default workspace
	}
	ctx, cancel := context.WithTimeout(ctx, TestTimeout)
	defer cancel()
	r := mcpmanager.Report(srv.Name, s.h.mgr.Test(ctx, s.Prepared(cfg, srv)), s.h.Redact)
	slog.Info("test connection", "server", srv.Name, "ok", r.OK, "failed", r.Failed, "ms", r.TotalMs)
	return r, nil
}

// Login logs in to a remote server that needs it: the authorization page
// goes to show (nil: Options.OnLoginURL), the tokens to the keyring, and
// it returns the server's state once it has started again with them
// (waiting at most LoginSettleTimeout); an error when it is not ready.
func (s *Servers) Login(ctx context.Context, name string, show func(url string)) (supervisor.Status, error) {
	if err := s.h.store.Available(); err != nil {
		return supervisor.Status{Name: name}, fmt.Errorf("%s: the tokens could not be kept: %w", name, err)
	}
	if err := s.h.mgr.LoginWith(ctx, name, show); err != nil {
		if errors.Is(err, context.Canceled) {
			return supervisor.Status{Name: name}, fmt.Errorf("%s: login cancelled", name)
		}
		return supervisor.Status{Name: name}, errors.New(s.h.Redact(err.Error()))
	}
	wctx, cancel := context.WithTimeout(ctx, LoginSettleTimeout)
	defer cancel()
	res, err := s.Wait(wctx, name)
	if err != nil {
		return res.Status, fmt.Errorf("%s did not start after the login: %w", name, wctx.Err())
	}
	if res.Status.State != supervisor.Ready {
		return res.Status, fmt.Errorf("logged in, but %s", s.h.Redact(res.Status.Error))
	}
	return res.Status, nil
}

// Gateway is every running server's tools, prompts and resources as one
// MCP server ('switchboard serve'): the one place outside the host that
// holds the registry.
func (t *Tools) Gateway(opts gateway.Options) *gateway.Gateway {
	opts.Settled = t.h.mgr.WaitSettled
	opts.Skills = t.h.mgr.Skills()
	return gateway.New(t.h.registry(), opts)
}
