package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Transport is an MCP client transport over newline-delimited JSON-RPC
// (a server's stdout and stdin), in place of mcp-go's transport.Stdio:
// the same behaviour (responses by id, notifications and server requests
// to their handlers, requests answered on their own goroutine), with each
// incoming line validated and split in one pass (Parse) and results handed
// on as the bytes that arrived. SendRaw sends a request whose params are
// already JSON without encoding them again.
//
// It is safe for concurrent use; handlers are called from the reading
// goroutine (notifications, in order) or a goroutine of their own
// (requests).
type Transport struct {
	r  *LineReader
	w  io.WriteCloser
	lw *Writer // w, a line at a time

	mu      sync.Mutex
	pending map[string]chan *transport.JSONRPCResponse

	hmu     sync.RWMutex
	onNote  func(mcp.JSONRPCNotification)
	onStray func(line []byte)
	onReq   transport.RequestHandler
	ctx     context.Context // Start's, for server requests

	done      chan struct{}
	doneOnce  sync.Once
	closeOnce sync.Once
	closeErr  error
}

var (
	_ transport.Interface              = (*Transport)(nil)
	_ transport.BidirectionalInterface = (*Transport)(nil)
)

// New returns a transport reading messages from r and writing them to w
// (closed by Close). Start begins reading. r's lines are bounded: by r's
// own limit when it is a *Reader (its owner can watch it), else by
// MaxMessageBytes.
func New(r io.Reader, w io.WriteCloser) *Transport {
	return &Transport{r: NewLineReader(r, 0), w: w, lw: NewWriter(w), pending: map[string]chan *transport.JSONRPCResponse{}, done: make(chan struct{}), ctx: context.Background()}
}

// Start starts reading; server requests get ctx.
func (t *Transport) Start(ctx context.Context) error {
	t.hmu.Lock()
	t.ctx = ctx
	t.hmu.Unlock()
	ready := make(chan struct{})
	go t.read(ready)
	<-ready
	return nil
}

// Close ends the session: pending requests fail with
// transport.ErrTransportClosed and w is closed.
func (t *Transport) Close() error {
	t.finish()
	t.closeOnce.Do(func() { t.closeErr = t.w.Close() })
	return t.closeErr
}

func (t *Transport) finish() { t.doneOnce.Do(func() { close(t.done) }) }

// GetSessionId is "" (stdio has no session id).
func (t *Transport) GetSessionId() string { return "" }

// SetNotificationHandler sets the handler of the server's notifications.
func (t *Transport) SetNotificationHandler(h func(mcp.JSONRPCNotification)) {
	t.hmu.Lock()
	defer t.hmu.Unlock()
	t.onNote = h
}

// SetStrayHandler sets what is told of a line that is not a JSON-RPC
// message (a banner or a log line printed to stdout), which is dropped;
// it is called on the reading goroutine with a line it must not keep.
func (t *Transport) SetStrayHandler(h func(line []byte)) {
	t.hmu.Lock()
	defer t.hmu.Unlock()
	t.onStray = h
}

// SetRequestHandler sets the handler of the server's requests (sampling,
// elicitation, roots).
func (t *Transport) SetRequestHandler(h transport.RequestHandler) {
	t.hmu.Lock()
	defer t.hmu.Unlock()
	t.onReq = h
}

// SendRequest sends req and waits for its response.
func (t *Transport) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	return t.roundTrip(ctx, idKey(req.ID), func() error { return t.lw.WriteJSON(req) })
}

// SendRaw sends a request whose params are already valid JSON (a part of a
// message that Parse accepted, say) and waits for its response. params is
// written as is, after the check that it holds no line break.
func (t *Transport) SendRaw(ctx context.Context, id mcp.RequestId, method string, params []byte) (*transport.JSONRPCResponse, error) {
	rawID, err := idJSON(id)
	if err != nil {
		return nil, fmt.Errorf("failed to marshal request id: %w", err)
	}
	return t.roundTrip(ctx, string(rawID), func() error { return t.lw.WriteRequest(rawID, method, params) })
}

// roundTrip sends a request with write and waits for the response whose
// id has the key (idKey).
func (t *Transport) roundTrip(ctx context.Context, key string, write func() error) (*transport.JSONRPCResponse, error) {
	select {
	case <-t.done:
		return nil, transport.ErrTransportClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	default:
	}
	ch := make(chan *transport.JSONRPCResponse, 1)
	t.mu.Lock()
	t.pending[key] = ch
	t.mu.Unlock()
	forget := func() {
		t.mu.Lock()
		delete(t.pending, key)
		t.mu.Unlock()
	}
	if err := write(); err != nil {
		forget()
		return nil, fmt.Errorf("failed to write request: %w", err)
	}
	select {
	case res := <-ch:
		return res, nil
	case <-t.done:
		select { // a response that came just before the end still counts
		case res := <-ch:
			return res, nil
		default:
		}
		forget()
		return nil, transport.ErrTransportClosed
	case <-ctx.Done():
		forget()
		return nil, ctx.Err()
	}
}

