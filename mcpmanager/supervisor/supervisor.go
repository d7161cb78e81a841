// Package supervisor keeps one stdio MCP server running: it starts the
// process, runs the MCP handshake within a time limit, watches the process,
// and restarts it with exponential backoff when it dies, up to a limit.
//
//	s := supervisor.New(supervisor.Spec{Name: "memory", Process: process.Spec{Command: "npx", Args: ...}}, supervisor.Options{
//		OnStatus: func(st supervisor.Status) { events <- st },
//	})
//	go s.Run(ctx)          // returns when ctx ends; the process is stopped by then
//	c, err := s.Client()   // the ready MCP session, or why there is none
//
// A Server is safe for concurrent use. Run must be called once.
package supervisor

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/buildinfo"
	"github.com/switchboard-app/switchboard/mcpmanager/process"
	"github.com/switchboard-app/switchboard/mcpmanager/serverlog"
)

// State is where a server is in its life.
type State string

const (
	Disabled   State = "disabled"
	Starting   State = "starting"
	Ready      State = "ready"
	Error      State = "error"
	Restarting State = "restarting"
	Stopped    State = "stopped"
)

// Defaults used when a Spec leaves them zero. Variables so tests can shorten them.
var (
	DefaultStartTimeout = 60 * time.Second // npx may download on first run
	DefaultMaxAttempts  = 5
	DefaultRestartDelay = 500 * time.Millisecond
	MaxRestartDelay     = 30 * time.Second
	// StableAfter is how long a server must stay ready for its restart count to reset.
	StableAfter = time.Minute
	// HealthInterval is how often a ready server is pinged; a server that
	// does not answer within HealthTimeout is restarted like a crashed one.
	HealthInterval = 3 * time.Minute
	HealthTimeout  = 15 * time.Second
)

// Sentinel errors; wrapped with the server's name.
var (
	ErrNotReady  = errors.New("server is not ready")
	ErrExited    = errors.New("server process exited")
	ErrTimeout   = errors.New("server did not finish the MCP handshake in time")
	ErrUnhealthy = errors.New("server stopped answering pings")
)

// Spec describes one stdio server.
type Spec struct {
	Name         string
	Process      process.Spec
	StartTimeout time.Duration // initialize must finish within this
	Restart      Restart
	LogPath      string // stderr log file; "" keeps memory only
	Redact       func(string) string
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
}

// Options are the hooks a Server calls. Each is called from the Server's own
// goroutines and must not block for long.
type Options struct {
	OnStatus       func(Status)
	OnNotification func(server string, n mcp.JSONRPCNotification)
	ClientOptions  []client.ClientOption
}

// Server supervises one stdio server.
type Server struct {
	spec Spec
	opts Options
	log  *serverlog.Log

	mu     sync.Mutex
	status Status
	cl     *client.Client
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
	return &Server{spec: spec, opts: opts, log: l, status: Status{Name: spec.Name, State: Stopped, Since: time.Now()}}, nil
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
func (s *Server) Client() (*client.Client, error) {
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
	s.mu.Unlock()
	if s.opts.OnStatus != nil {
		s.opts.OnStatus(st)
	}
}

// Run keeps the server up until ctx ends, then stops it and returns nil. It
// returns early with the last error once restarts are exhausted (state Error).
func (s *Server) Run(ctx context.Context) error {
	defer s.log.Close()
	attempts := 0
	delay := s.spec.Restart.Delay
	for {
		if attempts == 0 {
			s.set(func(st *Status) { st.State, st.Error = Starting, "" })
		}
		readyAt, err := s.runOnce(ctx)
		if ctx.Err() != nil {
			s.set(func(st *Status) { st.State, st.PID, st.Error = Stopped, 0, "" })
			return nil
		}
		if !readyAt.IsZero() && time.Since(readyAt) >= StableAfter {
			attempts, delay = 0, s.spec.Restart.Delay
		}
		msg := err.Error()
		if tail := s.log.TailString(5); tail != "" {
			msg += "\nlast stderr lines:\n" + tail
		}
		var notFound *process.NotFoundError
		if s.spec.Restart.Disabled || attempts >= s.spec.Restart.MaxAttempts || errors.As(err, &notFound) {
			s.set(func(st *Status) { st.State, st.PID, st.Error = Error, 0, msg })
			return err
		}
		attempts++
		s.set(func(st *Status) { st.State, st.PID, st.Error, st.Restarts = Restarting, 0, msg, st.Restarts+1 })
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			s.set(func(st *Status) { st.State, st.Error = Stopped, "" })
			return nil
		case <-t.C:
		}
		delay = min(delay*2, MaxRestartDelay)
	}
}

