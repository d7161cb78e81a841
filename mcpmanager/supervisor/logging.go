package supervisor

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/serverlog"
)

// logMessage records a notifications/message in the server's log, with
// its level and logger; data that is not a string is kept as JSON.
func (s *Server) logMessage(n mcp.JSONRPCNotification) {
	f := n.Params.AdditionalFields
	level, _ := f["level"].(string)
	logger, _ := f["logger"].(string)
	text, ok := f["data"].(string)
	if !ok {
		b, _ := json.Marshal(f["data"])
		text = string(b)
	}
	s.log.AddMessage(level, logger, text)
}

// LogLevel is the minimum level asked of the server with logging/setLevel
// ("" until one is set: the server's own default).
func (s *Server) LogLevel() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logLevel
}

// SetLogLevel asks the server for messages at level and above
// (logging/setLevel), now when it is ready and again after every restart.
// A server that does not offer logging keeps the level for when it does.
func (s *Server) SetLogLevel(ctx context.Context, level string) error {
	if serverlog.Rank(level) < 0 {
		return fmt.Errorf("%s: %q: %w; use one of %s", s.spec.Name, level, ErrLogLevel, strings.Join(serverlog.Levels, ", "))
	}
	s.mu.Lock()
	s.logLevel = level
	cl := s.cl
	s.mu.Unlock()
	s.set(func(st *Status) { st.LogLevel = level })
	if cl == nil {
		return nil
	}
	return s.applyLogLevel(ctx, cl, level)
}

// applyLogLevel sends logging/setLevel when the server offers logging.
func (s *Server) applyLogLevel(ctx context.Context, cl interface {
	GetServerCapabilities() mcp.ServerCapabilities
	SetLevel(context.Context, mcp.SetLevelRequest) error
}, level string) error {
	if level == "" || cl.GetServerCapabilities().Logging == nil {
		return nil
	}
	req := mcp.SetLevelRequest{}
	req.Params.Level = mcp.LoggingLevel(level)
	if err := cl.SetLevel(ctx, req); err != nil {
		return fmt.Errorf("%s: logging/setLevel %s: %w", s.spec.Name, level, err)
	}
	// On a 2026-07-28 session mcp-go only records the level, for the _meta
	// of the requests it sends next: the calls relayed raw wait for them.
	if c, ok := cl.(interface{ GetTransport() transport.Interface }); ok {
		if t, ok := c.GetTransport().(*stdioTransport); ok {
			t.session.forget()
		}
	}
	return nil
}

// mcpgoLogger names mcp-go's lines in a server's log.
const mcpgoLogger = "mcp-go"

// transportLogger is the logger of a remote server's mcp-go transport: its
// lines ("listening to server forever", a GET stream the server does not
// offer, a response that could not be sent after a call was given up) go
// to the server's own log, at debug (info for mcp-go's warnings and
// errors), never to the process's stderr — where slog.Default would print
// them into every 'switchboard tools' and 'chat' run. None of them is an
// error of the user's: what fails a session or a call comes back as its
// error.
func (s *Server) transportLogger() *slog.Logger {
	return slog.New(&transportLog{log: s.log})
}

// transportLog is a slog.Handler writing to a serverlog.Log.
type transportLog struct {
	log   *serverlog.Log
	attrs []slog.Attr
}

func (h *transportLog) Enabled(context.Context, slog.Level) bool { return true }

func (h *transportLog) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	add := func(a slog.Attr) bool {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value.Resolve())
		return true
	}
	for _, a := range h.attrs {
		add(a)
	}
	r.Attrs(add)
	level := "debug"
	if r.Level >= slog.LevelWarn {
		level = "info"
	}
	h.log.AddMessage(level, mcpgoLogger, b.String())
	return nil
}

func (h *transportLog) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &transportLog{log: h.log, attrs: append(slices.Clone(h.attrs), attrs...)}
}

// WithGroup keeps the group's attributes unqualified: mcp-go uses none.
func (h *transportLog) WithGroup(string) slog.Handler { return h }

// stderrTail is the last n lines of the server's log for an error or a
// test connection, without mcp-go's own lines: they say how the transport
// went, not what the server said.
func (s *Server) stderrTail(n int) []string {
	var out []string
	for _, e := range s.log.Entries(0, "") {
		if e.Logger != mcpgoLogger || e.Level == "" {
			out = append(out, e.String())
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}
