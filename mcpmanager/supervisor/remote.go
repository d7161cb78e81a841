package supervisor

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/client/transport"

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
		// instead of failing call after call.
		base = &oauth.Transport{Base: base, Auth: auth, OnNeedsLogin: lost}
	}
	var tr transport.Interface
	switch typ {
	case RemoteSSE:
		// A legacy SSE session lives and dies with its stream; a lost one is
		// restarted by the supervisor, with backoff.
		t, err := transport.NewSSE(r.URL, transport.WithHeaders(r.Headers), transport.WithHTTPClient(guard.client(base)), transport.WithSSELogger(hooks.logger))
		if err != nil {
			return nil, fmt.Errorf("sse %s: %w", r.URL, err)
		}
		t.SetConnectionLostHandler(func(err error) { lost(fmt.Errorf("%w: %v", ErrDisconnected, err)) })
		tr = t
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
		w.gone = func(err error) { lost(fmt.Errorf("%w: %v", ErrDisconnected, err)) }
		hc := guard.client(&resume.Transport{Base: base})
		t, err := transport.NewStreamableHTTP(r.URL, transport.WithHTTPHeaders(r.Headers), transport.WithContinuousListening(), transport.WithHTTPBasicClient(hc), transport.WithHTTPLogger(hooks.logger))
		if err != nil {
			return nil, fmt.Errorf("http %s: %w", r.URL, err)
		}
		tr = streamable{t, &rawSchemas{}, &atomic.Bool{}, tasks, rn}
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
	}, nil
}
