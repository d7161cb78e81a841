package gateway

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// MaxInflight bounds the messages a stdio session handles at once (see
// ServeStdio). A variable so tests can lower it.
var MaxInflight = 64

// PassAfter is how long the worker that read a message handles it before
// another worker starts reading the messages after it (see ServeStdio). A
// variable so tests can change it.
var PassAfter = time.Millisecond

// DrainTimeout bounds how long a stdio session, once its input has ended,
// waits for the answers and notifications it is still writing. A client
// that closes its end of stdin and then waits for the server to exit
// without reading stdout (the MCP stdio shutdown) would otherwise hold
// 'switchboard serve' forever in a write to a full pipe.
var DrainTimeout = 3 * time.Second

// ServeStdio serves the gateway as one MCP session over newline-delimited
// JSON-RPC: requests are read from in, responses and notifications written
// to out. It returns nil when in reaches EOF or ctx ends, after every
// request it started has finished (their contexts are cancelled first). A
// line over wire.MaxMessageBytes ends the session with a *wire.LimitError
// (wire.ErrTooLarge): a client sending one is broken, and reading it whole
// would let it exhaust memory.
//
// 'switchboard serve' runs it in place of mcp-go's server.StdioServer. On
// the proxy's hot path every cost is paid on top of the server's own, and
// mcp-go reads each line on a fresh goroutine, queues tool calls to a
// worker pool, and decodes a tools/call up to seven times before the tool
// runs. Here the goroutine that read a message handles it and hands
// reading on to another, so a call reaches the router without a
// scheduler hop, and a plain tools/call is decoded once and its result
// relayed undecoded (fastCall). The call itself is callTool, as for a
// call over HTTP, so both transports answer a call alike. Everything else
// (initialize, ping, tools/list, cancellation, logging, errors) goes to the
// MCP server as is, and its notifications (list_changed, progress) are
// written as they come.
//
// The worker that read a message keeps the turn while it handles it, and
// reads the next one itself, when the handling is quick: passing the turn
// wakes another goroutine (and, with an idle processor, another thread) for
// every message, which on a sequential client's call costs more than the
// rest of the proxy's work. It passes the turn at once when the next
// message is already read in (a client that sends without waiting), and
// after PassAfter otherwise, so a call that takes longer (or waits for the
// client's answer to a server's question) never holds back the messages
// after it for more than that.
//
// At most MaxInflight messages are handled at once: past that, nothing more
// is read until one is done, so a client that sends without reading the
// answers (its pipe full, every handler blocked writing) is held back by
// its own pipe instead of growing the gateway's memory.
//
// When ctx ends while in is blocked in a read that cannot be interrupted
// (a terminal, a blocking pipe), that one read goroutine lives on until in
// is closed, as with mcp-go's own stdio server.
func (g *Gateway) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	return g.serveStream(ctx, in, out, &stdioSession{id: "stdio", notes: make(chan mcp.JSONRPCNotification, 256)})
}

