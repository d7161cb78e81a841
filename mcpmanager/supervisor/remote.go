package supervisor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor/resume"
)

// Remote transport types.
const (
	RemoteHTTP = "http" // Streamable HTTP
	RemoteSSE  = "sse"  // legacy HTTP+SSE
)

// Remote is a server reached over HTTP. An empty Type tries Streamable HTTP
// and falls back to SSE (what most hosts call automaticSSEFallback).
type Remote struct {
	URL     string
	Type    string
	Headers map[string]string
	// OAuth holds the entry's own OAuth choices (pre-registered client,
	// scopes); the login itself needs none of them.
	OAuth oauth.Settings
}

// remoteHooks are what a remote session tells its Server and asks of it.
type remoteHooks struct {
	// logger takes mcp-go's own log lines (the server's log, never stderr).
	logger *slog.Logger
	// renewed waits for the session after one the server ended (Server.renewed).
	renewed func(ctx context.Context, old *transport.StreamableHTTP) (streamable, error)
}

// dialRemote opens the transport; the handshake happens in connect. auth,
// when set, adds the server's OAuth token to every request. The URL rules
// are checked again here, on the final URL, at every start; requests never
// leave its origin (originGuard).
func dialRemote(name string, r *Remote, typ string, auth *oauth.Authorizer, tasks *tasker, hooks remoteHooks) (*session, error) {
	if err := config.CheckURL(r.URL, config.HTTP); err != nil {
		return nil, err
	}
	guard, err := newOriginGuard(name, r.URL)
	if err != nil {
		return nil, err
	}
	dead := make(chan struct{})
	var once sync.Once
	var mu sync.Mutex
	var cause error
	lost := func(err error) {
		once.Do(func() {
			mu.Lock()
			cause = err
			mu.Unlock()
			close(dead)
		})
	}
	// The watch is under the OAuth transport: it sees a 401 as it came.
	w := &watch{base: guard}
	var base http.RoundTripper = w
	if auth != nil {
		// A refused token ends the session: the server shows "needs login"
		// instead of failing call after call. A request refused for want
		// of scopes fails alone (stepUp decides).
		base = &oauth.Transport{Base: base, Auth: auth, OnNeedsLogin: lost, OnStepUp: func(error) {}}
		base = stepUp{base: base, server: name, lost: lost}
	}
	var tr transport.Interface
	cut := &cutter{}
	switch typ {
	case RemoteSSE:
		// A legacy SSE session lives and dies with its stream; a lost one is
		// restarted by the supervisor, with backoff.
		t, err := transport.NewSSE(r.URL, transport.WithHeaders(r.Headers), transport.WithHTTPClient(guard.client(base)), transport.WithSSELogger(hooks.logger),
			transport.WithMaxMessageBytes(0)) // the guard bounds what is read (see originGuard)
		if err != nil {
			return nil, fmt.Errorf("sse %s: %w", r.URL, err)
		}
		t.SetConnectionLostHandler(func(err error) { lost(fmt.Errorf("%w: %w", ErrDisconnected, err)) })
		tr = sseTransport{t, cut}
	default:
		// Streamable HTTP has no standing connection to lose: event streams
		// resume by themselves (resume.Transport), and the health check's
		// pings find a server that went away. A session the server ended
		// (a 404 for its ID, on any request or the GET stream) ends this
		// one, and the supervisor starts the next at once.
		rn := &renewal{next: hooks.renewed}
		w.expired = func(string) {
			rn.ended.Store(true)
			lost(ErrSessionExpired)
		}
		w.gone = func(err error) { lost(fmt.Errorf("%w: %w", ErrDisconnected, err)) }
		hc := guard.client(&resume.Transport{Base: base})
		// The guard bounds what is read, at wire.MaxMessageBytes as on
		// stdio, and names that bound when it fails (see originGuard);
		// mcp-go's own (32 MiB by default since 1.6) is off.
		t, err := transport.NewStreamableHTTP(r.URL, transport.WithHTTPHeaders(r.Headers), transport.WithContinuousListening(), transport.WithHTTPBasicClient(hc), transport.WithHTTPLogger(hooks.logger),
			transport.WithHTTPMaxMessageBytes(0))
		if err != nil {
			return nil, fmt.Errorf("http %s: %w", r.URL, err)
		}
		tr = streamable{t, &rawSchemas{}, &atomic.Bool{}, tasks, rn, cut}
	}
	return &session{
		tr:   tr,
		dead: dead,
		cause: func() error {
			mu.Lock()
			defer mu.Unlock()
			return cause
		},
		close: func() { _ = tr.Close() },
		watch: w,
		cut:   cut,
	}, nil
}

// stepUp sits above the OAuth transport. A 403 asking for scopes the login
// did not grant (oauth.ErrStepUp) refuses one operation (MCP's step-up
// authorization): that request fails, saying which login fixes it, and
// the session, with the server's other tools, stays. Refused at the start
// (initialize, server/discover), nothing works without the login: the
// session ends and the server needs one.
type stepUp struct {
	base   http.RoundTripper
	server string
	lost   func(error)
}

// RoundTrip implements http.RoundTripper.
func (s stepUp) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := s.base.RoundTrip(req)
	if err == nil || !errors.Is(err, oauth.ErrStepUp) {
		return resp, err
	}
	if m := rpcMethod(req); m == string(mcp.MethodInitialize) || m == string(mcp.MethodServerDiscover) {
		s.lost(err)
		return nil, err
	}
	return nil, &StepUpError{Server: s.server, Err: err}
}

// StepUpError says a remote server refused one request for want of
// permissions its login did not grant, and which login fixes it. It
// matches oauth.ErrStepUp and ErrNeedsLogin.
type StepUpError struct {
	Server string
	Err    error // wraps oauth.ErrStepUp
}

func (e *StepUpError) Error() string {
	why := e.Err.Error()
	var oe *oauth.Error
	if errors.As(e.Err, &oe) {
		why = oe.Err.Error() // the step and URL add nothing for the user
	}
	return fmt.Sprintf("%s: %s: log in again asking for them with 'switchboard servers login %s'", e.Server, why, e.Server)
}

func (e *StepUpError) Unwrap() error { return e.Err }

// rpcMethod is the method of the JSON-RPC request req posts, if any.
func rpcMethod(req *http.Request) string {
	if req.Method != http.MethodPost || req.GetBody == nil {
		return ""
	}
	body, err := req.GetBody()
	if err != nil {
		return ""
	}
	defer body.Close()
	var m struct {
		Method string `json:"method"`
	}
	_ = json.NewDecoder(io.LimitReader(body, 1<<20)).Decode(&m)
	return m.Method
}
