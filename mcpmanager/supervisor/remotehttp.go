package supervisor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
	"github.com/switchboard-app/switchboard/mcpmanager/plain"
)

// What a remote server's HTTP answers tell the supervisor beyond what
// mcp-go reports: that a session ended (a 404 for a request carrying its
// Mcp-Session-Id), that the server never answered at all, and what it said
// when it refused the connection (mcp-go keeps neither the status nor the
// body of a 401 or 403 at initialize).

// maxRefusalBody is how much of a refusal's body is kept for the error.
const maxRefusalBody = 2 << 10

// refusal is a remote server's 401 or 403 answer.
type refusal struct {
	status int
	bearer bool   // it carried a Bearer challenge: OAuth's refusal
	body   string // the server's own message, trimmed
}

// watch sits in a remote server's HTTP stack under the OAuth transport, so
// it sees the server's answers as they came.
type watch struct {
	base http.RoundTripper
	// expired, when set (Streamable HTTP), is told that the server no
	// longer knows the session.
	expired func(session string)

	// gone, when set (Streamable HTTP), is told that a request of an
	// established session found nobody listening at the server's address.
	gone func(error)

	connected atomic.Bool // a TCP (or TLS) connection was made
	answered  atomic.Bool // an HTTP response came back

	mu      sync.Mutex
	refused *refusal
	// listened are the sessions whose GET stream opened: a 404 for a later
	// GET on one means the server forgot it, while a 404 for the first only
	// means it offers no GET stream.
	listened map[string]bool
}

// sendOutcome is what the watch saw of the HTTP requests of one JSON-RPC
// request (streamable.SendRequest), which carries it in its context.
type sendOutcome struct {
	sent     atomic.Bool // one reached the server's HTTP stack
	notFound atomic.Bool // the server answered a POST 404 for its session
}

type sendOutcomeKey struct{}

// withSendOutcome returns ctx carrying a new sendOutcome, and that outcome.
func withSendOutcome(ctx context.Context) (context.Context, *sendOutcome) {
	o := &sendOutcome{}
	return context.WithValue(ctx, sendOutcomeKey{}, o), o
}

// RoundTrip implements http.RoundTripper.
func (w *watch) RoundTrip(req *http.Request) (*http.Response, error) {
	seen, _ := req.Context().Value(sendOutcomeKey{}).(*sendOutcome)
	if seen != nil {
		seen.sent.Store(true)
	}
	trace := &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) { w.connected.Store(true) }}
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), trace))
	resp, err := w.base.RoundTrip(req)
	session := req.Header.Get(transport.HeaderKeySessionID)
	if err != nil {
		if session != "" && w.gone != nil && refusedDial(err) {
			// A session's server no longer takes connections: it went
			// away (stopped, crashed, its port closed). Without this, calls
			// failed one by one until the health check's ping, minutes
			// later, ended the session.
			w.gone(err)
		}
		return nil, err
	}
	w.answered.Store(true)
	if resp.StatusCode == http.StatusBadRequest && session != "" && w.expired != nil {
		resp = staleSession(resp)
	}
	switch {
	case resp.StatusCode == http.StatusNotFound && session != "" && w.expired != nil:
		// Streamable HTTP: a 404 for a request with the session's ID
		// means the session is gone and the client must start a new one.
		w.mu.Lock()
		opened := w.listened[session]
		w.mu.Unlock()
		if req.Method == http.MethodPost && seen != nil {
			seen.notFound.Store(true) // before expired, which closes the transport
		}
		if req.Method == http.MethodPost || req.Method == http.MethodGet && opened {
			w.expired(session)
		}
	case resp.StatusCode == http.StatusOK && session != "" && req.Method == http.MethodGet:
		w.mu.Lock()
		if w.listened == nil {
			w.listened = map[string]bool{}
		}
		w.listened[session] = true
		w.mu.Unlock()
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		resp.Body = w.note(resp)
	}
	return resp, nil
}

// staleSessionWords are what servers say in a 400 for a session they do not
// know: the TypeScript SDK's example servers (server-everything and the
// many servers copied from them) and the Python SDK before 1.10 say "No
// valid session ID provided", others "Invalid or expired session", "Unknown
// session", "Session not found"; a stateful server restarted under the same
// address says "Server not initialized".
var staleSessionWords = regexp.MustCompile(`(?i)session|not initiali[sz]ed`)

