package host

import (
	"context"
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

// LogEntry is one line of a server's log: a stderr line (Level "") or
// an MCP log message with its level and logger.
type LogEntry struct {
	Level  string `json:"level"`
	Logger string `json:"logger"`
	Text   string `json:"text"`
}

// Entries is Lines with MCP log messages: minLevel (debug … emergency)
// keeps only those at that level or above, "" keeps everything. The
// list is never nil.
func (s *ServerLogs) Entries(name, minLevel string, lines int) ([]LogEntry, error) {
	sup, err := s.h.mgr.Server(name)
	if err != nil {
		return nil, err
	}
	if lines <= 0 || lines > 1000 {
		lines = 200
	}
	es := sup.Log().Entries(lines, minLevel)
	out := make([]LogEntry, 0, len(es))
	for _, e := range es {
		out = append(out, LogEntry(e))
	}
	return out, nil
}

// SetLevel asks a server that offers MCP logging for messages at level
// and above.
func (s *ServerLogs) SetLevel(ctx context.Context, name, level string) error {
	return s.h.mgr.SetLogLevel(ctx, name, level)
}