// runOnce starts the process, initializes, and blocks until the process dies
// or ctx ends. It returns when the server became ready (zero if never).
func (s *Server) runOnce(ctx context.Context) (readyAt time.Time, err error) {
	p, err := process.Start(s.spec.Process)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s: %w", s.spec.Name, err)
	}
	defer func() {
		stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), process.StopGrace+process.TermGrace+process.KillGrace+time.Second)
		defer cancel()
		_ = p.Stop(stopCtx)
	}()
	s.set(func(st *Status) { st.PID = p.PID() })
	go s.log.Consume(p.Stderr)

	tr := transport.NewIO(p.Stdout, p.Stdin, nil)
	cl := client.NewClient(tr, s.opts.ClientOptions...)
	defer cl.Close()
	if s.opts.OnNotification != nil {
		name := s.spec.Name
		cl.OnNotification(func(n mcp.JSONRPCNotification) { s.opts.OnNotification(name, n) })
	}
	if err := cl.Start(ctx); err != nil {
		return time.Time{}, fmt.Errorf("%s: start session: %w", s.spec.Name, err)
	}

	initCtx, cancel := context.WithTimeout(ctx, s.spec.StartTimeout)
	res, err := initialize(initCtx, cl, p)
	cancel()
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return time.Time{}, ctx.Err()
		case errors.Is(err, context.DeadlineExceeded):
			return time.Time{}, fmt.Errorf("%s: %w (%s)", s.spec.Name, ErrTimeout, s.spec.StartTimeout)
		case errors.Is(err, ErrExited):
			return time.Time{}, fmt.Errorf("%s: %w during initialize (%v)", s.spec.Name, ErrExited, p.Err())
		}
		return time.Time{}, fmt.Errorf("%s: initialize: %w", s.spec.Name, err)
	}

	readyAt = time.Now()
	s.mu.Lock()
	s.cl = cl
	s.mu.Unlock()
	s.set(func(st *Status) {
		st.State, st.Error = Ready, ""
		st.ServerInfo, st.Instructions = res.ServerInfo, res.Instructions
	})
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
		case <-p.Done():
			code := "exit 0"
			if p.Err() != nil {
				code = p.Err().Error()
			}
			return readyAt, fmt.Errorf("%s: %w (%s)", s.spec.Name, ErrExited, code)
		case <-health.C:
			pctx, cancel := context.WithTimeout(ctx, HealthTimeout)
			err := ping(pctx, tr)
			cancel()
			if err != nil && ctx.Err() == nil {
				return readyAt, fmt.Errorf("%s: %w: %v", s.spec.Name, ErrUnhealthy, err)
			}
		}
	}
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

// initialize runs the MCP handshake, giving up as soon as the process exits.
func initialize(ctx context.Context, cl *client.Client, p *process.Process) (*mcp.InitializeResult, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-p.Done():
			cancel()
		case <-ctx.Done():
		}
	}()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "switchboard", Version: buildinfo.String()}
	res, err := cl.Initialize(ctx, req)
	if err != nil {
		// stdout's EOF can beat the exit status; give the exit a moment to land
		// so the error says the process died rather than "transport closed".
		select {
		case <-p.Done():
			return nil, ErrExited
		case <-time.After(500 * time.Millisecond):
		}
	}
	return res, err
}