// serveStream serves one session over a newline-delimited stream
// (ServeStdio, ServeApp).
func (g *Gateway) serveStream(ctx context.Context, in io.Reader, out io.Writer, sess *stdioSession) error {
	if err := g.srv.RegisterSession(ctx, sess); err != nil {
		return fmt.Errorf("gateway: register stdio session: %w", err)
	}
	defer g.srv.UnregisterSession(context.WithoutCancel(ctx), sess.SessionID())
	ctx, cancel := context.WithCancel(g.srv.WithContext(ctx, sess))
	defer cancel()

	w := wire.NewWriter(out)
	sess.w.Store(w) // requests to the client (sampling, elicitation) go out here
	var notesDone sync.WaitGroup
	notesDone.Go(func() {
		for {
			select {
			case n := <-sess.notes:
				_ = w.WriteJSON(n) // a dead client shows up as EOF on in
			case <-ctx.Done():
				return
			}
		}
	})

	// handlers counts messages being handled; once closed is set no new
	// one starts, so none writes to out after ServeStdio returns, unless
	// the client stopped reading (see DrainTimeout).
	var (
		mu       sync.Mutex
		closed   bool
		handlers sync.WaitGroup
	)
	begin := func() bool {
		mu.Lock()
		defer mu.Unlock()
		if closed {
			return false
		}
		handlers.Add(1)
		return true
	}
	calls := &inflight{cancel: map[string]*context.CancelFunc{}}
	readDone := make(chan error, 1) // exactly one reader ever reports
	rd := &readers{ctx: ctx, r: wire.NewLineReader(in, 0), turn: make(chan struct{}), done: readDone, begin: begin,
		handle: func(line []byte) {
			defer handlers.Done()
			if !sess.out.answer(line) { // else: the client's answer to our request
				g.handle(ctx, line, w, calls)
			}
		}}
	rd.workers.Store(1)
	go rd.work()

	var err error
	select {
	case err = <-readDone:
	case <-ctx.Done():
	}
	cancel() // releases handlers still waiting on a server
	mu.Lock()
	closed = true
	mu.Unlock()
	drained := make(chan struct{})
	go func() {
		handlers.Wait()
		notesDone.Wait()
		close(drained)
	}()
	select {
	case <-drained:
	case <-time.After(DrainTimeout):
		// A write the client never reads stays blocked until out is
		// closed (or the process exits); the session ends regardless.
	}
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// readers read one session's messages, taking turns (leader/followers):
// the worker holding the turn reads a message and handles it itself, with
// no scheduler hop before the call, and passes the turn on (to an idle
// worker, or a new one) when the next message is waiting or the handling
// takes longer than PassAfter; else it reads the next message itself. Idle
// workers are kept: a fresh goroutine per message would grow its stack
// again for every call. At MaxInflight workers the reader keeps the turn:
// it reads its next message only after handling this one.
type readers struct {
	ctx     context.Context // the session's: once it ends no turn is passed
	r       *wire.LineReader
	turn    chan struct{}
	workers atomic.Int32
	done    chan<- error // the reader that meets the end (or ctx's) reports it
	begin   func() bool  // counts a message in; false once the session closed
	handle  func(line []byte)
}

// pass passes the turn to another worker, and reports whether one took it.
func (rd *readers) pass() bool {
	if rd.ctx.Err() != nil {
		return false // the session is ending: nothing more is read
	}
	select {
	case rd.turn <- struct{}{}:
		return true
	default:
		if rd.workers.Add(1) <= int32(MaxInflight) {
			go rd.work()
			return true
		}
		rd.workers.Add(-1)
		return false
	}
}

// work is one worker: it reads and handles messages while it holds the
// turn, and waits for the turn otherwise.
func (rd *readers) work() {
	defer rd.workers.Add(-1)
	for {
		line, err := rd.r.Next()
		if len(line) > 0 && rd.begin() {
			var h *handoff
			if err == nil {
				h = &handoff{pass: rd.pass}
				if rd.r.Buffered() > 0 {
					h.now()
				} else {
					h.timer = time.AfterFunc(PassAfter, h.now)
				}
			}
			rd.handle(line)
			if h != nil && h.end() {
				select {
				case <-rd.turn: // read the next message
					continue
				case <-rd.ctx.Done():
					return
				}
			}
		}
		if err != nil || rd.ctx.Err() != nil {
			rd.done <- err
			return
		}
	}
}

// handoff decides once whether the worker handling a message passes the
// reading turn on (now, from its timer or at once) or keeps it (end):
// whichever comes first wins. now may run on the timer's goroutine.
type handoff struct {
	pass  func() bool // passes the turn; false when no worker may start
	timer *time.Timer

	mu      sync.Mutex
	decided bool
	passed  bool
}

// now passes the turn, unless the handling has ended.
func (h *handoff) now() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.decided {
		h.decided, h.passed = true, h.pass()
	}
}

