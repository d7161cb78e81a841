package gateway

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// everythingGateway is 'serve --http' in front of the pinned
// server-everything from npm, as server "everything".
func everythingGateway(t *testing.T) (url, token string) {
	t.Helper()
	cl, err := client.NewStdioMCPClient(proctest.NPM(t, "mcp-server-everything"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	if _, err := cl.Initialize(t.Context(), initAt(mcp.LATEST_PROTOCOL_VERSION)); err != nil {
		t.Fatal(err)
	}
	reg := router.New(router.Options{})
	reg.Add(named{"everything", cl})
	g := New(reg, Options{Version: "test"})
	g.Refresh(t.Context())
	return serveHTTP(t, g)
}

// modernPost posts one JSON-RPC message as a 2026-07-28 client does: the
// MCP-Protocol-Version and Mcp-Method headers (Mcp-Name when given), and
// returns the status and body.
func modernPost(t *testing.T, url, token, method, name, body string) (int, string) {
	t.Helper()
	status, answer, err := modernDo(t.Context(), url, token, method, name, body)
	if err != nil {
		t.Fatal(err)
	}
	return status, answer
}

// modernDo is modernPost for another goroutine than the test's.
func modernDo(ctx context.Context, url, token, method, name, body string) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set(mcp.HeaderProtocolVersion, mcp.ProtocolVersion20260728)
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, string(b), err
}

// modernCallBody is a 2026-07-28 tools/call of everything's tool.
func modernCallBody(id int, tool string, args map[string]any) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{
		"name": "everything__" + tool, "arguments": args,
		"_meta": map[string]any{
			mcp.MetaKeyProtocolVersion:    mcp.ProtocolVersion20260728,
			mcp.MetaKeyClientInfo:         map[string]any{"name": "go-sdk-like", "version": "1"},
			mcp.MetaKeyClientCapabilities: map[string]any{},
		}}})
	return string(b)
}

// TestModernCancelWithoutMeta: the Go SDK (2026-07-28) cancels a call
// with notifications/cancelled under the 2026 header and without _meta
// (the revision's _meta triple is for requests), as its every timeout
// does. It is accepted (202), the call ends, and the next call works: a
// 400 made the SDK close its whole session.
func TestModernCancelWithoutMeta(t *testing.T) {
	url, token := everythingGateway(t)
	type answer struct {
		status int
		body   string
		err    error
	}
	long := make(chan answer, 1)
	go func() {
		status, body, err := modernDo(t.Context(), url, token, "tools/call", "everything__trigger-long-running-operation",
			modernCallBody(5, "trigger-long-running-operation", map[string]any{"duration": 60, "steps": 60}))
		long <- answer{status, body, err}
	}()
	// What the Go SDK sends on a context's end, byte for byte but the id.
	// Sent until the call is running upstream: a cancel of an id not
	// running yet cancels nothing.
	cancelled := false
	for deadline := time.Now().Add(30 * time.Second); !cancelled && time.Now().Before(deadline); {
		status, body := modernPost(t, url, token, "notifications/cancelled", "",
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"context deadline exceeded"}}`)
		if status != http.StatusAccepted {
			t.Fatalf("notifications/cancelled without _meta = %d %s, want 202", status, body)
		}
		select {
		case a := <-long:
			cancelled = true
			if a.err != nil {
				t.Fatalf("the cancelled call: %v", a.err)
			}
			t.Logf("the cancelled call answered %d %.200s", a.status, a.body)
		case <-time.After(200 * time.Millisecond):
		}
	}
	if !cancelled {
		t.Fatal("the call still runs 30 s after its cancel was accepted")
	}
	status, body := modernPost(t, url, token, "tools/call", "everything__echo", modernCallBody(6, "echo", map[string]any{"message": "after cancel"}))
	if status != http.StatusOK || !strings.Contains(body, "Echo: after cancel") {
		t.Fatalf("call after the cancel = %d %s", status, body)
	}
}

// TestModernRemovedMethodWithoutMeta: the Go SDK (2026-07-28) sends ping
// and logging/setLevel as before the revision, without the _meta triple.
// Each is answered as the revision answers a removed method (404, -32601,
// the request's id), which the SDK takes as "method not found"; it was a
// 400 saying the _meta field is missing. A request the
// revision has not removed still needs the _meta version (400, -32602),
// and the client's next request works.
func TestModernRemovedMethodWithoutMeta(t *testing.T) {
	url, token := serveHTTP(t, New(router.New(router.Options{}), Options{Version: "test"}))
	for _, c := range []struct {
		name, method, body string
		status, code       int
	}{
		// What the Go SDK v1.8.0 sends, byte for byte but the id.
		{"Go SDK ping", "ping", `{"jsonrpc":"2.0","id":3,"method":"ping","params":{}}`, http.StatusNotFound, mcp.METHOD_NOT_FOUND},
		{"Go SDK setLevel", "logging/setLevel", `{"jsonrpc":"2.0","id":4,"method":"logging/setLevel","params":{"level":"debug"}}`, http.StatusNotFound, mcp.METHOD_NOT_FOUND},
		{"ping without params", "ping", `{"jsonrpc":"2.0","id":"p","method":"ping"}`, http.StatusNotFound, mcp.METHOD_NOT_FOUND},
		{"subscribe", "resources/subscribe", `{"jsonrpc":"2.0","id":5,"method":"resources/subscribe","params":{"uri":"switchboard://x/y"}}`, http.StatusNotFound, mcp.METHOD_NOT_FOUND},
		// The revision's MUST, which the conformance suite checks: a
		// request it has not removed names its version in _meta.
		{"discover without _meta", "server/discover", `{"jsonrpc":"2.0","id":6,"method":"server/discover","params":{}}`, http.StatusBadRequest, mcp.INVALID_PARAMS},
		{"tools/list without _meta", "tools/list", `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`, http.StatusBadRequest, mcp.INVALID_PARAMS},
		// A version the header does not state is the client's mistake.
		{"ping naming another version", "ping", `{"jsonrpc":"2.0","id":8,"method":"ping","params":{"_meta":{"` + mcp.MetaKeyProtocolVersion + `":"2025-11-25"}}}`, http.StatusBadRequest, mcp.HEADER_MISMATCH},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, body := modernPost(t, url, token, c.method, "", c.body)
			var answer struct {
				ID    json.RawMessage `json:"id"`
				Error *struct {
					Code int `json:"code"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(body), &answer); err != nil {
				t.Fatalf("%d %q: %v", status, body, err)
			}
			want := messageID(t, c.body)
			if status != c.status || answer.Error == nil || answer.Error.Code != c.code || string(answer.ID) != want {
				t.Fatalf("= %d %s, want %d, error %d and id %s", status, body, c.status, c.code, want)
			}
		})
	}
	status, body := modernPost(t, url, token, "tools/list", "", `{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"_meta":{"`+
		mcp.MetaKeyProtocolVersion+`":"`+mcp.ProtocolVersion20260728+`","`+mcp.MetaKeyClientCapabilities+`":{}}}}`)
	if status != http.StatusOK || !strings.Contains(body, `"tools"`) {
		t.Fatalf("tools/list after them = %d %s", status, body)
	}
}

