package supervisor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/switchboard-app/switchboard/mcpmanager/process"
	"github.com/switchboard-app/switchboard/mcpmanager/sandbox"
	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// dialStdio starts the process and speaks JSON-RPC over its stdin and
// stdout. Stdout is read through a wire.Reader: a message longer than
// wire.MaxMessageBytes ends the session (dead closes, cause names the
// limit) instead of being buffered whole.
func (s *Server) dialStdio(ctx context.Context) (*session, error) {
	spec := s.spec.Process
	if s.spec.Sandbox != nil {
		// The roots as they are now: a sandbox is built once per start.
		policy := *s.spec.Sandbox
		policy.Roots = s.Roots()
		var err error
		if spec, err = sandbox.Prepare(ctx, spec, policy); err != nil {
			return nil, err
		}
	}
	p, err := process.Start(spec)
	if err != nil {
		return nil, err
	}
	logged := make(chan struct{})
	s.mu.Lock()
	s.logged = logged
	s.mu.Unlock()
	go func() {
		defer close(logged)
		s.log.Consume(p.Stderr) // until EOF: every line, including the last words of a crash
		p.Stderr.Close()
	}()
	out := wire.NewReader(p.Stdout, 0)
	dead := make(chan struct{})
	go func() {
		select {
		case <-p.Done():
		case <-out.Failed():
		}
		close(dead)
	}()
	tr := wire.New(out, p.Stdin)
	tr.SetStrayHandler(s.logStray)
	pid := p.PID()
	lost := func(rctx context.Context) error { return lostCall(rctx, s, ctx, pid, p.Done(), p.Err) }
	return &session{
		tr:    &stdioTransport{Transport: tr, out: out, tasks: s.tasker(), lost: lost},
		pid:   p.PID(),
		dead:  dead,
		out:   out,
		cause: out.Err,
		why: func() string {
			if p.Err() != nil {
				return p.Err().Error()
			}
			return "exit 0"
		},
		close: func() {
			stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), process.StopGrace+process.TermGrace+process.KillGrace+time.Second)
			defer cancel()
			_ = p.Stop(stopCtx)
			p.Stdout.Close() // the session is over; release the pipe
		},
		abort: func() {
			stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), process.AbortGrace+process.TermGrace+process.KillGrace+time.Second)
			defer cancel()
			_ = p.Abort(stopCtx)
			p.Stdout.Close()
		},
	}, nil
}

// sandboxRefused reports a sandbox that cannot run on this system, or a
// folder it refuses to open: a restart would fail the same way until the
// user changes something.
func sandboxRefused(err error) bool {
	for _, e := range []error{sandbox.ErrNoBubblewrap, sandbox.ErrNoNamespaces, sandbox.ErrUnsupported, sandbox.ErrNoPrlimit, sandbox.ErrEscape} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// stdioTransport is the stdio transport (wire.Transport: one pass over each
// message) reading through a bounded reader. A request that times out says
// what the stream showed ("no complete message after 60s, 1234 bytes
// pending"); one cut off by an oversized message names the limit.
type stdioTransport struct {
	*wire.Transport
	out     *wire.Reader
	schemas rawSchemas
	tasks   *tasker
	session sessionMeta // for the calls relayed raw (rawcall.go)
	// lost says why a request got no answer when the session ended
	// (lostCall); nil when it cannot tell.
	lost func(ctx context.Context) error
}

func (t *stdioTransport) keptSchemas() *rawSchemas { return &t.schemas }

// SendRequest implements transport.Interface (see exchange).
func (t *stdioTransport) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	t.session.note(req.Params)
	res, err := exchange(ctx, t.Transport.SendRequest, req, &t.schemas, t.tasks, nil)
	return res, t.annotate(ctx, err)
}

// annotate says more of a request's error than the transport can: the
// message over the limit that ended the session, the process that ended
// during the request (StoppedError), what a stalled stream was doing.
func (t *stdioTransport) annotate(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if lerr := t.out.Err(); lerr != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w: %w", err, lerr)
	}
	if errors.Is(err, transport.ErrTransportClosed) && t.lost != nil {
		if why := t.lost(ctx); why != nil {
			return why
		}
	}
	return t.out.Annotate(err)
}

// maxStrayBytes bounds what the log keeps of one stray stdout line.
const maxStrayBytes = 300

// logStray keeps in the server's log a line it printed to stdout that is
// not MCP (a banner, a log line), which MCP clients drop: otherwise the
// reason a server "says nothing" would be nowhere to read.
func (s *Server) logStray(line []byte) {
	text := strings.ToValidUTF8(string(bytes.TrimSpace(line)), "?")
	if len(text) > maxStrayBytes {
		text = strings.ToValidUTF8(text[:maxStrayBytes], "") + "…"
	}
	s.log.Add("stdout, not MCP (ignored): " + text)
}