// end is called when the message is handled: it reports whether the turn
// was passed meanwhile (the worker then waits for it again); if not, the
// worker keeps it.
func (h *handoff) end() bool {
	if h.timer != nil {
		h.timer.Stop()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.decided = true
	return h.passed
}

// handle answers one message. A panic in a handler must not end the
// session: the request gets an internal error, as mcp-go's stdio server
// answers it.
func (g *Gateway) handle(ctx context.Context, line []byte, w *wire.Writer, calls *inflight) {
	defer func() {
		if p := recover(); p != nil {
			var req struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal(line, &req) == nil && len(req.ID) > 0 && string(req.ID) != "null" {
				type rpcError struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				}
				_ = w.WriteJSON(struct {
					JSONRPC string          `json:"jsonrpc"`
					ID      json.RawMessage `json:"id"`
					Error   rpcError        `json:"error"`
				}{mcp.JSONRPC_VERSION, req.ID, rpcError{mcp.INTERNAL_ERROR, fmt.Sprintf("internal error: %v", p)}})
			}
		}
	}()
	if g.fastCall(ctx, line, w, calls) {
		return
	}
	if resp := skillsOf(g).answerSkills(ctx, line); resp != nil {
		_ = w.WriteJSON(resp)
		return
	}
	if resp := g.srv.HandleMessage(ctx, line); resp != nil {
		_ = w.WriteJSON(resp)
	}
}

// stdioSession is the one client of a stdio gateway. The MCP server keeps
// client info, capabilities and the log level in it; notifications go to
// notes, which ServeStdio drains.
type stdioSession struct {
	id          string // unique among the gateway's sessions
	app         string // the attached app's name (ServeApp), "" for stdio
	notes       chan mcp.JSONRPCNotification
	w           atomic.Value // *wire.Writer, for requests to the client
	out         outgoing     // those requests, waiting for answers
	version     atomic.Value // string: the protocol version initialize negotiated
	initialized atomic.Bool
	level       atomic.Value // mcp.LoggingLevel
	info        atomic.Value // mcp.Implementation
	caps        atomic.Value // mcp.ClientCapabilities
}

var (
	_ server.SessionWithLogging    = (*stdioSession)(nil)
	_ server.SessionWithClientInfo = (*stdioSession)(nil)
)

func (s *stdioSession) SessionID() string { return s.id }
func (s *stdioSession) NotificationChannel() chan<- mcp.JSONRPCNotification {
	return s.notes
}
func (s *stdioSession) Initialize()       { s.initialized.Store(true) }
func (s *stdioSession) Initialized() bool { return s.initialized.Load() }
func (s *stdioSession) SetLogLevel(l mcp.LoggingLevel) {
	s.level.Store(l)
}
func (s *stdioSession) GetLogLevel() mcp.LoggingLevel {
	if l, ok := s.level.Load().(mcp.LoggingLevel); ok {
		return l
	}
	return mcp.LoggingLevelError
}
func (s *stdioSession) GetClientInfo() mcp.Implementation {
	i, _ := s.info.Load().(mcp.Implementation)
	return i
}
func (s *stdioSession) SetClientInfo(i mcp.Implementation) { s.info.Store(i) }
func (s *stdioSession) GetClientCapabilities() mcp.ClientCapabilities {
	c, _ := s.caps.Load().(mcp.ClientCapabilities)
	return c
}
func (s *stdioSession) SetClientCapabilities(c mcp.ClientCapabilities) {
	s.caps.Store(c)
}

// callRequest is the part of a tools/call request the fast path reads.
type callRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Meta      json.RawMessage `json:"_meta"` // decoded by metaCache
		Task      json.RawMessage `json:"task"`
		RequestID json.RawMessage `json:"requestId"` // notifications/cancelled
		// A 2026-07-28 client's retry that answers a question (relay.go).
		RequestState   json.RawMessage `json:"requestState"`
		InputResponses json.RawMessage `json:"inputResponses"`
	} `json:"params"`
}

