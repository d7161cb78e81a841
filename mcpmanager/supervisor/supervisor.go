package supervisor

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/fetch"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
	"github.com/switchboard-app/switchboard/mcpmanager/plain"
	"github.com/switchboard-app/switchboard/mcpmanager/process"
	"github.com/switchboard-app/switchboard/mcpmanager/sandbox"
	"github.com/switchboard-app/switchboard/mcpmanager/serverlog"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor/restart"
	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// State is where a server is in its life.
type State string

// The states a server goes through.
const (
	Disabled   State = "disabled"
	Starting   State = "starting"
	Ready      State = "ready"
	Error      State = "error"
	Restarting State = "restarting"
	Stopped    State = "stopped"
	// NeedsLogin means a remote server refused the request and only a login helps.
	NeedsLogin State = "needs-login"
	// Installing means the launcher (npx, uvx, docker) is downloading the
	// server's package, before the process starts (Spec.Fetch).
	Installing State = "installing"
)

// Defaults used when a Spec leaves them zero. Variables so tests can shorten them.
var (
	// DefaultStartTimeout bounds the handshake only: a launcher's download
	// is a step of its own before it (Spec.Fetch, fetch.Timeout).
	DefaultStartTimeout = 30 * time.Second
	DefaultMaxAttempts  = 5
	DefaultRestartDelay = 500 * time.Millisecond
	MaxRestartDelay     = 30 * time.Second
	// StableAfter is how long a server must stay ready for its restart count to reset.
	StableAfter = time.Minute
	// HealthInterval is how often a ready server is pinged; a server that
	// does not answer within HealthTimeout is restarted like a crashed one.
	HealthInterval = 3 * time.Minute
	HealthTimeout  = 15 * time.Second
	// DiscoverTimeout bounds the server/discover probe of a server whose
	// revision is not known yet: a server older than 2026-07-28 that ignores
	// the unknown method, rather than answering it with an error, is taken to
	// be legacy after it. Part of the start's StartTimeout.
	DiscoverTimeout = 5 * time.Second
	// ListenRetry is how long a modern server's subscriptions/listen stream
	// waits before it is opened again after it ended.
	ListenRetry = 5 * time.Second
	// RenewAfter: a remote session the server ends (ErrSessionExpired) after
	// it was ready this long is followed by a new one at once; one ended
	// sooner is restarted with backoff like a crash, so a server that
	// forgets every session at once is not reconnected in a loop.
	RenewAfter = time.Second
)

// Sentinel errors; wrapped with the server's name.
var (
	ErrNotReady     = errors.New("server is not ready")
	ErrExited       = errors.New("server process exited")
	ErrTimeout      = errors.New("server did not finish the MCP handshake in time")
	ErrUnhealthy    = errors.New("server stopped answering pings")
	ErrDisconnected = errors.New("connection to the server was lost")
	// ErrNeedsLogin is oauth.ErrNeedsLogin: the same error whichever layer reports it.
	ErrNeedsLogin = oauth.ErrNeedsLogin
	// ErrRefused: the server refused the Authorization header the user configured.
	ErrRefused = errors.New("the server refused the configured Authorization header")
	// ErrOtherOrigin is oauth.ErrOtherOrigin: a remote server redirected (or
	// pointed) the client to another origin, and nothing was sent there; see
	// OriginError.
	ErrOtherOrigin = oauth.ErrOtherOrigin
	// ErrLogLevel: a log level that is not one of serverlog.Levels.
	ErrLogLevel = errors.New("unknown log level")
)

// LoginError says a remote server needs the user to log in. It matches
// ErrNeedsLogin and says where to do it.
type LoginError struct {
	Server string
	Err    error // wraps ErrNeedsLogin; says why
}

func (e *LoginError) Error() string {
	why := e.Err.Error()
	var oe *oauth.Error
	if errors.As(e.Err, &oe) {
		why = oe.Err.Error() // the step and URL add nothing for the user
	}
	return fmt.Sprintf("%s: %s: press Log in on the Servers page or run 'switchboard servers login %s'", e.Server, why, e.Server)
}

func (e *LoginError) Unwrap() error { return e.Err }

