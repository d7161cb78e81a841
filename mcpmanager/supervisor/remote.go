package supervisor

import (
	"fmt"
	"sync"

	"github.com/mark3labs/mcp-go/client/transport"
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
}

// dialRemote opens the transport; the handshake happens in connect.
func dialRemote(r *Remote, typ string) (*session, error) {
	dead := make(chan struct{})
	var once sync.Once
	var mu sync.Mutex
	reason := "closed"
	lost := func(err error) {
		once.Do(func() {
			mu.Lock()
			reason = "connection lost: " + err.Error()
			mu.Unlock()
			close(dead)
		})
	}
	var tr transport.Interface
	switch typ {
	case RemoteSSE:
		t, err := transport.NewSSE(r.URL, transport.WithHeaders(r.Headers))
		if err != nil {
			return nil, fmt.Errorf("sse %s: %w", r.URL, err)
		}
		t.SetConnectionLostHandler(lost)
		tr = t
	default:
		// Streamable HTTP has no standing connection to lose; the health
		// check's pings find a server that went away.
		t, err := transport.NewStreamableHTTP(r.URL, transport.WithHTTPHeaders(r.Headers), transport.WithContinuousListening())
		if err != nil {
			return nil, fmt.Errorf("http %s: %w", r.URL, err)
		}
		tr = t
	}
	return &session{
		tr:   tr,
		dead: dead,
		why: func() string {
			mu.Lock()
			defer mu.Unlock()
			return reason
		},
		close: func() { _ = tr.Close() },
	}, nil
}
