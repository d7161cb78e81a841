package supervisor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// The calls the router relays raw (router.CallRaw, the proxy's path) skip
// mcp-go's CallTool, which on a session of revision 2026-07-28 encodes and
// decodes a call's arguments three times over to add the session's _meta
// and its HTTP headers, and decodes and encodes the result again. On the
// stdio transport (no headers) the router sends them raw when the
// transport knows the session's _meta (router.ModernSender): the members
// mcp-go wrote into the last request it sent itself, kept by sessionMeta.
// What CallTool does around the request is done here: the task a call
// became is followed (exchange, as for every request), and input_required
// results are answered with the same handlers and the call sent again
// (rounds).

var _ router.ModernSender = (*stdioTransport)(nil)

// sessionMeta keeps the _meta members (wire.SessionMeta's keys) of the
// last modern request mcp-go sent on a transport. Safe for concurrent use.
type sessionMeta struct {
	mu      sync.Mutex
	last    []byte                 // the _meta last looked at, as mcp-go wrote it
	members atomic.Pointer[[]byte] // nil: none known
	modern  atomic.Bool            // a modern _meta was seen: the session is of 2026-07-28 or later
}

// note looks at the params of a request mcp-go sends: after applying the
// session's _meta they are the members of the params object, each encoded.
func (m *sessionMeta) note(params any) {
	p, ok := params.(map[string]json.RawMessage)
	if !ok || p["_meta"] == nil {
		return
	}
	raw := p["_meta"]
	m.mu.Lock()
	defer m.mu.Unlock()
	if bytes.Equal(raw, m.last) {
		return
	}
	m.last = raw
	var members []byte
	modern := false
	_ = wire.Walk(raw, false, func(key, value []byte) { // mcp-go encoded it
		k := wire.String(key)
		if !slices.Contains(wire.SessionMeta, k) {
			return // the caller's: a progress token, say
		}
		if k == mcp.MetaKeyProtocolVersion {
			modern = mcp.IsModernProtocol(wire.String(value))
		}
		if members != nil {
			members = append(members, ',')
		}
		members = append(append(append(members, key...), ':'), value...)
	})
	if modern {
		m.members.Store(&members)
		m.modern.Store(true)
	}
}

// forget drops the members when they are about to change without a
// request (the log level, which mcp-go only records): raw calls go through
// CallTool until mcp-go's next request shows the new ones.
func (m *sessionMeta) forget() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.last = nil
	m.members.Store(nil)
}

// get returns the members, or nil.
func (m *sessionMeta) get() []byte {
	if p := m.members.Load(); p != nil {
		return *p
	}
	return nil
}

// SessionMeta implements router.ModernSender.
func (t *stdioTransport) SessionMeta() []byte { return t.session.get() }

// SendRaw sends a request whose params are already JSON (the proxy's
// relayed tools/call; see router.CallRaw) and waits for its answer: the
// final one of a modern session's tools/call (router.ModernSender).
func (t *stdioTransport) SendRaw(ctx context.Context, id mcp.RequestId, method string, params []byte) (*transport.JSONRPCResponse, error) {
	send := func(ctx context.Context, rid mcp.RequestId, params []byte) (*transport.JSONRPCResponse, error) {
		req := transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: rid, Method: method, Params: json.RawMessage(params)}
		res, err := exchange(ctx, t.sendRaw, req, &t.schemas, t.tasks, nil)
		if err != nil && ctx.Err() != nil && rid != id {
			router.CancelRaw(ctx, t, rid) // a later round's; the caller cancels the first
		}
		return res, err
	}
	var res *transport.JSONRPCResponse
	var err error
	// Once modern, always: a relayed call's rounds are answered even when
	// the members were dropped after the router took them (forget).
	if method == string(mcp.MethodToolsCall) && t.session.modern.Load() {
		res, err = t.tasks.rounds(ctx, id, params, send)
	} else {
		res, err = send(ctx, id, params)
	}
	return res, t.annotate(ctx, err)
}