// Spec describes one server: a stdio Process, a Remote endpoint, or an
// InProcess server.
type Spec struct {
	Name         string
	Process      process.Spec
	Remote       *Remote           // when set, Process is ignored
	InProcess    InProcess         // when set, Process and Remote are ignored
	Auth         *oauth.Authorizer // a remote server's login state; nil sends no token
	StartTimeout time.Duration     // initialize must finish within this
	// Fetch, when set, downloads the package of a stdio server's launcher
	// (npx, uvx, docker) before its first start, in state Installing and
	// within FetchTimeout (0: fetch.Timeout), so the download is never
	// counted against StartTimeout.
	Fetch        *fetch.Plan
	FetchTimeout time.Duration
	Restart      Restart
	LogPath      string // stderr log file; "" keeps memory only
	Redact       func(string) string
	// Roots are the absolute folders offered as the server's MCP roots
	// (see SetRoots to change them while it runs).
	Roots []string
	// Sandbox, when set, runs the stdio Process inside a sandbox (package
	// sandbox) with the server's current Roots bound as it says; without
	// a usable sandbox the server does not start.
	Sandbox *sandbox.Policy
	// LogLevel, when set, is asked of the server at every start (see SetLogLevel).
	LogLevel string
}

// Restart is the crash policy. MaxAttempts counts restarts after a crash
// since the server was last stable; Delay is the first backoff.
type Restart struct {
	Disabled    bool
	MaxAttempts int
	Delay       time.Duration
}

// Status is a snapshot pushed to OnStatus on every change.
type Status struct {
	Name         string             `json:"name"`
	State        State              `json:"state"`
	Error        string             `json:"error,omitempty"`
	PID          int                `json:"pid,omitempty"`
	Restarts     int                `json:"restarts"`
	ServerInfo   mcp.Implementation `json:"serverInfo"`
	Instructions string             `json:"instructions,omitempty"`
	Since        time.Time          `json:"since"`
	Builtin      bool               `json:"builtin,omitempty"` // an in-process server of the app itself
	// Logging: the server offers MCP logging (notifications/message, logging/setLevel).
	Logging bool `json:"logging,omitempty"`
	// LogLevel is the level asked of it with SetLogLevel ("" for its default).
	LogLevel string `json:"logLevel,omitempty"`
	// Progress is the launcher's last output line while Installing.
	Progress string `json:"progress,omitempty"`
	// Protocol is the MCP revision the server speaks ("2026-07-28",
	// "2025-11-25", ...), known once it is ready.
	Protocol string `json:"protocol,omitempty"`
}

// Options are the hooks a Server calls, and how it introduces itself. Each
// hook is called from the Server's own goroutines and must not block for long.
type Options struct {
	// ClientInfo is the client's name and version sent at initialize; empty
	// fields default to DefaultClientInfo's.
	ClientInfo     mcp.Implementation
	OnStatus       func(Status)
	OnNotification func(server string, n mcp.JSONRPCNotification)
	ClientOptions  []client.ClientOption
	// Requests answers sampling and elicitation requests from the server;
	// nil: the client does not offer them.
	Requests RequestHandler
}

// Server supervises one server, stdio or remote.
type Server struct {
	spec Spec
	opts Options
	log  *serverlog.Log

	mu     sync.Mutex
	status Status
	cl     *Client
	roots  []string
	// logLevel is the level last asked with SetLogLevel, applied at each start.
	logLevel string
	// fetched: Spec.Fetch succeeded, restarts skip it.
	fetched bool
	// era is the protocol revision the server last spoke: a restart asks for
	// it straight away instead of probing, and a failed start forgets it so
	// the next one probes again (a server may have been upgraded or
	// downgraded in between).
	era string

	// changed closes (and is replaced) at every status change: renewed
	// waits on it for the next session.
	changed chan struct{}

	// mark, when set (Probe), is told as each step of connect ends.
	mark func(step string, err error)
	// logged closes when the last process's stderr has been read to EOF.
	logged chan struct{}
	// connected: a remote session of this Run was ready once, so the
	// address is right and one that stops answering is tried again
	// without limit (unreachable).
	connected bool
}

