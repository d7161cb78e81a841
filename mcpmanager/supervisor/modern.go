package supervisor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Revision 2026-07-28 of MCP has no initialize handshake and no sessions: a
// client probes with server/discover and then sends its protocol version,
// identity and capabilities with every request; list changes arrive on a
// subscriptions/listen stream instead of the standalone GET stream. mcp-go
// speaks both eras; what is here is what the supervisor adds around it:
// a Streamable HTTP transport that may go either way, the listen stream,
// and the revision a server spoke (Server.era, Status.Protocol).

// streamable is mcp-go's Streamable HTTP transport, with the standing GET
// stream that servers before 2026-07-28 send their notifications on, but
// that does not rule out the modern revision.
//
// mcp-go reports a transport with continuous listening as needing the
// legacy handshake (RequiresLegacyProtocol), since that revision removed the
// GET stream. Its listener only starts once the connection is established,
// and not at all on a modern one, so the probe can go first: a modern
// server gets server/discover and no GET, an older one the handshake and
// its GET stream.
//
// A server that answers server/discover with a result that is not a modern
// one (an empty result, say) has already opened mcp-go's readiness gate by
// then, and the GET stream would never start: spoiled says so, and the
// supervisor connects once more asking for the legacy handshake straight
// away (errRedial).
type streamable struct {
	*transport.StreamableHTTP
	schemas *rawSchemas
	spoiled *atomic.Bool
	tasks   *tasker
	// renew, when set, starts over on the next session when the server
	// ended this one (see renewal).
	renew *renewal
	// cut says why a request got no answer when the session ended under
	// it (LostError); nil: the error as mcp-go says it.
	cut *cutter
}

// errRedial: the connection was made on a spoiled transport; connect again.
var errRedial = errors.New("connect again with the legacy handshake")

func (t streamable) keptSchemas() *rawSchemas { return t.schemas }

// RequiresLegacyProtocol is false: see streamable.
func (streamable) RequiresLegacyProtocol() bool { return false }

var _ transport.HTTPConnection = streamable{}

