package mcpmanager

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/app/buildinfo"
	"github.com/switchboard-app/switchboard/mcpmanager/registry"
)

// Errors of in-process servers.
var (
	ErrServerExists = errors.New("a server with that name is already registered")
	ErrClosed       = errors.New("the manager is closed")
)

// InProcessCallTimeout is the per-call limit of in-process (built-in)
// servers: longer than the registry default, since adding a large folder to
// the content store is one call. Cancelling the caller's context still ends
// a call at once.
var InProcessCallTimeout = 30 * time.Minute

// inProcessInitTimeout bounds connecting and initializing an in-process server.
const inProcessInitTimeout = 30 * time.Second

// AddInProcess connects srv (a built-in server) through mcp-go's in-process
// transport, initializes it and registers it under name, so its tools are
// listed and called through the registry exactly like an external server's
// (name__tool), its progress and list_changed notifications included.
// Manager.Close disconnects it; whatever srv itself holds (open indexes) is
// the caller's to release after Close.
//
//	srv, closeStores, err := contentstore.Builtin.Start(builtin.Config{Root: dir.Stores()})
//	err = m.AddInProcess(contentstore.Builtin.Name, srv)
//	...
//	m.Close(ctx)
//	closeStores()
func (m *Manager) AddInProcess(name string, srv *server.MCPServer) error {
	if name == "" || srv == nil {
		return fmt.Errorf("add in-process server: a name and a server are required")
	}
	if m.ctx.Err() != nil {
		return fmt.Errorf("add %s: %w", name, ErrClosed)
	}
	cl, err := client.NewInProcessClient(srv)
	if err != nil {
		return fmt.Errorf("%s: connect: %w", name, err)
	}
	cl.OnNotification(func(n mcp.JSONRPCNotification) { m.reg.HandleNotification(name, n) })
	ctx, cancel := context.WithTimeout(m.ctx, inProcessInitTimeout)
	defer cancel()
	if err := cl.Start(ctx); err != nil {
		return fmt.Errorf("%s: connect: %w", name, err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "switchboard", Version: buildinfo.String()}
	if _, err := cl.Initialize(ctx, req); err != nil {
		cl.Close()
		return fmt.Errorf("%s: initialize: %w", name, err)
	}

	m.mu.Lock()
	defer m.mu.Unlock()
	fail := func(err error) error {
		cl.Close()
		return err
	}
	if m.closed {
		return fail(fmt.Errorf("add %s: %w", name, ErrClosed))
	}
	if _, ok := m.servers[name]; ok {
		return fail(fmt.Errorf("%w: %q is a configured server", ErrServerExists, name))
	}
	m.ipMu.Lock()
	defer m.ipMu.Unlock()
	if _, ok := m.inproc[name]; ok {
		return fail(fmt.Errorf("%w: %q is a built-in server", ErrServerExists, name))
	}
	ip := &inProcess{name: name, client: cl, done: m.ctx.Done()}
	if m.inproc == nil {
		m.inproc = map[string]*inProcess{}
	}
	m.inproc[name] = ip
	m.reg.Add(ip)
	return nil
}

// RemoveInProcess disconnects an in-process server and drops its tools.
func (m *Manager) RemoveInProcess(name string) error {
	m.ipMu.Lock()
	ip := m.inproc[name]
	delete(m.inproc, name)
	m.ipMu.Unlock()
	if ip == nil {
		return fmt.Errorf("%w: %q", ErrUnknownServer, name)
	}
	m.reg.Remove(name)
	return ip.client.Close()
}

// InProcess returns the names of the in-process servers, sorted (nil for none).
func (m *Manager) InProcess() []string {
	m.ipMu.Lock()
	defer m.ipMu.Unlock()
	if len(m.inproc) == 0 {
		return nil
	}
	names := make([]string, 0, len(m.inproc))
	for n := range m.inproc {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// closeInProcess disconnects every in-process server (Close calls it).
func (m *Manager) closeInProcess() {
	m.ipMu.Lock()
	all := m.inproc
	m.inproc = nil
	m.ipMu.Unlock()
	for name, ip := range all {
		m.reg.Remove(name)
		_ = ip.client.Close()
	}
}

// inProcess adapts an in-process server to the registry.
type inProcess struct {
	name   string
	client *client.Client
	done   <-chan struct{} // the manager's context
}

func (s *inProcess) Name() string               { return s.name }
func (s *inProcess) CallTimeout() time.Duration { return InProcessCallTimeout }
func (s *inProcess) Client() (registry.Client, error) {
	select {
	case <-s.done:
		return nil, fmt.Errorf("%s: %w", s.name, ErrClosed)
	default:
	}
	return s.client, nil
}