// New prepares a supervisor; nothing runs until Run.
func New(spec Spec, opts Options) (*Server, error) {
	if spec.StartTimeout <= 0 {
		spec.StartTimeout = DefaultStartTimeout
	}
	if spec.Restart.MaxAttempts <= 0 {
		spec.Restart.MaxAttempts = DefaultMaxAttempts
	}
	if spec.Restart.Delay <= 0 {
		spec.Restart.Delay = DefaultRestartDelay
	}
	l, err := serverlog.Open(spec.LogPath, serverlog.Options{Redact: spec.Redact})
	if err != nil {
		return nil, err
	}
	return &Server{spec: spec, opts: opts, log: l, roots: slices.Clone(spec.Roots), logLevel: spec.LogLevel, changed: make(chan struct{}),
		status: Status{Name: spec.Name, State: Stopped, Since: time.Now(), Builtin: spec.InProcess != nil}}, nil
}

// Name is the server's configured name.
func (s *Server) Name() string { return s.spec.Name }

// Log is the server's stderr record.
func (s *Server) Log() *serverlog.Log { return s.log }

// Status returns the current snapshot.
func (s *Server) Status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status
}

// Client returns the ready session, or an error naming the server and its state.
func (s *Server) Client() (*Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cl == nil || s.status.State != Ready {
		return nil, &NotReadyError{Server: s.spec.Name, State: s.status.State, Reason: s.status.Error}
	}
	return s.cl, nil
}

// NotReadyError says why a server has no session. It matches ErrNotReady.
type NotReadyError struct {
	Server string
	State  State
	Reason string // the last error, already naming the server; may be empty
}

func (e *NotReadyError) Error() string {
	if e.Reason != "" {
		return e.Reason
	}
	return fmt.Sprintf("%s: server is %s", e.Server, e.State)
}

// Restarting reports whether the server is being started again after a run
// ended, and so is expected back by itself (the router keeps its tools
// offered meanwhile).
func (e *NotReadyError) Restarting() bool { return e.State == Restarting }

// Is makes errors.Is(err, ErrNotReady) true.
func (e *NotReadyError) Is(target error) bool { return target == ErrNotReady }

func (s *Server) set(mut func(*Status)) {
	s.mu.Lock()
	prev := s.status.State
	mut(&s.status)
	if s.status.State != prev {
		s.status.Since = time.Now()
	}
	st := s.status
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
	if s.opts.OnStatus != nil {
		s.opts.OnStatus(st)
	}
}

// Run keeps the server up until ctx ends, then stops it and returns nil. It
// returns early with the last error once restarts are exhausted (state Error).
// The restarts and their backoff are restart.Loop's, as the local model's.
func (s *Server) Run(ctx context.Context) error {
	defer s.log.Close()
	return restart.Loop{
		Delay: s.spec.Restart.Delay, Max: MaxRestartDelay, StableAfter: StableAfter,
		Once: func(ctx context.Context, attempts int) (time.Time, error) {
			if attempts == 0 {
				s.set(func(st *Status) { st.State, st.Error = Starting, "" })
			}
			if err := s.fetch(ctx); err != nil {
				return time.Time{}, err
			}
			up, err := s.runOnce(ctx)
			for !up.IsZero() && time.Since(up) >= RenewAfter && errors.Is(err, ErrSessionExpired) && ctx.Err() == nil {
				// The server forgot a session that worked (restarted,
				// redeployed, expired it): the spec has the client start a
				// new one at once. No crash, so no backoff and no restart
				// counted, unless the new one fails to start.
				s.log.Add(err.Error() + "; starting a new session")
				s.set(func(st *Status) { st.State, st.Error = Starting, "" })
				next, nerr := s.runOnce(ctx)
				if next.IsZero() {
					return up, nerr
				}
				up, err = next, nerr
			}
			return up, err
		},
		Failed: s.failed,
		Stopped: func() {
			s.set(func(st *Status) { st.State, st.PID, st.Error = Stopped, 0, "" })
		},
	}.Run(ctx)
}

