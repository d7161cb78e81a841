package wire

import (
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestResponseIDs: a response's id finds its request whatever form the
// server echoed it in, and ids of different kinds never meet.
func TestResponseIDs(t *testing.T) {
	cases := []struct {
		raw  string
		sent mcp.RequestId
	}{
		{`7`, mcp.NewRequestId(int64(7))},
		{`-7`, mcp.NewRequestId(int64(-7))},
		{`0`, mcp.NewRequestId(int64(0))},
		{`7.0`, mcp.NewRequestId(int64(7))},
		{`7e0`, mcp.NewRequestId(int64(7))},
		{`123456789012345678`, mcp.NewRequestId(int64(123456789012345678))},
		{`1234567890123456789`, mcp.NewRequestId(int64(1234567890123456789))},
		{`"7"`, mcp.NewRequestId("7")},
		{`"a\u0062"`, mcp.NewRequestId("ab")},
		{`0.5`, mcp.NewRequestId(0.5)},
		{`"switchboard-call-12"`, mcp.NewRequestId("switchboard-call-12")},
		{`"a\u003cb"`, mcp.NewRequestId("a<b")},
		{`"a<b"`, mcp.NewRequestId("a<b")},
		{`"é"`, mcp.NewRequestId("é")},
		{`""`, mcp.NewRequestId("")},
	}
	keys := map[string]string{}
	for _, tc := range cases {
		id, err := parseID([]byte(tc.raw))
		if err != nil {
			t.Fatalf("parseID(%s) = %v", tc.raw, err)
		}
		got, want := idKey(id), idKey(tc.sent)
		if got != want {
			t.Errorf("id %s has key %q, the request's is %q", tc.raw, got, want)
		}
		keys[want] = tc.raw
	}
	if keys[idKey(mcp.NewRequestId("7"))] == keys[idKey(mcp.NewRequestId(int64(7)))] {
		t.Error("the string \"7\" and the number 7 share a key")
	}
	// What idJSON writes on the wire is the id's JSON.
	for _, id := range []mcp.RequestId{mcp.NewRequestId(int64(-3)), mcp.NewRequestId("switchboard-call-1"), mcp.NewRequestId("a<b\"c\\"), mcp.NewRequestId("é\n")} {
		b, err := idJSON(id)
		var back mcp.RequestId
		if err != nil || back.UnmarshalJSON(b) != nil || back.Value() != id.Value() {
			t.Errorf("idJSON(%v) = %s (%v), which reads back as %v", id.Value(), b, err, back.Value())
		}
	}
}
