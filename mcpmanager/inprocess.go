package mcpmanager

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
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
	set := m.inProcessSet()
	set.mu.Lock()
	defer set.mu.Unlock()
	if _, ok := set.servers[name]; ok {
		return fail(fmt.Errorf("%w: %q is a built-in server", ErrServerExists, name))
	}
	ip := &inProcess{name: name, client: cl, done: m.ctx.Done()}
	set.servers[name] = ip
	m.reg.Add(ip)
	return nil
}

// RemoveInProcess disconnects an in-process server and drops its tools.
func (m *Manager) RemoveInProcess(name string) error {
	v, ok := inProcessSets.Load(m)
	if !ok {
		return fmt.Errorf("%w: %q", ErrUnknownServer, name)
	}
	set := v.(*inProcessSet)
	set.mu.Lock()
	ip := set.servers[name]
	delete(set.servers, name)
	set.mu.Unlock()
	if ip == nil {
		return fmt.Errorf("%w: %q", ErrUnknownServer, name)
	}
	m.reg.Remove(name)
	return ip.client.Close()
}

// InProcess returns the names of the in-process servers, sorted.
func (m *Manager) InProcess() []string {
	v, ok := inProcessSets.Load(m)
	if !ok {
		return nil
	}
	set := v.(*inProcessSet)
	set.mu.Lock()
	defer set.mu.Unlock()
	names := make([]string, 0, len(set.servers))
	for n := range set.servers {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// inProcessSets holds each Manager's in-process servers, created on the
// first AddInProcess; the set closes itself when the Manager's context ends
// (Manager.Close cancels it).
var inProcessSets sync.Map // *Manager → *inProcessSet

type inProcessSet struct {
	mu      sync.Mutex
	servers map[string]*inProcess
	closed  chan struct{} // closed once every server is disconnected
}

// inProcessSet returns m's set, creating it; m.mu is held.
func (m *Manager) inProcessSet() *inProcessSet {
	v, loaded := inProcessSets.LoadOrStore(m, &inProcessSet{servers: map[string]*inProcess{}, closed: make(chan struct{})})
	set := v.(*inProcessSet)
	if !loaded {
		go func() {
			<-m.ctx.Done()
			m.closeInProcess()
		}()
	}
	return set
}

// closeInProcess disconnects every in-process server and forgets the set.
func (m *Manager) closeInProcess() {
	v, ok := inProcessSets.LoadAndDelete(m)
	if !ok {
		return
	}
	set := v.(*inProcessSet)
	set.mu.Lock()
	all := set.servers
	set.servers = map[string]*inProcess{}
	set.mu.Unlock()
	for name, ip := range all {
		m.reg.Remove(name)
		_ = ip.client.Close()
	}
	close(set.closed)
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