// failed shows how a run ended and decides whether to restart: a server
// that needs a login, one that would fail the same way again, or one out
// of attempts stays down.
func (s *Server) failed(err error, readyAt time.Time, attempts int) (giveUp bool) {
	msg := plain.Text(err) // the sentence first: the window shows the rest behind a disclosure
	if s.spec.InProcess != nil {
		s.log.Add(msg) // no stderr to tell: its log keeps why it failed
	} else if tail := s.stderrTail(5); len(tail) > 0 {
		msg += "\nlast stderr lines:\n" + strings.Join(tail, "\n")
	}
	if errors.Is(err, ErrNeedsLogin) {
		// Restarting cannot help: the status waits for a login.
		s.set(func(st *Status) { st.State, st.PID, st.Error = NeedsLogin, 0, err.Error() })
		return true
	}
	var notFound *process.NotFoundError
	// A built-in that never came up would fail the same way again (its
	// data held by another process, a bad root): it waits for a Restart.
	builtinFailed := s.spec.InProcess != nil && readyAt.IsZero()
	if unreachable(s, err) {
		// Gone from the network, not broken: it comes back by itself.
		first, rest, _ := strings.Cut(msg, "\n")
		if !strings.HasSuffix(first, ".") {
			first += "."
		}
		msg = first + " " + fmt.Sprintf(keepsTrying, plain.Ago(MaxRestartDelay)) + "\n" + rest
		s.set(func(st *Status) {
			st.State, st.PID, st.Error, st.Restarts = Restarting, 0, strings.TrimSuffix(msg, "\n"), st.Restarts+1
		})
		return false
	}
	if s.spec.Restart.Disabled || attempts >= s.spec.Restart.MaxAttempts || errors.As(err, &notFound) || errors.Is(err, ErrRefused) || errors.Is(err, ErrRejected) || errors.Is(err, ErrOtherOrigin) || errors.Is(err, config.ErrURL) || errors.Is(err, fetch.ErrTimeout) || sandboxRefused(err) || builtinFailed {
		s.set(func(st *Status) { st.State, st.PID, st.Error = Error, 0, msg })
		return true
	}
	s.set(func(st *Status) { st.State, st.PID, st.Error, st.Restarts = Restarting, 0, msg, st.Restarts+1 })
	return false
}

// fetch downloads the launcher's package (Spec.Fetch) once per Run, in
// state Installing, each output line of the launcher logged and shown as
// the status's Progress. A package already fetched in this process (by the
// background prefetch after an import, say) costs nothing.
func (s *Server) fetch(ctx context.Context) error {
	p := s.spec.Fetch
	if p == nil || s.fetched || s.spec.Remote != nil || s.spec.InProcess != nil {
		return nil
	}
	opts := fetch.Options{Env: s.spec.Process.Env, Dir: s.spec.Process.Dir, Timeout: s.spec.FetchTimeout}
	if fetch.Fetched(p, opts.Env) {
		s.fetched = true
		return nil
	}
	redact := s.spec.Redact
	if redact == nil {
		redact = func(v string) string { return v }
	}
	s.set(func(st *Status) { st.State, st.Error, st.Progress = Installing, "", "fetching "+p.String() })
	s.log.Add("fetching " + p.String())
	opts.Progress = func(line string) {
		s.log.Add(line)
		line = redact(line)
		s.set(func(st *Status) { st.Progress = line })
	}
	err := fetch.Run(ctx, p, opts)
	s.set(func(st *Status) {
		st.Progress = ""
		if err == nil {
			st.State = Starting
		}
	})
	if err != nil {
		return fmt.Errorf("%s: %w", s.spec.Name, err)
	}
	s.fetched = true
	return nil
}

// session is one live connection to a server, stdio, remote or in-process.
type session struct {
	tr    transport.Interface
	cl    *client.Client  // in-process: the client made with tr (its handlers live in tr)
	pid   int             // 0 for remote servers
	dead  <-chan struct{} // closed when the process exits or the connection is lost
	why   func() string   // stdio: why dead closed ("exit status 2")
	cause func() error    // why dead closed: remote, ErrDisconnected or a LoginError's cause; stdio, a message over the limit (nil when it exited)
	out   *wire.Reader    // stdio: its stdout, bounded; nil for remote servers
	close func()          // ends the session (stops the process tree)
	abort func()          // close for a session that never became ready; nil: close
	watch *watch          // remote: what the server's HTTP answers said; nil otherwise
	cut   *cutter         // remote: says why a request got no answer when the session ended; nil otherwise
}