// staleSession returns resp as a 404 when it is a 400 whose body says the
// server does not know the session the request carried: what the spec says
// with a 404 (start a new session), many servers say with a 400, and a
// client that waited for a 404 failed every call until the health check's
// ping, minutes later. Any other 400 (a malformed request) is returned as
// it came, its body whole.
func staleSession(resp *http.Response) *http.Response {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxRefusalBody))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(b), resp.Body), resp.Body}
	if staleSessionWords.Match(b) {
		resp.StatusCode, resp.Status = http.StatusNotFound, "404 Not Found"
	}
	return resp
}

// note keeps a refusal's status, challenge and first bytes, and returns
// the body to read on, whole.
func (w *watch) note(resp *http.Response) io.ReadCloser {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxRefusalBody))
	rf := &refusal{status: resp.StatusCode, bearer: oauth.ParseChallenge(resp).Bearer(), body: serverMessage(b)}
	w.mu.Lock()
	w.refused = rf
	w.mu.Unlock()
	return struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(b), resp.Body), resp.Body}
}

// refusal is the last 401 or 403 the server answered, or nil.
func (w *watch) refusal() *refusal {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.refused
}

// serverMessage is the text of an error body: the message of the usual
// JSON shapes ({"error":"…"}, {"error":{"message":"…"}}, {"message":"…"},
// OAuth's error_description), else the body itself, on one line.
func serverMessage(b []byte) string {
	var j struct {
		Error       json.RawMessage `json:"error"`
		Message     string          `json:"message"`
		Description string          `json:"error_description"`
	}
	if json.Unmarshal(b, &j) == nil {
		var s string
		var nested struct {
			Message string `json:"message"`
		}
		switch {
		case j.Description != "":
			return clean(j.Description)
		case json.Unmarshal(j.Error, &s) == nil && s != "":
			return clean(s)
		case json.Unmarshal(j.Error, &nested) == nil && nested.Message != "":
			return clean(nested.Message)
		case j.Message != "":
			return clean(j.Message)
		}
	}
	return clean(string(b))
}

func clean(s string) string { return plain.Clip(strings.Join(strings.Fields(s), " "), 300) }

// ErrRejected means a remote server refused the connection with an HTTP status
// that no login fixes; see HTTPError.
var ErrRejected = errors.New("the server refused the connection")

// HTTPError says a remote server refused the connection and a login would
// not help: a 401 without an OAuth challenge or OAuth metadata (the server
// wants an API key or another header of its own), or a 403. It carries the
// server's own message and matches ErrRejected.
type HTTPError struct {
	Server string
	URL    string
	Status int
	Body   string // the server's message, trimmed, secrets masked
	// Header is the header the message names ("X-API-Key"), if any.
	Header string
	// Configured: the server's entry already sends Header.
	Configured bool
}

func (e *HTTPError) Error() string {
	said := ""
	if e.Body != "" {
		said = fmt.Sprintf(": %q", e.Body)
	}
	why := "HTTP 403 Forbidden"
	if e.Status == http.StatusUnauthorized {
		// Without a challenge or metadata there is nothing to log in to.
		why = "HTTP 401, and it offers no OAuth login"
	}
	var fix string
	switch {
	case e.Configured:
		fix = fmt.Sprintf("check the value of the %s header in \"headers\" of the server's config (update the secret it uses)", e.Header)
	case e.Header != "":
		fix = fmt.Sprintf(`add the %s header to "headers" in the server's config, e.g. "headers": {%q: "${secret:NAME}"} (switchboard secrets set NAME)`, e.Header, e.Header)
	default:
		fix = `add the header it asks for (an API key, say) to "headers" in the server's config, keeping its value as ${secret:NAME}`
		if e.Status == http.StatusForbidden {
			fix += ", or ask the server's operator for access"
		}
	}
	return fmt.Sprintf("%s: the server at %s refused the connection (%s)%s: %s", e.Server, e.URL, why, said, fix)
}

// Unwrap returns ErrRejected.
func (e *HTTPError) Unwrap() error { return ErrRejected }

