package supervisor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"strings"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/client/transport"
)

// LostError is a call's error when the connection to a remote server was
// lost before the server answered: mcp-go says only "context canceled"
// (Streamable HTTP, whose session is closed under the call) or "connection
// has been closed" (SSE). It names the server, what happened to the
// connection, and what follows, so the person or model that made the call
// knows whether calling again will work. It matches ErrDisconnected and
// transport.ErrTransportClosed.
type LostError struct {
	Server string
	// How is what happened to the connection: "nothing listens at its
	// address any more", "the server ended the session".
	How string
	// Next is what the supervisor did about it: Restarting (or already
	// Ready again), Error (no more attempts), or Stopped (Switchboard
	// disconnected: switched off, removed, its settings changed, quitting).
	Next State
}

func (e *LostError) Error() string {
	switch e.Next {
	case Stopped, Disabled:
		return fmt.Sprintf("Switchboard disconnected from %s during the call (it was stopped, switched off or its settings changed)", e.Server)
	case Error:
		return fmt.Sprintf("the connection to %s was lost during the call (%s); Switchboard does not reconnect again (it failed too often): see the Servers page", e.Server, e.How)
	}
	return fmt.Sprintf("the connection to %s was lost during the call (%s); Switchboard is reconnecting — call again", e.Server, e.How)
}

// Unwrap lets errors.Is find ErrDisconnected and transport.ErrTransportClosed.
func (e *LostError) Unwrap() []error { return []error{ErrDisconnected, transport.ErrTransportClosed} }

// remoteCut is the error of a request on a remote session that got no
// answer because the session ended under it: a *LostError once the session
// is known to be lost (at most LostWait) or Switchboard ended it (run is
// done), or nil — err stays as it is — when the caller gave up (ctx), the
// server answered, or the session lives on. A login the server asks for
// is said by the session's own error (NeedsLogin), not here.
func remoteCut(ctx context.Context, s *Server, run context.Context, sess *session, err error) error {
	if err == nil || ctx.Err() != nil || !cutOff(err) {
		return nil
	}
	if run.Err() != nil {
		return &LostError{Server: s.spec.Name, Next: Stopped}
	}
	wait, cancel := context.WithTimeout(ctx, LostWait)
	defer cancel()
	select {
	case <-sess.dead:
	case <-run.Done():
		return &LostError{Server: s.spec.Name, Next: Stopped}
	case <-wait.Done():
		return nil
	}
	cause := sess.cause()
	if errors.Is(cause, ErrNeedsLogin) {
		return nil
	}
	return &LostError{Server: s.spec.Name, How: lostWords(cause), Next: nextAfter(wait, s, 0)}
}

// lostWords says what happened to a remote connection, from the cause its
// session ended with.
func lostWords(cause error) string {
	switch {
	case errors.Is(cause, ErrSessionExpired):
		return "the server ended the session"
	case refusedDial(cause):
		return "nothing listens at its address any more"
	}
	return "the connection closed"
}

// cutOff reports whether err is what a request whose connection went says:
// mcp-go's Streamable HTTP cancels it when the transport closes under it
// (context.Canceled while the caller's context lives) or finds the
// transport closed; its SSE says "connection has been closed"; a response
// stream that broke says EOF or a network error. A refusal or an answer
// of the server is none of these.
func cutOff(err error) bool {
	var ne net.Error
	return errors.Is(err, context.Canceled) || errors.Is(err, transport.ErrTransportClosed) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &ne) ||
		strings.Contains(err.Error(), "connection has been closed")
}

// cutter says why a request on a remote session got no answer when the
// session ended under it (remoteCut). It is armed once the session is
// ready: a handshake that fails says its own error. The zero cutter, and a
// nil one, return errors as they are.
type cutter struct {
	why atomic.Pointer[func(ctx context.Context, err error) error]
}

// arm sets what annotate asks.
func (c *cutter) arm(why func(ctx context.Context, err error) error) { c.why.Store(&why) }

// annotate returns the LostError for err when the session's end cut the
// request off, else err.
func (c *cutter) annotate(ctx context.Context, err error) error {
	if c == nil || err == nil {
		return err
	}
	why := c.why.Load()
	if why == nil {
		return err
	}
	if lost := (*why)(ctx, err); lost != nil {
		return lost
	}
	return err
}

// sseTransport is a legacy SSE session's transport, whose requests cut off
// by the lost stream say so (cutter).
type sseTransport struct {
	*transport.SSE
	cut *cutter
}

// SendRequest implements transport.Interface.
func (t sseTransport) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	res, err := t.SSE.SendRequest(ctx, req)
	return res, t.cut.annotate(ctx, err)
}

// unreachable reports whether err ended or failed a remote server s whose
// address worked before in this Run and now does not answer: nothing
// listens there, the host or network is unreachable, its name does not
// resolve, a gateway in front answers 502, 503 or 504, or the connection
// was lost or stopped answering pings — a network that went down, a laptop
// asleep, a server being redeployed behind its load balancer. Such
// a server is tried again every MaxRestartDelay without limit (unless its
// restart is off), where a crash stops after its attempts: it comes back
// by itself when the network or the server does. A function, as pathError.
func unreachable(s *Server, err error) bool {
	s.mu.Lock()
	connected := s.connected
	s.mu.Unlock()
	if !connected || s.spec.Restart.Disabled || errors.Is(err, ErrNeedsLogin) || errors.Is(err, ErrRejected) || errors.Is(err, ErrRefused) {
		return false
	}
	var dns *net.DNSError
	var silent *silentError
	return refusedDial(err) || errors.As(err, &dns) || errors.As(err, &silent) ||
		errors.Is(err, ErrDisconnected) || errors.Is(err, ErrUnhealthy) || gatewayDown.MatchString(err.Error())
}

// keepsTrying ends the status of an unreachable server: nobody has to
// press Restart.
const keepsTrying = "Switchboard keeps trying to reconnect (every %s at most)."

// gatewayDown finds the status of a gateway whose server behind it is down
// in mcp-go's errors ("request failed with status 502: …", SSE's
// "unexpected status code: 503").
var gatewayDown = regexp.MustCompile(`status (?:code: )?50[234]\b`)