// dial starts the process or opens the remote transport.
func (s *Server) dial(ctx context.Context, remoteType string) (*session, error) {
	if r := s.spec.Remote; r != nil {
		return dialRemote(s.spec.Name, r, remoteType, s.spec.Auth, s.tasker(), remoteHooks{logger: s.transportLogger(), renewed: s.renewed})
	}
	return s.dialStdio(ctx)
}

// runOnce connects, initializes, and blocks until the session dies or ctx
// ends. It returns when the server became ready (zero if never).
func (s *Server) runOnce(ctx context.Context) (readyAt time.Time, err error) {
	types := []string{""}
	if r := s.spec.Remote; r != nil {
		types = []string{r.Type}
		if r.Type == "" { // not given: Streamable HTTP first, then legacy SSE
			types = []string{RemoteHTTP, RemoteSSE}
		}
	}
	var sess *session
	var cl *client.Client
	var res *mcp.InitializeResult
	var errs []error
	for _, typ := range types {
		sess, cl, res, err = s.open(ctx, typ)
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return time.Time{}, ctx.Err()
		}
		errs = append(errs, err)
		if sameOverSSE(err) {
			break
		}
	}
	if err != nil {
		s.mu.Lock()
		s.era = ""
		s.mu.Unlock()
		if perr := pathError(s, types, errs); perr != nil {
			// Not a legacy SSE server, as mcp-go's first error guesses: a
			// URL whose path nothing serves, or not over SSE.
			return time.Time{}, perr
		}
		return time.Time{}, errors.Join(errs...)
	}
	defer sess.close()
	defer cl.Close()
	protocol := cl.ProtocolVersion()
	if protocol == "" {
		protocol = res.ProtocolVersion
	}

	readyAt = time.Now()
	kept := &Client{Client: cl}
	if k, ok := sess.tr.(schemaKeeper); ok {
		kept.schemas = k.keptSchemas()
	}
	if sess.cut != nil {
		// From now on a request the session's end cuts off says so.
		sess.cut.arm(func(cctx context.Context, err error) error { return remoteCut(cctx, s, ctx, sess, err) })
	}
	s.mu.Lock()
	s.cl = kept
	s.era = protocol
	s.connected = s.spec.Remote != nil
	level := s.logLevel
	s.mu.Unlock()
	if err := s.applyLogLevel(ctx, cl, level); err != nil {
		s.log.Add(err.Error())
	}
	s.set(func(st *Status) {
		st.State, st.Error = Ready, ""
		st.ServerInfo, st.Instructions = res.ServerInfo, res.Instructions
		st.Logging, st.LogLevel = res.Capabilities.Logging != nil, level
		st.Protocol = protocol
	})
	if stop := s.listen(ctx, cl, res.Capabilities); stop != nil {
		defer stop()
	}
	defer func() {
		s.mu.Lock()
		s.cl = nil
		s.mu.Unlock()
	}()

	health := time.NewTicker(HealthInterval)
	defer health.Stop()
	for {
		select {
		case <-ctx.Done():
			return readyAt, ctx.Err()
		case <-sess.dead:
			if sess.pid == 0 {
				return readyAt, s.remoteLost(sess.cause())
			}
			if err := sess.cause(); err != nil {
				return readyAt, fmt.Errorf("%s: %w", s.spec.Name, err)
			}
			return readyAt, fmt.Errorf("%s: %w (%s)", s.spec.Name, ErrExited, sess.why())
		case <-health.C:
			pctx, cancel := context.WithTimeout(ctx, HealthTimeout)
			err := ping(pctx, sess.tr)
			cancel()
			if err != nil && ctx.Err() == nil {
				return readyAt, fmt.Errorf("%s: %w: %v", s.spec.Name, ErrUnhealthy, err)
			}
		}
	}
}

