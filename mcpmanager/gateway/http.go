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

// withHeaderVersion gives a notification of a 2026-07-28 client the
// protocol version its MCP-Protocol-Version header states, in _meta, when
// it has none there. The revision asks for the _meta version on requests;
// a notification's _meta is open (NotificationMetaObject), and the Go SDK
// sends notifications/cancelled without one. mcp-go checks every message
// of a modern client alike and answers such a notification 400, on which
// the Go SDK closes its whole session: a client's every timeout or cancel
// would end its connection. A request, or a notification whose _meta
// names a version (the same or another: mcp-go says which is wrong), is
// left as it came.
func withHeaderVersion(body []byte, header string) []byte {
	if !mcp.IsModernProtocol(header) {
		return body
	}
	m, err := wire.Parse(body)
	if err != nil || !m.IsNotification() {
		return body
	}
	params := map[string]json.RawMessage{}
	if len(m.Params) > 0 && string(m.Params) != "null" {
		if json.Unmarshal(m.Params, &params) != nil {
			return body // not an object: mcp-go says so
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
	meta[mcp.MetaKeyProtocolVersion], _ = json.Marshal(header)
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
