package supervisor

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestSessionMeta: the members kept are the session's keys of the last
// modern request mcp-go sent, without the caller's; a request before
// 2026-07-28 or without _meta keeps none; forget drops them until the
// next request shows them again.
func TestSessionMeta(t *testing.T) {
	params := func(meta string) any {
		p := map[string]json.RawMessage{"name": json.RawMessage(`"x"`)}
		if meta != "" {
			p["_meta"] = json.RawMessage(meta)
		}
		return p
	}
	const modern = `{"io.modelcontextprotocol/clientCapabilities":{"roots":{}},"io.modelcontextprotocol/clientInfo":{"name":"switchboard","version":"dev"},"io.modelcontextprotocol/protocolVersion":"2026-07-28","progressToken":"switchboard-1","x-trace":"t"}`
	const members = `"io.modelcontextprotocol/clientCapabilities":{"roots":{}},"io.modelcontextprotocol/clientInfo":{"name":"switchboard","version":"dev"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"`
	var m sessionMeta
	for _, step := range []struct {
		name string
		do   func()
		want string
	}{
		{"nothing sent", func() {}, ""},
		{"a request without _meta", func() { m.note(params("")) }, ""},
		{"params mcp-go did not touch", func() { m.note(struct{}{}) }, ""},
		{"a 2025-11-25 request", func() { m.note(params(`{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}`)) }, ""},
		{"a modern request", func() { m.note(params(modern)) }, members},
		{"a request without _meta after it", func() { m.note(params("")) }, members},
		{"forgotten", m.forget, ""},
		{"the same request again", func() { m.note(params(modern)) }, members},
		{"a log level added", func() {
			m.note(params(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/logLevel":"debug"}`))
		}, `"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/logLevel":"debug"`},
	} {
		step.do()
		if got := string(m.get()); got != step.want {
			t.Errorf("%s: members %s, want %s", step.name, got, step.want)
		}
	}
}

func TestWithAnswers(t *testing.T) {
	answers := map[string]any{"q": mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}}
	for _, c := range []struct{ params, state, want string }{
		{`{"name":"t","arguments":{}}`, "s1", `{"name":"t","arguments":{},"inputResponses":{"q":{"action":"decline"}},"requestState":"s1"}`},
		{`{"name":"t"}` + "\n ", "", `{"name":"t","inputResponses":{"q":{"action":"decline"}}}`},
		{`{ }`, "a\"b", `{ "inputResponses":{"q":{"action":"decline"}},"requestState":"a\"b"}`},
	} {
		got, err := withAnswers([]byte(c.params), answers, c.state)
		if err != nil || string(got) != c.want || !json.Valid(got) {
			t.Errorf("withAnswers(%s, %q) = %s, %v; want %s", c.params, c.state, got, err, c.want)
		}
	}
}

func TestInputRequired(t *testing.T) {
	for _, c := range []struct {
		result string
		asks   int
		state  string
		ok     bool
	}{
		{`{"content":[{"type":"text","text":"input_required"}]}`, 0, "", false},
		{`{"resultType":"complete","content":[]}`, 0, "", false},
		{`{"resultType":"input_required","requestState":"s","inputRequests":{"roots":{"method":"roots/list"}}}`, 1, "s", true},
		{`{"resultType":"input_required","requestState":"again"}`, 0, "again", true},
	} {
		got, ok := inputRequired(json.RawMessage(c.result))
		if ok != c.ok || len(got.InputRequests) != c.asks || got.RequestState != c.state {
			t.Errorf("inputRequired(%s) = %+v, %v", c.result, got, ok)
		}
	}
}
