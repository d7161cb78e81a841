package router

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestRawParams: a relayed call's params carry the arguments as they came
// and the caller's _meta; on a modern session its members come first and
// a caller's own session keys give way to them.
func TestRawParams(t *testing.T) {
	const session = `"io.modelcontextprotocol/protocolVersion":"2026-07-28"`
	for _, c := range []struct {
		name    string
		meta    *mcp.Meta
		session string
		want    string
	}{
		{"no meta", nil, "", `{"name":"t","arguments":{"a":1.50}}`},
		{"an empty meta", &mcp.Meta{}, "", `{"_meta":{},"name":"t","arguments":{"a":1.50}}`},
		{"a token", &mcp.Meta{ProgressToken: "p"}, "", `{"_meta":{"progressToken":"p"},"name":"t","arguments":{"a":1.50}}`},
		{"the session only", nil, session, `{"_meta":{` + session + `},"name":"t","arguments":{"a":1.50}}`},
		{"the session and an empty meta", &mcp.Meta{}, session, `{"_meta":{` + session + `},"name":"t","arguments":{"a":1.50}}`},
		{"the session and the caller's", &mcp.Meta{ProgressToken: "p", AdditionalFields: map[string]any{
			"x": 1, mcp.MetaKeyProtocolVersion: "2025-06-18", mcp.MetaKeyClientInfo: map[string]any{"name": "other"},
		}}, session, `{"_meta":{` + session + `,"progressToken":"p","x":1},"name":"t","arguments":{"a":1.50}}`},
	} {
		var s []byte
		if c.session != "" {
			s = []byte(c.session)
		}
		got, err := rawParamsJSON(c.meta, "t", json.RawMessage(`{"a":1.50}`), s)
		if err != nil || string(got) != c.want || !json.Valid(got) {
			t.Errorf("%s: %s, %v; want %s", c.name, got, err, c.want)
		}
	}
}
