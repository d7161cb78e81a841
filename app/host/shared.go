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
	"github.com/switchboard-app/switchboard/mcpmanager/config"
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
	g        atomic.Pointer[gateway.Gateway]
	// chosen is the servers each app sees (sees, at every call), as the
	// config last applied says (follow); nil before the first.
	chosen atomic.Pointer[map[string][]string]
}

// attachedApp is one 'serve' relaying an app's session.
type attachedApp struct {
	conn  *bridge.Conn
	since time.Time
	name  atomic.Value // string: --client, else its clientInfo.name once it called
	calls atomic.Int64 // tool calls routed for it (gateway.Options.OnCall)
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
	s.l, s.attached = l, map[*attachedApp]bool{}
	g := h.Tools.gateway(gateway.Options{Version: buildinfo.String(), OnCall: s.counted, Sees: s.sees})
	if cfg, err := h.readConfig(); err == nil {
		s.follow(cfg, g)
	}
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

// follow is the one hook by which the attached apps follow a change of
// config.json, made in this process or another (Host.apply runs it, under
// the config lock, so it reads nothing more): the servers chosen for each
// app (settings.clients: 'clients servers NAME A,B', the window) hold from
// its next call, and the sessions of each app whose choice changed are
// sent the list_changed notifications (only theirs: another app's lists
// did not change), so the app lists again now; g (the attached apps'
// gateway, nil before Start) takes the code mode of settings.serve
// (serveCode). A malformed section leaves what it sets as it was, and
// says why in the log (the Settings page says it too).
func (s *Shared) follow(cfg *config.Config, g *gateway.Gateway) {
	if states, err := clientsSection.Get(cfg); err != nil {
		slog.Warn("shared servers: the servers chosen for each app", "err", err)
	} else {
		sets := make(map[string][]string, len(states))
		for name, st := range states {
			sets[name] = st.Servers
		}
		if old := s.chosen.Swap(&sets); old != nil && g != nil {
			for _, app := range changedChoices(*old, sets) {
				g.ChoiceChanged(app) // queued, never blocks
			}
		}
	}
	if g == nil {
		return
	}
	c, err := serveCode(cfg, s.h.Tools.DefaultPolicy)
	if err != nil {
		slog.Warn("shared servers: code mode", "err", err)
		return
	}
	if g.SetCode(c) {
		s.h.wg.Go(func() { g.Refresh(s.h.ctx) }) // not under the config lock apply holds
	}
}

// changedChoices names the apps whose chosen servers differ between old
// and now (an app gone from the section had a choice only if it was not
// empty).
func changedChoices(old, now map[string][]string) []string {
	var out []string
	for app := range now {
		if !slices.Equal(old[app], now[app]) {
			out = append(out, app)
		}
	}
	for app := range old {
		if _, ok := now[app]; !ok && len(old[app]) > 0 {
			out = append(out, app)
		}
	}
	return out
}

// serve runs one attached app's session until it ends or ctx does.
func (s *Shared) serve(ctx context.Context, g *gateway.Gateway, c *bridge.Conn) {
	a := &attachedApp{conn: c, since: time.Now()}
	a.name.Store(c.Hello.Client)
	s.mu.Lock()
	s.attached[a] = true
	s.mu.Unlock()
	slog.Info("shared servers: app attached", "app", cmp.Or(c.Hello.Client, "(by its clientInfo)"), "pid", c.Hello.PID, "stdio", map[bool]string{true: "handed over", false: "relayed"}[c.HandedOver()])
	if known(c.Hello.Client) {
		if _, err := s.h.Clients.Serving(c.Hello.Client); err != nil { // its "last connected"
			slog.Warn("shared servers: recording the app's connection", "app", c.Hello.Client, "err", err)
		}
	}
	err := c.Serve(ctx, func(ctx context.Context, rw io.ReadWriter) error { return g.ServeApp(ctx, rw, c.Hello.Client) })
	s.mu.Lock()
	delete(s.attached, a)
	s.mu.Unlock()
	// Its calls join the app's count in config.json; nothing of it stays
	// in memory.
	if name := a.app(); known(name) {
		if err := s.h.Clients.AddCalls(name, a.calls.Load()); err != nil {
			slog.Warn("shared servers: recording the app's calls", "app", name, "err", err)
		}
	}
	slog.Info("shared servers: app detached", "app", a.app(), "pid", c.Hello.PID, "calls", a.calls.Load(), "err", err)
}

// known reports whether name is one of the apps 'switchboard clients'
// knows (the names 'serve --client' takes).
func known(name string) bool {
	_, ok := config.ClientAppNamed(name)
	return ok
}

// counted is the gateway's OnCall: the app is named in the log and the
// call counted on its attached session (an unnamed one takes the name
// the call carries). The counts live with the sessions, so memory holds
// no more of them than apps attached; a session's count goes to
// config.json when it detaches.
func (s *Shared) counted(c gateway.Call) {
	s.mu.Lock()
	var to, unnamed *attachedApp
	for a := range s.attached {
		switch a.app() {
		case c.App:
			to = a
		case "":
			unnamed = a
		}
		if to != nil {
			break
		}
	}
	if to == nil && unnamed != nil && c.App != "" {
		unnamed.name.CompareAndSwap("", c.App) // names fill in as apps call
		to = unnamed
	}
	s.mu.Unlock()
	if to != nil {
		to.calls.Add(1)
	}
	slog.Debug("shared servers: call", "app", cmp.Or(c.App, "unnamed app"), "server", c.Server, "tool", c.Tool, "took", c.Took, "failed", c.Failed)
}

// sees is the gateway's Sees: an app sees the servers chosen for it
// (settings.clients, 'clients servers NAME A,B' or the window), and the
// built-ins, as a standalone 'serve --client' does; an app with no
// choice, or not one 'switchboard clients' knows, sees every server.
func (s *Shared) sees(app, server string) bool {
	var set []string
	if m := s.chosen.Load(); m != nil {
		set = (*m)[app]
	}
	if len(set) == 0 || slices.Contains(set, server) {
		return true
	}
	return slices.ContainsFunc(Builtins, func(b Builtin) bool { return b.Name() == server })
}

// Attached lists the apps whose 'serve' is attached now, by name.
func (s *Shared) Attached() []SharedApp {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]SharedApp, 0, len(s.attached))
	for a := range s.attached {
		name := a.app()
		title := ""
		if c, ok := config.ClientAppNamed(name); ok {
			title = c.Title
		}
		out = append(out, SharedApp{Name: name, Title: title, PID: a.conn.Hello.PID, Since: a.since.UTC().Format(time.RFC3339), Calls: int(a.calls.Load())})
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
// and hands it req.In and req.Out, which it then serves itself, when
// they are pipes or sockets (on Unix: what an app gives the 'serve' it
// starts), or else relays them to it byte for byte, until either ends.
// An error wrapping ErrNotShared means none runs (serve runs the servers
// itself); a Detached with Lost set means the running one went away
// mid-session, and Resume holds what to serve locally for the app to go
// on. It opens no server of its own.
func (s *Shared) Attach(ctx context.Context, req AttachRequest) (Detached, error) {
	inF, outF, handOff := bridge.Stdio(req.In, req.Out)
	c, peer, err := bridge.Dial(ctx, bridge.Default(s.h.dir.String()), bridge.Hello{Client: req.Client, PID: os.Getpid(), Handoff: handOff})
	if err != nil {
		if errors.Is(err, bridge.ErrNotRunning) {
			return Detached{}, fmt.Errorf("%w: %w", ErrNotShared, err)
		}
		return Detached{}, err
	}
	if req.OnAttached != nil {
		req.OnAttached(peer.PID)
	}
	var lost *bridge.Lost
	if handOff && peer.Handoff {
		lost, err = bridge.HandOff(ctx, c, inF, outF)
	} else {
		lost, err = bridge.Relay(ctx, c, req.In, req.Out)
	}
	if err != nil || lost == nil {
		return Detached{PID: peer.PID}, err
	}
	return Detached{PID: peer.PID, Lost: lost.Err, Resume: resumeFrom(lost), Out: lost.Out(req.Out)}, nil
}

// Detached is how a 'serve' attached to the running Switchboard ended
// (Shared.Attach). Lost is nil when the app ended the session; otherwise
// the running Switchboard went away (PID), and the caller serves Resume
// (the app's handshake again, then the rest of its stream) to Out (the
// app's stdout, without a second answer to initialize: the replay's
// answer passes only when the running Switchboard went away before
// answering it) with servers of its own, so the app goes on.
type Detached struct {
	PID    int
	Lost   error
	Resume io.Reader
	Out    io.Writer
}

// sharedRequests answers the servers' sampling and elicitation while
// Shared runs. The manager tied each to the caller whose call asked it
// (router.Tie), or refused it when that cannot be told: one the router
// ties to an attached app's call goes to that app; one of the window's
// (a chat's, the Tools page's), of nobody's call, or of an app that takes
// no such question goes to the front door's own handler (the window's
// chat: a chat's in that chat, any other outside a chat), or is declined
// when there is none ('switchboard daemon'), saying which it was: a
// sampling request during the call of an app that lends no model
// (gateway.ErrNotTaken) in the words a standalone 'serve' uses, one
// outside any app's call as that. An app is never asked about a chat's
// call, nor a chat about another's.
type sharedRequests struct{ s *Shared }

func (r *sharedRequests) CreateMessage(ctx context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	var err error // why no app took it: gateway.ErrNotTaken (its app lends no model), else outside any app's call
	if g := r.s.g.Load(); g != nil {
		var res *mcp.CreateMessageResult
		if res, err = g.CreateMessage(ctx, server, req); !errors.Is(err, gateway.ErrNoClient) {
			return res, err
		}
	}
	if in := r.s.handler(); in != nil {
		return in.CreateMessage(ctx, server, req)
	}
	if errors.Is(err, gateway.ErrNotTaken) {
		return nil, fmt.Errorf("%s asked to use a model (sampling) during a call of the app connected to 'switchboard serve', which does not lend its model to servers (sampling), and this Switchboard has no window to ask in: declined; use this server in Switchboard's window or with 'switchboard chat'", server)
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