// headerName finds the header a refusal's message asks for: an X- name
// ("missing or invalid X-API-Key header", "X-Api-Token required"), or a
// dashed word before "header" ("Api-Key header missing").
var headerName = regexp.MustCompile(`(?i)\b(x-[a-z0-9-]*[a-z0-9])\b|\b([a-z0-9]+(?:-[a-z0-9]+)+)\s+header\b`)

// rejected is the HTTPError of a refusal.
func (s *Server) rejected(rf *refusal) error {
	e := &HTTPError{Server: s.spec.Name, URL: s.redact(s.spec.Remote.URL), Status: rf.status, Body: s.redact(rf.body)}
	if m := headerName.FindStringSubmatch(rf.body); m != nil {
		e.Header = m[1] + m[2] // one of the two is empty
		for k := range s.spec.Remote.Headers {
			if strings.EqualFold(k, e.Header) {
				e.Header, e.Configured = k, true
			}
		}
	}
	return e
}

func (s *Server) redact(v string) string {
	if s.spec.Redact == nil {
		return v
	}
	return s.spec.Redact(v)
}

// PathError says a remote server's URL answered the opening request with a
// 4xx that no login or header fixes: nothing serves MCP at its path (a 404
// over Streamable HTTP and over SSE), or the SSE stream's GET of an entry
// typed "sse" was refused — most often a server that speaks Streamable HTTP
// only. mcp-go's own words ("likely a legacy SSE server", "unexpected
// status code") are its detail. It matches ErrRejected: trying again
// answers the same.
type PathError struct {
	Server, URL string
	// Status is what the SSE GET got, for an entry typed "sse"; 0: the
	// 404 over both transports.
	Status int
	Errs   []error // mcp-go's errors, one per transport tried
}

func (e *PathError) sentence() string {
	if e.Status == 0 {
		return fmt.Sprintf("%s: %s answered 404 Not Found over Streamable HTTP and over SSE: check the URL's path (servers often serve /mcp or /sse)", e.Server, e.URL)
	}
	return fmt.Sprintf(`%s: %s refused the SSE stream (HTTP %d): if the server speaks Streamable HTTP, set "type": "http" (or remove "type"); else check the URL's path (SSE servers often serve /sse)`, e.Server, e.URL, e.Status)
}

func (e *PathError) Error() string { return e.sentence() + "\n" + errors.Join(e.Errs...).Error() }

// Plain implements plain.Explainer: the sentence, and mcp-go's words behind it.
func (e *PathError) Plain() (sentence, detail string) {
	return e.sentence(), errors.Join(e.Errs...).Error()
}

// Unwrap returns ErrRejected and the errors of each transport.
func (e *PathError) Unwrap() []error { return append([]error{ErrRejected}, e.Errs...) }

// sseStatus finds the status mcp-go's SSE transport names when the stream's
// GET is refused ("start session: unexpected status code: 404").
var sseStatus = regexp.MustCompile(`unexpected status code: (4\d\d)\b`)

// pathError is the PathError of s's remote start that failed with errs
// over types, or nil when the failure is another. A function, not a
// method: the Server has methods enough.
func pathError(s *Server, types []string, errs []error) error {
	if s.spec.Remote == nil || len(errs) == 0 || len(errs) != len(types) {
		return nil
	}
	last := sseStatus.FindStringSubmatch(errs[len(errs)-1].Error())
	if last == nil || types[len(types)-1] != RemoteSSE || !slices.Contains([]string{"400", "404", "405", "406", "410", "415"}, last[1]) {
		return nil // a 401, 403 or 429 says something else
	}
	e := &PathError{Server: s.spec.Name, URL: s.redact(s.spec.Remote.URL), Errs: errs}
	switch {
	case len(errs) == 2 && errors.Is(errs[0], transport.ErrLegacySSEServer) && last[1] == "404":
	case len(errs) == 1:
		e.Status, _ = strconv.Atoi(last[1])
	default:
		return nil
	}
	return e
}

// sayPath is errs as Probe reports them: their PathError alone when they
// are one (mcp-go's guesses behind its sentence), said in the failed step
// too. A function, as pathError.
func sayPath(s *Server, types []string, errs []error, steps []ProbeStep) []error {
	perr := pathError(s, types, errs)
	if perr == nil {
		return errs
	}
	if n := len(steps); n > 0 && steps[n-1].Error != "" {
		steps[n-1].Error, _ = plain.Explain(perr)
	}
	return []error{perr}
}

