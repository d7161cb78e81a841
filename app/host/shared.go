package host

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/buildinfo"
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/bridge"
	"github.com/switchboard-app/switchboard/mcpmanager/gateway"
)

// Shared is the running Switchboard's servers shared with other apps: a
// 'switchboard serve' an app started attaches over a local socket
// (mcpmanager/bridge) instead of starting every server again, so N apps
// share one process per server, one tool list and one set of OAuth
// tokens. Start listens (the window and 'switchboard daemon' do);
// Attach is the other end ('serve'). Each attached app is one gateway
// session, so a server's questions go to the app whose call caused them.
type Shared struct {
	h *Host

	mu       sync.Mutex
	inner    mcpmanager.RequestHandler // the front door's own (HandleRequests)
	l        *bridge.Listener
	attached map[*attachedApp]bool
	calls    map[string]int // tool calls by app name, since Start
	g        atomic.Pointer[gateway.Gateway]
}

// attachedApp is one 'serve' relaying an app's session.
type attachedApp struct {
	conn  *bridge.Conn
	since time.Time
	name  atomic.Value // string: --client, else its clientInfo.name once it called
}

func (a *attachedApp) app() string {
	n, _ := a.name.Load().(string)
	return n
}

// Start listens for attaching 'serve' processes at this data dir's
// address and serves each as its own gateway session, until ctx ends or
// the host closes; then the attached ones are let go (their bridges run
// the servers themselves from then on). It returns at once; an error
// wrapping bridge.ErrInUse means another Switchboard already shares this
// data dir's servers.
func (s *Shared) Start(ctx context.Context) error {
	h := s.h
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.l != nil {
		return nil
	}
	l, err := bridge.Listen(bridge.Default(h.dir.String()), bridge.Peer{PID: os.Getpid(), Version: buildinfo.String()})
	if err != nil {
		return err
	}
	s.l, s.attached, s.calls = l, map[*attachedApp]bool{}, map[string]int{}
	g := h.Tools.Gateway(gateway.Options{Version: buildinfo.String(), OnCall: s.counted})
	s.g.Store(g)
	// The servers' questions reach the apps' sessions from now on.
	h.mgr.SetRequestHandler(&sharedRequests{s})
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(h.ctx, cancel)
	h.wg.Go(func() { g.Watch(ctx) })
	h.wg.Go(func() {
		<-ctx.Done()
		stop()
		s.mu.Lock()
		s.l = nil
		s.mu.Unlock()
		_ = l.Close()
	})
	h.wg.Go(func() {
		for {
			c, err := l.Accept(func(err error) { slog.Warn("shared servers: refused a connection", "err", err) })
			if err != nil {
				return // closed
			}
			h.wg.Go(func() { s.serve(ctx, g, c) })
		}
	})
	slog.Info("shared servers: listening", "address", l.Address().Socket)
	return nil
}

// serve runs one attached app's session until it ends or ctx does.
func (s *Shared) serve(ctx context.Context, g *gateway.Gateway, c *bridge.Conn) {
	a := &attachedApp{conn: c, since: time.Now()}
	a.name.Store(c.Hello.Client)
	s.mu.Lock()
	s.attached[a] = true
	s.mu.Unlock()
	slog.Info("shared servers: app attached", "app", cmp.Or(c.Hello.Client, "(by its clientInfo)"), "pid", c.Hello.PID)
	err := g.ServeApp(ctx, c, c.Hello.Client)
	_ = c.Close()
	s.mu.Lock()
	delete(s.attached, a)
	s.mu.Unlock()
	slog.Info("shared servers: app detached", "app", a.app(), "pid", c.Hello.PID, "err", err)
}

// counted is the gateway's OnCall: the app is named in the log and its
// calls counted.
func (s *Shared) counted(c gateway.Call) {
	app := cmp.Or(c.App, "unnamed app")
	s.mu.Lock()
	s.calls[app]++
	for a := range s.attached {
		if a.app() == "" && c.App != "" {
			a.name.CompareAndSwap("", c.App) // the first unnamed one; names fill in as apps call
			break
		}
	}
	s.mu.Unlock()
	slog.Debug("shared servers: call", "app", app, "server", c.Server, "tool", c.Tool, "took", c.Took, "failed", c.Failed)
}