// open is connect, once more when the first connection asks for it
// (errRedial: a server that answered server/discover with a legacy answer
// over Streamable HTTP, now remembered as legacy).
//
// A process that exits while it is probed (server/discover, the revision not
// known yet) is started once more and asked for the handshake straight
// away: servers written before 2026-07-28 that die on a first message other
// than initialize exist.
func (s *Server) open(ctx context.Context, remoteType string) (*session, *client.Client, *mcp.InitializeResult, error) {
	s.mu.Lock()
	probed := s.era == ""
	s.mu.Unlock()
	sess, cl, res, err := s.connect(ctx, remoteType)
	switch {
	case errors.Is(err, errRedial):
		return s.connect(ctx, remoteType)
	case probed && s.spec.Remote == nil && s.spec.InProcess == nil && errors.Is(err, ErrExited) && ctx.Err() == nil:
		s.mu.Lock()
		s.era = mcp.LATEST_LEGACY_PROTOCOL_VERSION
		s.mu.Unlock()
		return s.connect(ctx, remoteType)
	}
	return sess, cl, res, err
}

// connect dials and runs the handshake within StartTimeout. On failure the
// session is closed again.
func (s *Server) connect(ctx context.Context, remoteType string) (*session, *client.Client, *mcp.InitializeResult, error) {
	mark := func(step string, err error) {
		if s.mark != nil {
			s.mark(step, err)
		}
	}
	opts := append(append(s.requestOptions(), s.rootsOption()), s.opts.ClientOptions...)
	var sess *session
	var err error
	if s.spec.InProcess != nil {
		sess, err = s.dialInProcess(opts)
	} else {
		sess, err = s.dial(ctx, remoteType)
	}
	if err != nil {
		mark(StepStart, err)
		return nil, nil, nil, fmt.Errorf("%s: %w", s.spec.Name, err)
	}
	s.set(func(st *Status) { st.PID = sess.pid })
	cl := sess.cl
	if cl == nil {
		if remoteType == RemoteSSE {
			// HTTP+SSE is the 2024-11-05 transport: no server/discover on it.
			opts = append(opts, client.WithLegacyProtocolOnly())
		}
		cl = client.NewClient(sess.tr, opts...)
	}
	// Every step of the opening — the HTTP answer, SSE's endpoint event,
	// the handshake — counts against one StartTimeout. Start's context
	// lives as long as the session (mcp-go reads the SSE stream under it),
	// so a timer, not a deadline, ends a Start that takes too long.
	deadline := time.Now().Add(s.spec.StartTimeout)
	live, end := context.WithCancelCause(ctx)
	timer := time.AfterFunc(s.spec.StartTimeout, func() { end(ErrTimeout) })
	fail := func(err error) (*session, *client.Client, *mcp.InitializeResult, error) {
		timer.Stop()
		cl.Close()
		if sess.abort != nil {
			sess.abort()
		} else {
			sess.close()
		}
		end(nil)
		return nil, nil, nil, err
	}
	name := s.spec.Name
	cl.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationMessage) {
			s.logMessage(n)
		}
		if s.opts.OnNotification != nil {
			s.opts.OnNotification(name, n)
		}
	})
	err = cl.Start(live)
	if timer.Stop(); err == nil && live.Err() != nil {
		err = context.Cause(live) // it ended just as Start did: the stream is gone
	}
	if err != nil { // the step says what the status will: why, and what to do
		err = s.startFailed(sess, err, remoteType, errors.Is(context.Cause(live), ErrTimeout))
	}
	mark(StepStart, err)
	if err != nil {
		return fail(err)
	}
	initCtx, cancel := context.WithDeadline(ctx, deadline)
	s.mu.Lock()
	era := s.era
	s.mu.Unlock()
	res, err := initialize(initCtx, cl, sess.dead, sess.pid != 0, s.clientInfo(), era)
	cancel()
	if err != nil {
		err = s.initFailed(ctx, sess, err, remoteType)
	}
	if err == nil && mcp.IsModernProtocol(cl.ProtocolVersion()) {
		mark(StepDiscover, nil)
	} else {
		mark(StepInitialize, err)
	}
	if err != nil {
		return fail(err)
	}
	if st, ok := sess.tr.(streamable); ok && st.spoiled.Load() && !mcp.IsModernProtocol(cl.ProtocolVersion()) {
		s.mu.Lock()
		s.era = cl.ProtocolVersion()
		s.mu.Unlock()
		return fail(errRedial)
	}
	closeSession := sess.close
	sess.close = func() {
		closeSession()
		end(nil)
	}
	return sess, cl, res, nil
}

