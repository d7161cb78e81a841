package supervisor

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// TestSendVersioned: what sendVersioned makes of the answers a 2026-07-28
// request may get, given as they come on the wire.
func TestSendVersioned(t *testing.T) {
	const (
		discover = string(mcp.MethodServerDiscover)
		call     = string(mcp.MethodToolsCall)
		// refused is a -32022 answer listing supported, to a request of
		// 2026-07-28.
		refused = `{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"unsupported protocol version","data":{"supported":%s,"requested":"2026-07-28"}}}`
	)
	for _, tc := range []struct {
		name, method, answer string
		// wantCode is the error code of the answer passed on, 0 for a
		// result; sends is how many times the request went out.
		wantCode  int
		sends     int
		notModern bool
	}{
		{"a modern discover answer is passed on", discover,
			`{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"],"capabilities":{}}}`, 0, 1, false},
		{"an empty discover answer is method not found", discover,
			`{"jsonrpc":"2.0","id":1,"result":{}}`, mcp.METHOD_NOT_FOUND, 1, true},
		// mcp-go (since 1.6) takes any -32022 with a list for a modern
		// server's and would not fall back to the handshake.
		{"a discover refusal listing only older versions is method not found", discover,
			fmt.Sprintf(refused, `["2025-11-25","2025-06-18"]`), mcp.METHOD_NOT_FOUND, 1, false},
		{"a discover refusal listing another modern version is left to mcp-go", discover,
			fmt.Sprintf(refused, `["2025-11-25","2099-01-01"]`), mcp.UNSUPPORTED_PROTOCOL_VERSION, 1, false},
		{"a discover refusal listing nothing is left to mcp-go", discover,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"unsupported protocol version"}}`, mcp.UNSUPPORTED_PROTOCOL_VERSION, 1, false},
		{"a refusal listing the version it refused is sent again", call,
			fmt.Sprintf(refused, `["2026-07-28"]`), mcp.UNSUPPORTED_PROTOCOL_VERSION, 2, false},
		{"a call refused listing only older versions is passed on", call,
			fmt.Sprintf(refused, `["2025-11-25"]`), mcp.UNSUPPORTED_PROTOCOL_VERSION, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ids []any
			send := func(_ context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
				ids = append(ids, req.ID.Value())
				var res transport.JSONRPCResponse
				if err := json.Unmarshal([]byte(tc.answer), &res); err != nil {
					t.Fatal(err)
				}
				return &res, nil
			}
			notModern := false
			req := transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(int64(1)), Method: tc.method}
			res, err := sendVersioned(t.Context(), send, req, func() { notModern = true })
			if err != nil {
				t.Fatal(err)
			}
			code := 0
			if res.Error != nil {
				code = res.Error.Code
			}
			if code != tc.wantCode || len(ids) != tc.sends || notModern != tc.notModern {
				t.Errorf("error code %d, sent %d times (ids %v), notModern %v; want %d, %d, %v", code, len(ids), ids, notModern, tc.wantCode, tc.sends, tc.notModern)
			}
			if tc.sends == 2 && ids[0] == ids[1] {
				t.Errorf("sent again under the same id %v", ids[0])
			}
		})
	}
}