// silentError says a remote server never answered an HTTP request while
// the connection opened: a listener that accepts and says nothing, or an
// address that never accepts. It matches ErrTimeout.
type silentError struct {
	server, url string
	after       time.Duration
	connected   bool
}

func (e *silentError) Error() string {
	if e.connected {
		return fmt.Sprintf("%s: the server at %s accepted the connection but did not answer in %s, so it did not finish the MCP handshake: check the URL (path /sse or /mcp) and that the server is up", e.server, e.url, e.after)
	}
	return fmt.Sprintf("%s: could not connect to the server at %s in %s, so it did not finish the MCP handshake: check the URL and that the server is up and reachable", e.server, e.url, e.after)
}

func (e *silentError) Unwrap() error { return ErrTimeout }

// refusedDial reports whether err is a connection the server's host
// refused (nothing listens on the port, or the host is unreachable), not a
// request that failed or timed out on a connection made.
func refusedDial(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial" && (errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EHOSTUNREACH) ||
		errors.Is(err, syscall.ENETUNREACH) || strings.Contains(op.Err.Error(), "refused")) // Windows' WSAECONNREFUSED
}

// ErrSessionExpired means a Streamable HTTP server answered 404 for a request
// carrying the session's ID, or a 400 saying it does not know the session
// (staleSession): it restarted, was redeployed, or expired the session.
// The spec has the client start a new session.
var ErrSessionExpired = errors.New("the server ended the session (it no longer knows its Mcp-Session-Id)")

// renewal is how a Streamable HTTP session that the server ended sends the
// request that found out once more, on the session that follows.
type renewal struct {
	// ended: the server answered 404 for this session's ID (watch). mcp-go
	// says ErrSessionTerminated for any 404, also to a request that carried
	// no session (server/discover on a URL nothing serves).
	ended atomic.Bool
	// next waits for the next session (Server.renewed); nil: no retry.
	next func(ctx context.Context, old *transport.StreamableHTTP) (streamable, error)
}

// retry sends req, which failed with ErrSessionTerminated on the old
// transport, on the next session, when the session did end: the server did
// not run it, since it answered 404 without knowing the session. A ping is
// the health check of the old session and is not sent again.
func (r *renewal) retry(ctx context.Context, old *transport.StreamableHTTP, req transport.JSONRPCRequest, err error) (*transport.JSONRPCResponse, error) {
	if !r.ended.Load() || r.next == nil || req.Method == string(mcp.MethodPing) || req.Method == string(mcp.MethodInitialize) {
		return nil, err
	}
	next, nerr := r.next(ctx, old)
	if nerr != nil {
		return nil, fmt.Errorf("%w, and %w", err, nerr)
	}
	// A fresh id: the new session's client numbers its own requests.
	req.ID = mcp.NewRequestId(fmt.Sprintf("%v-renewed", req.ID.Value()))
	return next.send(ctx, req)
}

// renewed waits for the session that follows the one on old, as Run
// starts it at once (see Run), and returns its transport. It gives up when
// that start fails, ctx ends, or after StartTimeout and HealthTimeout.
func (s *Server) renewed(ctx context.Context, old *transport.StreamableHTTP) (streamable, error) {
	limit := time.NewTimer(s.spec.StartTimeout + HealthTimeout)
	defer limit.Stop()
	for {
		s.mu.Lock()
		cl, st, changed := s.cl, s.status, s.changed
		s.mu.Unlock()
		if cl != nil && st.State == Ready {
			if t, ok := cl.GetTransport().(streamable); ok && t.StreamableHTTP != old {
				return t, nil
			}
		}
		if st.State != Ready && st.State != Starting {
			why := st.Error
			if why == "" {
				why = fmt.Sprintf("%s: server is %s", s.spec.Name, st.State)
			}
			return streamable{}, fmt.Errorf("no new session could be started: %s", why)
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return streamable{}, ctx.Err()
		case <-limit.C:
			return streamable{}, fmt.Errorf("%s: no new session was ready after %s", s.spec.Name, s.spec.StartTimeout+HealthTimeout)
		}
	}
}