// startFailed says why the transport did not start (cl.Start): for a remote
// server, the HTTP answer of its first request, or none.
func (s *Server) startFailed(sess *session, err error, remoteType string, timedOut bool) error {
	var oe *OriginError
	switch {
	case errors.As(err, &oe):
		return oe
	case sess.pid == 0 && sess.cause() != nil:
		return s.remoteLost(sess.cause())
	}
	if rej := s.refused(sess, err); rej != nil {
		return rej
	}
	switch {
	case timedOut:
		return s.timedOut(sess, remoteType)
	case errors.Is(err, transport.ErrAuthorizationRequired), errors.Is(err, transport.ErrUnauthorized):
		return s.unauthorized(sess)
	}
	return fmt.Errorf("%s: start session: %w", s.spec.Name, err)
}

// initFailed says why the handshake failed.
func (s *Server) initFailed(ctx context.Context, sess *session, err error, remoteType string) error {
	if cause := sess.cause(); cause != nil {
		if sess.pid == 0 {
			return s.remoteLost(cause)
		}
		return fmt.Errorf("%s: %w", s.spec.Name, cause)
	}
	var oe *OriginError
	switch {
	case errors.As(err, &oe):
		return oe
	case ctx.Err() != nil:
		return ctx.Err()
	}
	if rej := s.refused(sess, err); rej != nil {
		return rej
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return s.timedOut(sess, remoteType)
	case errors.Is(err, ErrExited):
		exited := fmt.Errorf("%w during initialize (%s)", ErrExited, sess.why())
		if p := missingPath(s.spec.Process, lastWords(s)); p != "" && s.spec.Remote == nil && s.spec.InProcess == nil {
			return fmt.Errorf("%s: %w", s.spec.Name, &MissingPathError{Path: p, Err: exited})
		}
		return fmt.Errorf("%s: %w", s.spec.Name, exited)
	case errors.Is(err, transport.ErrAuthorizationRequired), errors.Is(err, transport.ErrOAuthAuthorizationRequired), errors.Is(err, transport.ErrUnauthorized):
		return s.unauthorized(sess)
	}
	return fmt.Errorf("%s: initialize%s: %w", s.spec.Name, via(remoteType), err)
}

// via names the remote transport in an error: " (http)", " (sse)".
func via(remoteType string) string {
	if remoteType == "" {
		return ""
	}
	return " (" + remoteType + ")"
}

// timedOut is the error of an opening that took longer than StartTimeout:
// for a remote server that never answered an HTTP request, a silentError
// (what to check); else ErrTimeout, with how much of a stdio message had
// come.
func (s *Server) timedOut(sess *session, remoteType string) error {
	if w := sess.watch; w != nil && !w.answered.Load() {
		return &silentError{server: s.spec.Name, url: s.redact(s.spec.Remote.URL), after: s.spec.StartTimeout, connected: w.connected.Load()}
	}
	stalled := ""
	if sess.out != nil {
		stalled = ": " + sess.out.Stall()
	}
	return fmt.Errorf("%s: %w%s (%s)%s", s.spec.Name, ErrTimeout, via(remoteType), s.spec.StartTimeout, stalled)
}

// refused is the error of a 401 or 403 the server answered while the
// session opened, which mcp-go's own error hides (a guess at legacy SSE, a
// bare status code). nil when there was none, or when the OAuth transport
// already said why (a step-up that cannot help, say).
func (s *Server) refused(sess *session, err error) error {
	if sess.watch == nil {
		return nil
	}
	rf := sess.watch.refusal()
	var oe *oauth.Error
	if rf == nil || errors.As(err, &oe) {
		return nil
	}
	if rf.status == http.StatusUnauthorized {
		return s.unauthorized(sess)
	}
	return s.rejected(rf)
}