// SendNotification sends a notification.
func (t *Transport) SendNotification(ctx context.Context, n mcp.JSONRPCNotification) error {
	select {
	case <-t.done:
		return transport.ErrTransportClosed
	case <-ctx.Done():
		return ctx.Err()
	default:
	}
	if err := t.lw.WriteJSON(n); err != nil {
		return fmt.Errorf("failed to write notification: %w", err)
	}
	return nil
}

// idKey is the canonical form of an id, its JSON as idJSON writes it: a
// server may echo 1 as 1.0, or a string id with escapes.
func idKey(id mcp.RequestId) string {
	b, _ := idJSON(id)
	return string(b)
}

// idJSON is id's JSON. The ids of this transport's requests are integers
// (mcp-go's client counts them) or plain strings (the router's relayed
// calls, "switchboard-call-N"): those are written without encoding/json's
// reflection, twice a call on the proxy's path. Both ends of a round trip
// key the id by this encoding (idKey), so it only has to be one JSON
// encoding per value.
func idJSON(id mcp.RequestId) ([]byte, error) {
	switch v := id.Value().(type) {
	case int64:
		return strconv.AppendInt(nil, v, 10), nil
	case string:
		if plainID(v) {
			b := make([]byte, 0, len(v)+2)
			return append(append(append(b, '"'), v...), '"'), nil
		}
	}
	return json.Marshal(id)
}

// plainID reports whether s is printable ASCII that JSON takes between quotes
// as it is (and that encoding/json would not escape either).
func plainID(s string) bool {
	for i := range len(s) {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// parseID decodes a response's id (valid JSON: Parse checked it); an
// integer, or a string without escapes, without RequestId.UnmarshalJSON's
// tries (a string first, then a float64, which loses the last digits of a
// large integer).
func parseID(raw []byte) (mcp.RequestId, error) {
	if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		return mcp.NewRequestId(string(raw[1 : n-1])), nil
	}
	if len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') {
		if v, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			return mcp.NewRequestId(v), nil
		}
	}
	var id mcp.RequestId
	err := id.UnmarshalJSON(raw)
	return id, err
}

// read handles every line until r ends, then ends the session.
func (t *Transport) read(ready chan<- struct{}) {
	defer t.finish()
	close(ready)
	for {
		line, err := t.r.Next()
		if len(line) > 0 {
			t.handle(line)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				slog.Debug("mcp stdio: read", "err", err)
			}
			return
		}
	}
}

// handle routes one line; a line that is not a valid JSON-RPC object is
// dropped, as mcp-go's transport drops it.
func (t *Transport) handle(line []byte) {
	m, err := Parse(line)
	if err != nil {
		slog.Debug("mcp stdio: dropped a line that is not a JSON-RPC message", "err", err)
		t.hmu.RLock()
		h := t.onStray
		t.hmu.RUnlock()
		if h != nil && len(bytes.TrimSpace(line)) > 0 {
			h(line)
		}
		return
	}
	switch {
	case m.IsNotification():
		var n mcp.JSONRPCNotification
		if json.Unmarshal(line, &n) != nil {
			return
		}
		t.hmu.RLock()
		h := t.onNote
		t.hmu.RUnlock()
		if h != nil {
			h(n)
		}
	case m.IsRequest():
		var req transport.JSONRPCRequest
		if json.Unmarshal(line, &req) != nil {
			return
		}
		t.serve(req)
	default:
		if m.ID == nil {
			return
		}
		id, err := parseID(m.ID)
		if err != nil {
			return
		}
		res := &transport.JSONRPCResponse{JSONRPC: mcp.JSONRPC_VERSION, ID: id, Result: m.Result}
		if m.Error != nil {
			var e mcp.JSONRPCErrorDetails
			if json.Unmarshal(m.Error, &e) != nil {
				return
			}
			res.Error = &e
		}
		key := idKey(res.ID)
		t.mu.Lock()
		ch, ok := t.pending[key]
		delete(t.pending, key)
		t.mu.Unlock()
		if ok {
			ch <- res
		}
	}
}

// serve answers a server's request on a goroutine of its own, so a slow
// answer (a person deciding on a sampling request) does not stop reading.
func (t *Transport) serve(req transport.JSONRPCRequest) {
	t.hmu.RLock()
	h, ctx := t.onReq, t.ctx
	t.hmu.RUnlock()
	if h == nil {
		t.respond(*transport.NewJSONRPCErrorResponse(req.ID, mcp.METHOD_NOT_FOUND, "No request handler configured", nil))
		return
	}
	go func() {
		if err := ctx.Err(); err != nil {
			t.respond(*transport.NewJSONRPCErrorResponse(req.ID, mcp.INTERNAL_ERROR, err.Error(), nil))
			return
		}
		res, err := h(ctx, req)
		if err != nil {
			t.respond(*transport.NewJSONRPCErrorResponse(req.ID, mcp.INTERNAL_ERROR, err.Error(), nil))
			return
		}
		if res != nil {
			t.respond(*res)
		}
	}()
}

func (t *Transport) respond(res transport.JSONRPCResponse) {
	if err := t.lw.WriteJSON(res); err != nil {
		slog.Debug("mcp stdio: write a response to the server", "err", err)
	}
}
