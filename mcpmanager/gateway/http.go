package gateway

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// NewToken returns a random bearer token for serving over HTTP.
func NewToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// HTTPHandler serves the gateway over Streamable HTTP at /mcp. Every request
// must carry "Authorization: Bearer <token>"; requests whose Host or Origin
// is not this machine are refused (DNS rebinding), so a web page the user
// visits cannot drive the tools.
func (g *Gateway) HTTPHandler(token string) http.Handler {
	// The handler bounds a body itself, at wire.MaxMessageBytes as on
	// stdio (below); mcp-go's own bound (4 MiB by default since 1.6) would
	// refuse what stdio takes, so it is off.
	mcpHandler := server.NewStreamableHTTPServer(g.srv, server.WithEndpointPath("/mcp"), server.WithMaxRequestBodyBytes(0))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !loopbackHost(r.Host) {
			http.Error(w, "forbidden: Host must be localhost, 127.0.0.1 or [::1]", http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !loopbackOrigin(o) {
			http.Error(w, "forbidden: cross-origin requests are not allowed", http.StatusForbidden)
			return
		}
		if oauthPath(r.URL.Path) {
			// Not an OAuth server: a 401 here sends a client (Claude Code)
			// down its OAuth discovery and dynamic registration, and its
			// message then speaks of that instead of the token.
			http.Error(w, "not found: Switchboard takes no OAuth login; send the token 'switchboard serve' printed as Authorization: Bearer <token> to /mcp", http.StatusNotFound)
			return
		}
		if !bearer(r.Header.Get("Authorization"), token) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="switchboard"`)
			http.Error(w, "unauthorized: send the token 'switchboard serve' printed as Authorization: Bearer <token>", http.StatusUnauthorized)
			return
		}
		// A body is one JSON-RPC message: bounded like a line on stdio, and
		// refused before it is read when it says it is longer.
		limit := int64(wire.MaxMessageBytes)
		if r.ContentLength > limit {
			http.Error(w, fmt.Sprintf("request body too large: %d bytes is over the %d-byte limit on one message (wire.MaxMessageBytes)", r.ContentLength, limit), http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		if r.Method == http.MethodPost {
			// Read here so that a chunked body, which says no length
			// before it is read, is refused as too large (413) too.
			body, err := io.ReadAll(r.Body)
			if tooLarge := (*http.MaxBytesError)(nil); errors.As(err, &tooLarge) {
				http.Error(w, fmt.Sprintf("request body too large: over the %d-byte limit on one message (wire.MaxMessageBytes)", limit), http.StatusRequestEntityTooLarge)
				return
			}
			if err != nil {
				http.Error(w, "could not read the request: "+err.Error(), http.StatusBadRequest)
				return
			}
			// The skills extension's requests are the gateway's own (skills.go).
			if g.skills != nil {
				if resp := skillsOf(g).answerSkills(r.Context(), body); resp != nil {
					w.Header().Set("Content-Type", "application/json")
					_ = json.NewEncoder(w).Encode(resp)
					return
				}
			}
			body = withHeaderVersion(body, r.Header.Get(mcp.HeaderProtocolVersion))
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
		mcpHandler.ServeHTTP(w, r)
	})
}

// oauthPath reports the paths of OAuth's discovery, registration and
// authorization endpoints (RFC 8414, RFC 9728, RFC 7591, OpenID discovery):
// a client asks them before it asks anything else when /mcp answers 401.
func oauthPath(path string) bool {
	switch path {
	case "/register", "/authorize", "/token":
		return true
	}
	return strings.HasPrefix(path, "/.well-known/")
}

// withHeaderVersion lets a 2026-07-28 client's message that names no
// protocol version in its _meta be judged under its MCP-Protocol-Version
// header's, for the two kinds of message real clients send that way:
//
//   - a notification: the revision asks for the _meta version on requests;
//     a notification's _meta is open (NotificationMetaObject), and the Go
//     SDK sends notifications/cancelled without one;
//   - a request of a method the revision removed (removedIn20260728): the
//     Go SDK sends ping and logging/setLevel as it did before 2026-07-28,
//     without the _meta triple.
//
// mcp-go checks every message of a modern client alike and answers such a
// message 400 (-32602): the Go SDK closes its session on a notification's
// 400, and reports a removed method's as a malformed request ("missing
// _meta field") rather than as the method not being there. With the
// version (and, on a removed method, empty client capabilities: it is
// refused whatever they are) mcp-go answers what the revision says: 202
// for the notification, 404 and -32601 for the removed method, which the
// Go SDK takes as jsonrpc2.ErrMethodNotFound (its keepalive, on a
// connection that has one, then stops instead of failing). Any other
// request without the version stays a 400, as the revision requires of
// requests (the conformance suite's sep-2575-request-meta-invalid), and a
// message whose _meta names a version (the same or another: mcp-go says
// which is wrong) is left as it came.
func withHeaderVersion(body []byte, header string) []byte {
	if !mcp.IsModernProtocol(header) {
		return body
	}
	m, err := wire.Parse(body)
	if err != nil {
		return body
	}
	version, _ := json.Marshal(header)
	add := map[string]json.RawMessage{mcp.MetaKeyProtocolVersion: version}
	switch {
	case m.IsNotification():
	case m.IsRequest() && removedIn20260728(m.Method):
		add[mcp.MetaKeyClientCapabilities] = json.RawMessage(`{}`)
	default:
		return body
	}
	return withMeta(body, m.Params, add)
}

// removedIn20260728 reports a request method (its JSON string) that
// revision 2026-07-28 removed (its changelog: the initialize handshake,
// ping, logging/setLevel, resources/subscribe and unsubscribe for
// subscriptions/listen, tasks/list and tasks/result with tasks moved to an
// extension); mcp-go answers each 404 (-32601) to a modern client.
func removedIn20260728(raw []byte) bool {
	var method string
	if json.Unmarshal(raw, &method) != nil {
		return false
	}
	switch mcp.MCPMethod(method) {
	case mcp.MethodInitialize, mcp.MethodPing, mcp.MethodSetLogLevel,
		mcp.MethodResourcesSubscribe, mcp.MethodResourcesUnsubscribe,
		mcp.MethodTasksList, mcp.MethodTasksResult:
		return true
	}
	return false
}

// withMeta returns body with the keys of add set in its params' _meta
// where that names no protocol version, keeping what the _meta has; body
// unchanged when its _meta names one, or its params or _meta are not an
// object (mcp-go then says what is wrong).
func withMeta(body, rawParams []byte, add map[string]json.RawMessage) []byte {
	params := map[string]json.RawMessage{}
	if len(rawParams) > 0 && string(rawParams) != "null" {
		if json.Unmarshal(rawParams, &params) != nil {
			return body
		}
	}
	meta := map[string]json.RawMessage{}
	if raw, ok := params["_meta"]; ok && string(raw) != "null" {
		if json.Unmarshal(raw, &meta) != nil {
			return body
		}
	}
	if _, ok := meta[mcp.MetaKeyProtocolVersion]; ok {
		return body
	}
	for k, v := range add {
		if _, ok := meta[k]; !ok {
			meta[k] = v
		}
	}
	params["_meta"], _ = json.Marshal(meta)
	var msg map[string]json.RawMessage
	if json.Unmarshal(body, &msg) != nil {
		return body
	}
	msg["params"], _ = json.Marshal(params)
	out, err := json.Marshal(msg)
	if err != nil {
		return body
	}
	return out
}

// bearer reports whether an Authorization header carries token. The
// scheme is case-insensitive (RFC 9110 §11.1: "bearer" is "Bearer").
func bearer(header, token string) bool {
	scheme, cred, _ := strings.Cut(header, " ")
	ok := subtle.ConstantTimeCompare([]byte(strings.TrimLeft(cred, " ")), []byte(token)) == 1
	return strings.EqualFold(scheme, "Bearer") && ok && token != ""
}

// LoopbackAddr reports whether a listen address is on this machine only.
func LoopbackAddr(addr string) bool { return loopbackHost(addr) }

func loopbackHost(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func loopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && loopbackHost(u.Host)
}