// messageID is the id of a JSON-RPC message, as it is written.
func messageID(t *testing.T, body string) string {
	t.Helper()
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
	return string(m.ID)
}

// TestWithHeaderVersion: a notification, or a request of a method
// 2026-07-28 removed, under a 2026-07-28 header that names no version in
// its _meta gets the header's (a removed method empty client capabilities
// too); nothing else changes.
func TestWithHeaderVersion(t *testing.T) {
	const v = mcp.ProtocolVersion20260728
	stamped := `{"_meta":{"` + mcp.MetaKeyProtocolVersion + `":"` + v + `"}`
	removed := `{"_meta":{"` + mcp.MetaKeyClientCapabilities + `":{},"` + mcp.MetaKeyProtocolVersion + `":"` + v + `"}`
	for _, c := range []struct {
		name, header, body string
		want               string // "" : unchanged
	}{
		{"no params", v, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, stamped + `}`},
		{"null params", v, `{"jsonrpc":"2.0","method":"notifications/initialized","params":null}`, stamped + `}`},
		{"params without _meta", v, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`, stamped + `,"requestId":5}`},
		{"_meta without the version", v, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"_meta":{"k":1},"requestId":"a"}}`,
			`{"_meta":{"` + mcp.MetaKeyProtocolVersion + `":"` + v + `","k":1},"requestId":"a"}`},
		{"_meta with a version", v, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"_meta":{"` + mcp.MetaKeyProtocolVersion + `":"2025-11-25"}}}`, ""},
		{"a request", v, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, ""},
		{"server/discover", v, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`, ""},
		{"removed: ping", v, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, removed + `}`},
		{"removed: setLevel", v, `{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"debug"}}`, removed + `,"level":"debug"}`},
		{"removed, its capabilities kept", v, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"` + mcp.MetaKeyClientCapabilities + `":{"x":{}}}}}`,
			`{"_meta":{"` + mcp.MetaKeyClientCapabilities + `":{"x":{}},"` + mcp.MetaKeyProtocolVersion + `":"` + v + `"}}`},
		{"removed, naming a version", v, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"` + mcp.MetaKeyProtocolVersion + `":"` + v + `"}}}`, ""},
		{"removed, a 2025-11-25 client", mcp.ProtocolVersion20251125, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, ""},
		{"a response", v, `{"jsonrpc":"2.0","id":1,"result":{}}`, ""},
		{"a 2025-11-25 client", mcp.ProtocolVersion20251125, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, ""},
		{"no header", "", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, ""},
		{"params not an object", v, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":[1]}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := withHeaderVersion([]byte(c.body), c.header)
			if c.want == "" {
				if string(got) != c.body {
					t.Fatalf("changed to %s", got)
				}
				return
			}
			var msg struct {
				Params json.RawMessage `json:"params"`
				Method string          `json:"method"`
			}
			if err := json.Unmarshal(got, &msg); err != nil {
				t.Fatal(err)
			}
			if string(msg.Params) != c.want || msg.Method == "" {
				t.Fatalf("params = %s, want %s", msg.Params, c.want)
			}
		})
	}
}

// TestOAuthPathsAreNotFound: the paths a client asks for OAuth before it
// asks anything else answer 404, without a token, so its message is the
// 401 of /mcp and not a failed dynamic client registration.
func TestOAuthPathsAreNotFound(t *testing.T) {
	g := New(router.New(router.Options{}), Options{Version: "test"})
	url, _ := serveHTTP(t, g)
	base := strings.TrimSuffix(url, "/mcp")
	for _, c := range []struct {
		method, path string
		want         int
	}{
		{"GET", "/.well-known/oauth-protected-resource/mcp", 404},
		{"GET", "/.well-known/oauth-protected-resource", 404},
		{"GET", "/.well-known/oauth-authorization-server", 404},
		{"GET", "/.well-known/openid-configuration", 404},
		{"POST", "/register", 404},
		{"GET", "/authorize", 404},
		{"POST", "/token", 404},
		{"POST", "/mcp", 401},
	} {
		req, _ := http.NewRequestWithContext(t.Context(), c.method, base+c.path, strings.NewReader("{}"))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != c.want {
			t.Errorf("%s %s = %d, want %d", c.method, c.path, res.StatusCode, c.want)
		}
	}
}