// parseCall decodes a tools/call or notifications/cancelled in one pass
// over the line (wire.Parse validates all of it, as json.Unmarshal would),
// keeping the arguments as the bytes that came: a 5 MB argument is not
// scanned again, nor copied. Anything it cannot read goes to the general
// path, which answers it as mcp-go does.
func parseCall(line []byte) (req callRequest, ok bool) {
	m, err := wire.Parse(line)
	if err != nil {
		return req, false
	}
	req.JSONRPC, req.ID, req.Method = wire.String(m.JSONRPC), m.ID, wire.String(m.Method)
	if m.Params == nil || string(m.Params) == "null" {
		return req, true
	}
	var bad error
	err = wire.Walk(m.Params, false, func(key, v []byte) {
		switch wire.String(key) {
		case "name":
			bad = cmp.Or(bad, json.Unmarshal(v, &req.Params.Name))
		case "arguments":
			req.Params.Arguments = v
		case "_meta":
			if string(v) != "null" {
				req.Params.Meta = v
			}
		case "task":
			req.Params.Task = v
		case "requestId":
			req.Params.RequestID = v
		case "requestState":
			req.Params.RequestState = v
		case "inputResponses":
			req.Params.InputResponses = v
		}
	})
	return req, err == nil && bad == nil
}

// fastCall serves a plain tools/call (and notes notifications/cancelled for
// the calls it serves) straight into the router, and reports whether it
// did. The general path decodes the same request up to seven times
// (protocol _meta, tracing _meta, typed params with custom decoders) before
// reaching the tool, which was most of the proxy's per-call CPU. Anything
// unusual (task-augmented, unknown tool, a protocol version this SDK would
// reject) is left to the general path, which answers it as mcp-go does.
func (g *Gateway) fastCall(ctx context.Context, line []byte, w *wire.Writer, calls *inflight) bool {
	// Cheap filter first: most non-call messages never pay for a decode.
	if !bytes.Contains(line, []byte(`"tools/call"`)) && !bytes.Contains(line, []byte(`"notifications/cancelled"`)) {
		return false
	}
	req, ok := parseCall(line)
	if !ok || req.JSONRPC != mcp.JSONRPC_VERSION {
		return false
	}
	if req.Method == string(mcp.MethodNotificationCancelled) {
		calls.stop(string(req.Params.RequestID))
		return false // mcp-go still cancels the calls it serves
	}
	if req.Method != string(mcp.MethodToolsCall) || len(req.ID) == 0 || string(req.ID) == "null" || req.Params.Task != nil {
		return false
	}
	fields, info, token, err := calls.metas.decode(req.Params.Meta)
	if err != nil || !plainMeta(fields) {
		return false
	}
	_, _, published := g.route(req.Params.Name)
	modern := info != nil
	if modern && published && (req.Params.RequestState != nil || req.Params.InputResponses != nil) {
		return false // a retry with the client's answers: mcp-go's server decodes them for the relay
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	id := string(req.ID)
	done, ok := calls.start(id, cancel)
	if !ok {
		// A second call under the id of one still running would take its
		// place: the first could then never be cancelled.
		_ = w.WriteJSON(mcp.NewJSONRPCError(mcp.NewRequestId(json.RawMessage(req.ID)), mcp.INVALID_REQUEST,
			fmt.Sprintf("request id %s is in use by a call still running; send each request with a new id", id), nil))
		return true
	}
	defer done()
	var meta *mcp.Meta
	if req.Params.Meta != nil {
		meta = &mcp.Meta{ProgressToken: token, AdditionalFields: fields}
	}
	notify := progressWriter(w)
	if !modern {
		res, ok := g.callTool(ctx, req.Params.Name, req.Params.Arguments, meta, notify)
		if ok {
			_ = w.WriteResult(req.ID, res)
		}
		return ok
	}
	// A 2026-07-28 client: what mcp-go's server would do for it, without
	// decoding the request again or the result at all.
	if info.ClientCapabilities == nil {
		return false // capabilities of the wrong shape: the general path says so
	}
	ctx = server.WithRequestProtocolInfo(ctx, info)
	adoptProtocolInfo(server.ClientSessionFromContext(ctx), info)
	reply := func(res json.RawMessage) {
		done() // the id is the client's again once it has the answer
		_ = w.WriteResult(req.ID, stampModern(res, g.serverInfo))
	}
	if !published {
		res, ok := g.callTool(ctx, req.Params.Name, req.Params.Arguments, meta, notify)
		if ok {
			reply(res)
		}
		return ok
	}
	res, replied := g.modernCall(ctx, modernRequest{name: req.Params.Name, caps: *info.ClientCapabilities,
		args: req.Params.Arguments, meta: meta, notify: notify, reply: reply})
	if !replied {
		reply(res)
	}
	return true
}

// progressWriter writes a call's progress to w at once, before the call's
// result can be (see progressTo).
func progressWriter(w *wire.Writer) func(params map[string]any) {
	return func(params map[string]any) {
		_ = w.WriteJSON(mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION,
			Notification: mcp.Notification{Method: string(mcp.MethodNotificationProgress), Params: mcp.NotificationParams{AdditionalFields: params}}})
	}
}

