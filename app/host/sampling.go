package host

import (
	"sync"
)

// serverCalls counts the tool calls running per server.
type serverCalls struct {
	mu sync.Mutex
	n  map[string]int
}

// begin counts a call of server until the returned func runs.
func (c *serverCalls) begin(server string) (end func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[server]++
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.n[server]--; c.n[server] <= 0 {
			delete(c.n, server)
		}
	}
}

// running reports whether server has a call running.
func (c *serverCalls) running(server string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[server] > 0
}
