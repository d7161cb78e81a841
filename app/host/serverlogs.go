package host

import (
	"context"

	"github.com/switchboard-app/switchboard/mcpmanager/serverlog"
)

// ServerLogs are the servers' logs: the stderr tail, the MCP log
// messages they sent, and the level they send them at.
type ServerLogs struct{ h *Host }

// Lines is the last lines (at most 1000; 200 when lines is not positive) a
// running server wrote to stderr.
func (s *ServerLogs) Lines(name string, lines int) ([]string, error) {
	sup, err := s.h.mgr.Server(name)
	if err != nil {
		return nil, err
	}
	if lines <= 0 || lines > 1000 {
		lines = 200
	}
	return sup.Log().Tail(lines), nil
}

// Entries is Lines with MCP log messages: minLevel (debug … emergency)
// keeps only those at that level or above, "" keeps everything.
func (s *ServerLogs) Entries(name, minLevel string, lines int) ([]serverlog.Entry, error) {
	sup, err := s.h.mgr.Server(name)
	if err != nil {
		return nil, err
	}
	if lines <= 0 || lines > 1000 {
		lines = 200
	}
	return sup.Log().Entries(lines, minLevel), nil
}

// SetLevel asks a server that offers MCP logging for messages at level
// and above.
func (s *ServerLogs) SetLevel(ctx context.Context, name, level string) error {
	return s.h.mgr.SetLogLevel(ctx, name, level)
}