// Attached lists the apps whose 'serve' is attached now, by name.
func (s *Shared) Attached() []SharedApp {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]SharedApp, 0, len(s.attached))
	for a := range s.attached {
		name := a.app()
		out = append(out, SharedApp{Name: name, PID: a.conn.Hello.PID, Since: a.since.UTC().Format(time.RFC3339), Calls: s.calls[cmp.Or(name, "unnamed app")]})
	}
	slices.SortFunc(out, func(x, y SharedApp) int { return cmp.Or(cmp.Compare(x.Name, y.Name), cmp.Compare(x.PID, y.PID)) })
	return out
}

// Listening reports whether Start is sharing the servers now, and where.
func (s *Shared) Listening() (address string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.l == nil {
		return "", false
	}
	return s.l.Address().Socket, true
}

// ErrNotShared means no Switchboard is running for this data dir (or it
// did not answer in time): 'serve' runs the servers itself.
var ErrNotShared = errors.New("no running Switchboard shares its servers for this data dir")

// Attach connects a 'serve' to the Switchboard running for this data dir
// and relays req.In and req.Out to it byte for byte until either ends.
// An error wrapping ErrNotShared means none runs (serve runs the servers
// itself); a Detached with Lost set means the running one went away
// mid-session, and Resume holds what to serve locally for the app to go
// on. It opens no server of its own.
func (s *Shared) Attach(ctx context.Context, req AttachRequest) (Detached, error) {
	c, peer, err := bridge.Dial(ctx, bridge.Default(s.h.dir.String()), bridge.Hello{Client: req.Client, PID: os.Getpid()})
	if err != nil {
		if errors.Is(err, bridge.ErrNotRunning) {
			return Detached{}, fmt.Errorf("%w: %w", ErrNotShared, err)
		}
		return Detached{}, err
	}
	if req.OnAttached != nil {
		req.OnAttached(peer.PID)
	}
	lost, err := bridge.Relay(ctx, c, req.In, req.Out)
	if err != nil || lost == nil {
		return Detached{PID: peer.PID}, err
	}
	return Detached{PID: peer.PID, Lost: lost.Err, Resume: resumeFrom(lost), Out: bridge.DropAnswer(req.Out, lost.InitID)}, nil
}

// Detached is how a 'serve' attached to the running Switchboard ended
// (Shared.Attach). Lost is nil when the app ended the session; otherwise
// the running Switchboard went away (PID), and the caller serves Resume
// (the app's handshake again, then the rest of its stream) to Out (the
// app's stdout, without the second answer to initialize) with servers of
// its own, so the app goes on.
type Detached struct {
	PID    int
	Lost   error
	Resume io.Reader
	Out    io.Writer
}

// sharedRequests answers the servers' sampling and elicitation while
// Shared runs: the attached app whose call caused it takes it; a request
// no app's call caused goes to the front door's own handler (the window's
// chat), or is declined when there is none.
type sharedRequests struct{ s *Shared }

func (r *sharedRequests) CreateMessage(ctx context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	if g := r.s.g.Load(); g != nil {
		res, err := g.CreateMessage(ctx, server, req)
		if !errors.Is(err, gateway.ErrNoClient) {
			return res, err
		}
	}
	if in := r.s.handler(); in != nil {
		return in.CreateMessage(ctx, server, req)
	}
	return nil, fmt.Errorf("%s asked to use a model (sampling) outside any app's call, and this Switchboard has no window to ask in: declined", server)
}

func (r *sharedRequests) Elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	if g := r.s.g.Load(); g != nil {
		res, err := g.Elicit(ctx, server, req)
		if !errors.Is(err, gateway.ErrNoClient) {
			return res, err
		}
	}
	if in := r.s.handler(); in != nil {
		return in.Elicit(ctx, server, req)
	}
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}, nil
}

func (s *Shared) handler() mcpmanager.RequestHandler {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inner
}

// handle is Servers.HandleRequests: the front door's handler, behind the
// attached apps' while Shared runs.
func (s *Shared) handle(r mcpmanager.RequestHandler) {
	s.mu.Lock()
	s.inner = r
	sharing := s.g.Load() != nil
	s.mu.Unlock()
	if sharing {
		s.h.mgr.SetRequestHandler(&sharedRequests{s})
		return
	}
	s.h.mgr.SetRequestHandler(r)
}

// resumeFrom is what a local gateway serves after the running Switchboard
// went away: the app's handshake again, then the rest of its stream.
func resumeFrom(l *bridge.Lost) io.Reader {
	return io.MultiReader(bytes.NewReader(l.Replay), l.Rest)
}