// listen opens the subscriptions/listen stream of a modern server for the
// list changes its capabilities announce, and keeps it open (again after
// ListenRetry when it ends) until ctx ends or stop is called. The
// notifications reach the client's OnNotification handler like the GET
// stream's did. It returns nil for a server before 2026-07-28, or one that
// announces no list changes.
func (s *Server) listen(ctx context.Context, cl *client.Client, caps mcp.ServerCapabilities) (stop func()) {
	if !mcp.IsModernProtocol(cl.ProtocolVersion()) {
		return nil
	}
	filter := listenFilter(caps)
	if filter.IsEmpty() {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			err := cl.Listen(ctx, filter)
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				s.log.Add(fmt.Sprintf("subscriptions/listen ended: %v; opening it again in %s", err, ListenRetry))
			}
			t := time.NewTimer(ListenRetry)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// listenFilter asks for every list change the server says it sends.
func listenFilter(caps mcp.ServerCapabilities) mcp.SubscriptionFilter {
	var f mcp.SubscriptionFilter
	if caps.Tools != nil && caps.Tools.ListChanged {
		f.ToolsListChanged = true
	}
	if caps.Prompts != nil && caps.Prompts.ListChanged {
		f.PromptsListChanged = true
	}
	if caps.Resources != nil && caps.Resources.ListChanged {
		f.ResourcesListChanged = true
	}
	return f
}

// sendVersioned sends req with send and looks at what a 2026-07-28
// request may get back:
//
//   - A server/discover answer that lists no 2026-07-28 (or later) version
//     is not a modern answer: servers that answer every unknown method with
//     an empty result do that. It becomes a method-not-found error, so
//     mcp-go falls back to the initialize handshake; notModern is told.
//   - A server/discover refusal as of an unsupported protocol version
//     (-32022) that lists only versions before 2026-07-28 comes from a
//     server that speaks both eras but was set to serve the older ones
//     (mcp-go's WithStreamableHTTPProtocolVersions does that). It becomes a
//     method-not-found error too: mcp-go (since 1.6) takes any -32022 with
//     a list as the answer of a modern server and gives up rather than
//     falling back, where the handshake would have served. An error opens
//     no readiness gate, so notModern is not told.
//   - A refusal as of an unsupported protocol version (-32022) that lists
//     the very version the request declared among those the server
//     supports is sent once more, under a new id: the refusal contradicts
//     itself (a server restarted, or behind a balancer mid-upgrade), and
//     the spec has the client retry with a version both support, which is
//     that one. A refusal listing only other versions is left to mcp-go,
//     which picks the highest both support.
func sendVersioned(ctx context.Context, send sendFunc, req transport.JSONRPCRequest, notModern func()) (*transport.JSONRPCResponse, error) {
	res, err := send(ctx, req)
	if err != nil || res == nil {
		return res, err
	}
	if req.Method == string(mcp.MethodServerDiscover) && res.Error == nil && !modernAnswer(res.Result) {
		if notModern != nil {
			notModern()
		}
		res.Error = &mcp.JSONRPCErrorDetails{Code: mcp.METHOD_NOT_FOUND, Message: "server/discover answered without a 2026-07-28 protocol version"}
		res.Result = nil
		return res, nil
	}
	if res.Error == nil || res.Error.Code != mcp.UNSUPPORTED_PROTOCOL_VERSION {
		return res, nil
	}
	var unsupported mcp.UnsupportedProtocolVersionError
	if !errors.As(res.Error.AsError(), &unsupported) {
		return res, nil
	}
	if req.Method == string(mcp.MethodServerDiscover) && len(unsupported.Supported) > 0 && !slices.ContainsFunc(unsupported.Supported, mcp.IsModernProtocol) {
		res.Error = &mcp.JSONRPCErrorDetails{Code: mcp.METHOD_NOT_FOUND, Message: fmt.Sprintf("server/discover refused: the server supports only %v, before 2026-07-28", unsupported.Supported)}
		return res, nil
	}
	if unsupported.Version == "" || !slices.Contains(unsupported.Supported, unsupported.Version) {
		return res, nil
	}
	req.ID = mcp.NewRequestId(fmt.Sprintf("%v-again", req.ID.Value()))
	return send(ctx, req)
}

// modernAnswer reports whether a server/discover result lists a protocol
// version of 2026-07-28 or later.
func modernAnswer(result json.RawMessage) bool {
	var r struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	if json.Unmarshal(result, &r) != nil {
		return false
	}
	return slices.ContainsFunc(r.SupportedVersions, mcp.IsModernProtocol)
}

// sendFunc sends one request and waits for its answer.
type sendFunc = func(context.Context, transport.JSONRPCRequest) (*transport.JSONRPCResponse, error)

// exchange is what both transports (stdio, Streamable HTTP) do around a
// request: send it (sendVersioned, notModern as there), keep the schemas of
// a tools/list answer, and follow the task a tools/call may have become.
func exchange(ctx context.Context, send sendFunc, req transport.JSONRPCRequest, schemas *rawSchemas, tasks *tasker, notModern func()) (*transport.JSONRPCResponse, error) {
	res, err := sendVersioned(ctx, send, req, notModern)
	schemas.note(req, res)
	if err != nil {
		return res, err
	}
	return tasks.follow(ctx, func(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
		return sendVersioned(ctx, send, req, nil)
	}, req, res)
}

// SendRequest implements transport.Interface (see exchange). A request
// the server answers with 404 for the session ends the session, and is
// sent once more on the next one (renewal).
//
// The watch ends the session as soon as it sees the 404, so the transport
// may be closed before mcp-go returns, and mcp-go (since 1.6) then says
// ErrTransportClosed instead of ErrSessionTerminated; so may a request
// that reached this transport only after it closed. What the watch saw of
// this request (sendOutcome) tells those two, which the server did not
// run, from a request that Close cut off while the server had it.
func (t streamable) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	ctx, seen := withSendOutcome(ctx)
	res, err := t.send(ctx, req)
	if err != nil && t.renew != nil && (errors.Is(err, transport.ErrSessionTerminated) ||
		errors.Is(err, transport.ErrTransportClosed) && (seen.notFound.Load() || !seen.sent.Load())) {
		return t.renew.retry(ctx, t.StreamableHTTP, req, err)
	}
	return res, t.cut.annotate(ctx, err)
}

// send is SendRequest on this session only.
func (t streamable) send(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	return exchange(ctx, t.StreamableHTTP.SendRequest, req, t.schemas, t.tasks, func() { t.spoiled.Store(true) })
}