// adoptProtocolInfo keeps what a 2026-07-28 request says of its client in
// the session, as mcp-go's server does for every such request (hooks and
// handlers see the same session in both eras).
func adoptProtocolInfo(sess server.ClientSession, info *server.RequestProtocolInfo) {
	if s, ok := sess.(server.SessionWithClientInfo); ok {
		if info.ClientInfo != nil {
			s.SetClientInfo(*info.ClientInfo)
		}
		s.SetClientCapabilities(*info.ClientCapabilities)
	}
	if sess != nil && !sess.Initialized() {
		sess.Initialize()
	}
}

// stampModern gives a result what mcp-go's server stamps on every result
// it sends a 2026-07-28 client, when the result lacks it: resultType
// "complete" and the gateway's serverInfo in _meta. Only the result's
// top-level members are walked (a 5 MB text is skipped, not decoded).
func stampModern(res json.RawMessage, serverInfo []byte) json.RawMessage {
	var (
		typed, stamped bool
		meta           []byte
	)
	if err := wire.Walk(res, false, func(key, v []byte) {
		switch wire.String(key) {
		case "resultType":
			typed = true
		case "_meta":
			meta = v
		}
	}); err != nil {
		return res // not an object: nothing to stamp it on
	}
	members := false // meta is an object with members
	if meta != nil && wire.Walk(meta, false, func(key, _ []byte) {
		members = true
		stamped = stamped || wire.String(key) == mcp.MetaKeyServerInfo
	}) != nil {
		meta, members, stamped = nil, false, false // not an object: replaced
	}
	if typed && stamped {
		return res
	}
	out := make([]byte, 0, len(res)+len(serverInfo)+96)
	out = append(out, `{"_meta":`...)
	switch {
	case stamped:
		out = append(out, meta...)
	case members: // the server's members, then ours
		open := bytes.TrimRight(meta, " \t\r\n")
		out = append(append(append(append(out, open[:len(open)-1]...), `,"`+mcp.MetaKeyServerInfo+`":`...), serverInfo...), '}')
	default:
		out = append(append(append(out, `{"`+mcp.MetaKeyServerInfo+`":`...), serverInfo...), '}')
	}
	if !typed {
		out = append(out, `,"resultType":"`+string(mcp.ResultTypeComplete)+`"`...)
	}
	_ = wire.Walk(res, false, func(key, v []byte) {
		if wire.String(key) == "_meta" {
			return
		}
		out = append(append(append(append(out, ','), key...), ':'), v...)
	})
	return append(out, '}')
}

