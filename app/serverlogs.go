package app

import (
	"context"
	"time"
)

// LogEntryView is one line of a server's log: a stderr line (Level "") or
// an MCP log message with its level and logger.
type LogEntryView struct {
	Level  string `json:"level"`
	Logger string `json:"logger"`
	Text   string `json:"text"`
}

// ServerLogEntries returns the last lines of a server's log; a minLevel
// (debug … emergency) keeps only MCP log messages at that level or above,
// "" keeps everything, stderr included.
func (a *ServersPage) ServerLogEntries(name, minLevel string, lines int) ([]LogEntryView, error) {
	entries, err := a.h.Servers.LogEntries(name, minLevel, lines)
	if err != nil {
		return nil, err
	}
	out := []LogEntryView{}
	for _, e := range entries {
		out = append(out, LogEntryView{Level: e.Level, Logger: e.Logger, Text: e.Text})
	}
	return out, nil
}

// SetServerLogLevel asks a server for MCP log messages at level and above
// (logging/setLevel, one of serverlog.Levels); it holds until the app quits, across restarts.
func (a *ServersPage) SetServerLogLevel(name, level string) error {
	ctx, cancel := context.WithTimeout(a.bg(), 15*time.Second)
	defer cancel()
	return a.h.Servers.SetLogLevel(ctx, name, level)
}