// sendRaw is exchange's send for SendRaw: raw params as they are, the
// requests about a task (tasks/get, ...) as mcp-go's would be.
func (t *stdioTransport) sendRaw(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	if p, ok := req.Params.(json.RawMessage); ok {
		return t.Transport.SendRaw(ctx, req.ID, req.Method, p)
	}
	return t.Transport.SendRequest(ctx, req)
}

// loadShedding bounds the rounds in a row that ask for no input at all:
// a server that only says "try again" (mcp-go's bound).
const loadShedding = 3

// rounds sends a tools/call and answers the input_required results it
// gets (multi round-trip requests, SEP-2322) as mcp-go's CallTool does:
// the input requests go to the handlers, and the call is sent again, under
// a new id, with the answers and the server's requestState, until a result
// that needs no input, at most MaxInputRounds sends.
func (k *tasker) rounds(ctx context.Context, id mcp.RequestId, params []byte,
	send func(context.Context, mcp.RequestId, []byte) (*transport.JSONRPCResponse, error)) (*transport.JSONRPCResponse, error) {
	shed := 0
	next := params
	for round := 1; ; round++ {
		rid := id
		if round > 1 {
			rid = mcp.NewRequestId(fmt.Sprintf("%v-round-%d", id.Value(), round))
		}
		res, err := send(ctx, rid, next)
		if err != nil || res.Error != nil {
			return res, err
		}
		asked, ok := inputRequired(res.Result)
		if !ok {
			return res, nil
		}
		if len(asked.InputRequests) == 0 {
			if shed++; shed >= loadShedding {
				return nil, roundsError(fmt.Errorf("%w: server asked to retry %d times without requesting input", client.ErrMaxInputRoundTripsExceeded, shed))
			}
		} else {
			shed = 0
		}
		if round >= MaxInputRounds {
			return nil, roundsError(fmt.Errorf("%w (%d)", client.ErrMaxInputRoundTripsExceeded, MaxInputRounds))
		}
		answers, err := k.answer(ctx, asked.InputRequests)
		if err != nil {
			return nil, fmt.Errorf("multi round-trip: %w", err)
		}
		if next, err = withAnswers(params, answers, asked.RequestState); err != nil {
			return nil, err
		}
	}
}

// inputRequired decodes a result that asks for input. A result that does
// not name input_required is not decoded: most are the call's answer, and
// some are megabytes.
func inputRequired(result json.RawMessage) (mcp.MultiRoundTripResult, bool) {
	var r struct {
		ResultType mcp.ResultType `json:"resultType"`
		mcp.MultiRoundTripResult
	}
	if !bytes.Contains(result, []byte(mcp.ResultTypeInputRequired)) || json.Unmarshal(result, &r) != nil {
		return r.MultiRoundTripResult, false
	}
	return r.MultiRoundTripResult, r.ResultType == mcp.ResultTypeInputRequired
}

// withAnswers is a call's params (a JSON object) with a round's answers
// and state added, as mcp-go's MultiRoundTripParams are.
func withAnswers(params []byte, answers map[string]any, state string) ([]byte, error) {
	a, err := json.Marshal(answers)
	if err != nil {
		return nil, fmt.Errorf("encode inputResponses: %w", err)
	}
	p := bytes.TrimRight(params, " \t\r\n")
	out := make([]byte, 0, len(p)+len(a)+len(state)+48)
	out = append(out, p[:len(p)-1]...) // without its }
	if len(bytes.TrimSpace(out)) > 1 { // more than {
		out = append(out, ',')
	}
	out = append(append(out, `"inputResponses":`...), a...)
	if state != "" {
		s, err := json.Marshal(state)
		if err != nil {
			return nil, err
		}
		out = append(append(out, `,"requestState":`...), s...)
	}
	return append(out, '}'), nil
}

// roundsError is the error of a call stopped after too many rounds, in
// the words Client.CallTool gives it.
func roundsError(err error) error {
	return fmt.Errorf("the server asked for input %d times without finishing the call, so it was stopped (a bug of the server: tell its author): %w", MaxInputRounds, err)
}