// plainMeta reports whether a request's _meta is one the general path would
// accept without a protocol error: no protocol version, or a known one with
// the client capabilities a 2026-07-28 request must carry.
func plainMeta(m map[string]any) bool {
	v, ok := m[mcp.MetaKeyProtocolVersion]
	if !ok {
		return true
	}
	version, _ := v.(string)
	if !mcp.IsValidProtocolVersion(version) {
		return false
	}
	if !mcp.IsModernProtocol(version) {
		return true
	}
	caps, ok := m[mcp.MetaKeyClientCapabilities].(map[string]any)
	return ok && caps != nil
}

// metaCache keeps the last _meta decoded on a stream, but for its progress
// token: a client sends the same one with every call (its protocol
// version, identity and capabilities), which is then decoded once, not at
// every call. What decode returns is shared between calls: read only.
type metaCache struct {
	mu     sync.Mutex
	key    []byte // the members but progressToken, as they came, as an object
	fields map[string]any
	info   *server.RequestProtocolInfo
}

// decode returns the members of raw (a request's _meta, valid JSON) but
// the progress token, decoded, the protocol info of a 2026-07-28 _meta
// (modernMeta; nil for others), and the token. raw nil: no _meta.
func (c *metaCache) decode(raw []byte) (fields map[string]any, info *server.RequestProtocolInfo, token any, err error) {
	if raw == nil {
		return nil, nil, nil, nil
	}
	key := make([]byte, 1, len(raw))
	key[0] = '{'
	var tok []byte
	if err := wire.Walk(raw, false, func(k, v []byte) {
		if wire.String(k) == "progressToken" {
			tok = v
			return
		}
		if len(key) > 1 {
			key = append(key, ',')
		}
		key = append(append(append(key, k...), ':'), v...)
	}); err != nil {
		return nil, nil, nil, err
	}
	key = append(key, '}')
	if tok != nil {
		if err := json.Unmarshal(tok, &token); err != nil {
			return nil, nil, nil, err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.key == nil || !bytes.Equal(key, c.key) {
		var f map[string]any
		if err := json.Unmarshal(key, &f); err != nil {
			return nil, nil, nil, err
		}
		c.key, c.fields, c.info = key, f, nil
		if modernMeta(f) {
			m := &mcp.Meta{AdditionalFields: f}
			c.info = &server.RequestProtocolInfo{Modern: true, ProtocolVersion: m.ProtocolVersion(),
				ClientInfo: m.ClientInfo(), ClientCapabilities: m.ClientCapabilities(), LogLevel: m.LogLevel()}
		}
	}
	if c.info != nil {
		i := *c.info // the call's own, as mcp-go's server makes one per request
		info = &i
	}
	return c.fields, info, token, nil
}

// modernMeta reports whether a request's _meta declares revision
// 2026-07-28 or later: mcp-go's server takes those calls of published
// tools, whose server may ask the client questions as input_required
// results (relay.go); a withheld tool's call stays here, where callTool
// says why.
func modernMeta(m map[string]any) bool {
	v, _ := m[mcp.MetaKeyProtocolVersion].(string)
	return v != "" && mcp.IsModernProtocol(v)
}

// inflight holds the cancel functions of fast-path calls by JSON-RPC id, so
// notifications/cancelled reaches them.
type inflight struct {
	mu     sync.Mutex
	cancel map[string]*context.CancelFunc
	metas  metaCache // the stream's last _meta, which its calls repeat
}

// start records a call; false when id is already running. done forgets
// it, and only it: the id is free again once the call's answer is out
// (a 2026-07-28 call's first question, say, while the call goes on), and
// a later call may take it before this one's done runs.
func (f *inflight) start(id string, cancel context.CancelFunc) (done func(), ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, dup := f.cancel[id]; dup {
		return nil, false
	}
	own := &cancel
	f.cancel[id] = own
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.cancel[id] == own {
			delete(f.cancel, id)
		}
	}, true
}

func (f *inflight) stop(id string) {
	f.mu.Lock()
	cancel := f.cancel[id]
	f.mu.Unlock()
	if cancel != nil {
		(*cancel)()
	}
}