// sameOverSSE reports whether a failed Streamable HTTP start would fail the
// same way over legacy SSE, which is then not tried: refused credentials or
// headers (401, 403), a redirect elsewhere, a bad URL, or a server that
// never answered. Only answers such as 404, 405 or 400 to the initialize
// POST suggest a legacy server (the spec's backwards compatibility).
func sameOverSSE(err error) bool {
	var silent *silentError
	return errors.Is(err, ErrNeedsLogin) || errors.Is(err, ErrRefused) || errors.Is(err, ErrRejected) ||
		errors.Is(err, ErrOtherOrigin) || errors.Is(err, config.ErrURL) || errors.As(err, &silent)
}

// remoteLost names why a remote session ended: a login is needed, or the
// connection went.
func (s *Server) remoteLost(cause error) error {
	switch {
	case cause == nil:
		return fmt.Errorf("%s: %w", s.spec.Name, ErrDisconnected)
	case errors.Is(cause, ErrNeedsLogin):
		return &LoginError{Server: s.spec.Name, Err: cause}
	}
	return fmt.Errorf("%s: %w", s.spec.Name, cause)
}

// unauthorized is the error for a 401 the OAuth transport did not handle:
// the user's own Authorization header was refused; or the server asked for
// a header of its own (no Bearer challenge: no login would help, and its
// message says what is missing); or there is no login.
func (s *Server) unauthorized(sess *session) error {
	var rf *refusal
	if sess != nil && sess.watch != nil {
		rf = sess.watch.refusal()
	}
	var headers map[string]string
	if s.spec.Remote != nil {
		headers = s.spec.Remote.Headers
	}
	for k := range headers {
		if strings.EqualFold(k, "Authorization") {
			said := ""
			if rf != nil && rf.body != "" {
				said = fmt.Sprintf("; the server said %q", s.redact(rf.body))
			}
			return fmt.Errorf("%s: %w (HTTP 401): update the secret it uses, or remove the header to log in with OAuth instead%s", s.spec.Name, ErrRefused, said)
		}
	}
	if rf != nil && rf.status == http.StatusUnauthorized && !rf.bearer {
		return s.rejected(rf)
	}
	return &LoginError{Server: s.spec.Name, Err: fmt.Errorf("%w (HTTP 401)", ErrNeedsLogin)}
}

var pings atomic.Int64

// ping sends a JSON-RPC ping on the transport itself: mcp-go's Client.Ping
// skips it on newer protocol versions, but a health check must hit the wire.
func ping(ctx context.Context, tr transport.Interface) error {
	id := mcp.NewRequestId(fmt.Sprintf("switchboard-health-%d", pings.Add(1)))
	res, err := tr.SendRequest(ctx, transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: id, Method: string(mcp.MethodPing)})
	if err != nil {
		return err
	}
	if res.Error != nil && res.Error.Code != mcp.METHOD_NOT_FOUND {
		return fmt.Errorf("ping: %s", res.Error.Message)
	}
	return nil
}

// initialize opens the MCP connection, giving up as soon as the process
// exits (or the remote session ends). With era empty, mcp-go probes with
// server/discover (revision 2026-07-28) and falls back to the initialize
// handshake on any other answer or after DiscoverTimeout; with era set, it
// asks for that revision straight away.
func initialize(ctx context.Context, cl *client.Client, dead <-chan struct{}, isProcess bool, info mcp.Implementation, era string) (*mcp.InitializeResult, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-dead:
			cancel()
		case <-ctx.Done():
		}
	}()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if era != "" {
		req.Params.ProtocolVersion = era
	}
	req.Params.ClientInfo = info
	res, err := cl.Initialize(ctx, req)
	if err != nil && isProcess {
		// stdout's EOF can beat the exit status; give the exit a moment to land
		// so the error says the process died rather than "transport closed".
		select {
		case <-dead:
			return nil, ErrExited
		case <-time.After(500 * time.Millisecond):
		}
	}
	return res, err
}
