package host

import (
	"sync"

	"github.com/switchboard-app/switchboard/app/chat"
)

// Requests completes q, what answers the servers' requests for a front
// door, with what the host knows: the user's sampling settings, read from
// config.json at each request (a change in Settings applies to the next
// one), and the tool calls running outside a chat turn (the Tools page's,
// an MCP App's), during which their server may sample too. Both doors call
// it, so a sampling request is decided the same way in the window and the
// CLI (chat.DecideSampling).
func (c *Chats) Requests(q *chat.Requests) *chat.Requests {
	h := c.h
	q.Sampling = func() chat.SamplingSettings {
		s, err := h.Settings.Chat()
		if err != nil {
			// A config.json that cannot be read allows nothing more than
			// the defaults: ask, during the server's own calls.
			return chat.SamplingSettings{}
		}
		return s.Sampling
	}
	q.InCall = h.calls.running
	return q
}

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

// SetSampling saves the user's sampling settings (Settings → Chat →
// Sampling) after checking them; the next sampling request follows them.
func (st *Settings) SetSampling(s chat.SamplingSettings) error {
	if err := s.Validate(); err != nil {
		return err
	}
	return st.EditChat(func(c *chat.Settings) error {
		c.Sampling = s
		return nil
	})
}
