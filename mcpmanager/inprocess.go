package mcpmanager

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// inProcessInitTimeout bounds how long AddInProcess waits for the server to
// be ready.
var inProcessInitTimeout = 30 * time.Second

// AddInProcess connects srv under name through the supervisor, like a
// ServerConfig with a Builtin that always returns srv, and waits until it
// is ready. It stays, whatever Apply is given, until RemoveInProcess or
// Close; whatever srv holds is the caller's to release after Close.
//
// Deprecated: use ServerConfig.Builtin; removed once app/ moves.
func (m *Manager) AddInProcess(name string, srv *server.MCPServer) error {
	if name == "" || srv == nil {
		return fmt.Errorf("add in-process server: a name and a server are required")
	}
	c := ServerConfig{Name: name, Builtin: &Builtin{
		Key:   fmt.Sprintf("%p", srv),
		Start: func() (*server.MCPServer, func() error, error) { return srv, nil, nil },
	}}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return fmt.Errorf("add %s: %w", name, ErrClosed)
	}
	if s, ok := m.servers[name]; ok {
		m.mu.Unlock()
		what := "a configured server"
		if s.attached {
			what = "a built-in server"
		}
		return fmt.Errorf("%w: %q is %s", ErrServerExists, name, what)
	}
	ms := m.startLocked(c, nil)
	ms.attached = true
	m.mu.Unlock()

	ctx, cancel := context.WithTimeout(m.ctx, inProcessInitTimeout)
	defer cancel()
	select {
	case <-ms.settled:
	case <-ctx.Done():
	}
	if st := ms.sup.Status(); st.State != supervisor.Ready {
		_ = m.RemoveInProcess(name)
		if st.Error != "" {
			return fmt.Errorf("%s", st.Error)
		}
		return fmt.Errorf("%s: not ready in %s: %w", name, inProcessInitTimeout, supervisor.ErrTimeout)
	}
	return nil
}

// RemoveInProcess stops a server AddInProcess added, drops its tools and
// waits until its session has ended.
//
// Deprecated: use ServerConfig.Builtin; removed once app/ moves.
func (m *Manager) RemoveInProcess(name string) error {
	m.mu.Lock()
	s, ok := m.servers[name]
	if !ok || !s.attached {
		m.mu.Unlock()
		return fmt.Errorf("%w: %q", ErrUnknownServer, name)
	}
	m.stopLocked(name)
	m.mu.Unlock()
	<-s.done
	return nil
}

// InProcess returns the names of the in-process (built-in) servers, sorted
// (nil for none).
//
// Deprecated: use ServerConfig.Builtin; removed once app/ moves.
func (m *Manager) InProcess() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var names []string
	for n, s := range m.servers {
		if s.cfg.Builtin != nil {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}
