package toolsearch_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat/toolsearch"
	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/builtin/contentstore"
	"github.com/switchboard-app/switchboard/builtin/workspace"
)

func TestDecide(t *testing.T) {
	cases := []struct {
		name          string
		tools, tokens int
		window        int
		rule          toolsearch.Rule
		on            bool
		by            string
		reason        string
	}{
		{"320 tools against a 128k window", 320, 41_000, 128_000, toolsearch.Rule{}, true, "size",
			"Tool search is on: 320 tools ≈ 41k tokens, more than a quarter of this model's 128k context"},
		{"60 small tools fit a 128k window", 60, 9_000, 128_000, toolsearch.Rule{}, false, "size",
			"Tool search is off: 60 tools ≈ 9k tokens, within a quarter of this model's 128k context"},
		{"unknown window assumes 32k", 60, 9_000, 0, toolsearch.Rule{}, true, "size",
			"more than a quarter of the 32k context assumed for a model whose window is not known"},
		{"just at the share stays off", 10, 8_000, 32_000, toolsearch.Rule{}, false, "size", "within a quarter"},
		{"one token over turns it on", 10, 8_001, 32_000, toolsearch.Rule{}, true, "size", "more than a quarter"},
		{"a share of 10 percent", 40, 5_000, 32_000, toolsearch.Rule{Share: 10}, true, "size", "more than 10% of this model's 32k context"},
		{"a share out of range is the default", 40, 5_000, 32_000, toolsearch.Rule{Share: 400}, false, "size", "within a quarter"},
		{"count rule above", 41, 100, 1_000_000, toolsearch.Rule{Above: 40}, true, "count", "41 tools, more than the 40 set in Settings"},
		{"count rule at", 40, 1_000_000, 1_000, toolsearch.Rule{Above: 40}, false, "count", "40 tools, not more than the 40 set in Settings"},
		{"off", 900, 200_000, 8_000, toolsearch.Rule{Above: -1}, false, "off", "Tool search is off in Settings: the model sees all 900 tools (≈ 200k tokens)"},
		{"small counts in words", 1, 850, 0, toolsearch.Rule{}, false, "size", "1 tool ≈ 850 tokens"},
		{"thousands with a decimal", 12, 7_450, 131_072, toolsearch.Rule{}, false, "size", "12 tools ≈ 7.5k tokens, within a quarter of this model's 131k context"},
		// The provider's limit on tools a request: past it the request is
		// refused whole, so every rule searches.
		{"over the provider's limit", 183, 58_000, 1_000_000, toolsearch.Rule{MaxTools: 128}, true, "limit", "183 tools, more than the 128 this provider takes in one request"},
		{"the limit over off", 200, 1_000, 1_000_000, toolsearch.Rule{Above: -1, MaxTools: 128}, true, "limit", "more than the 128 this provider takes"},
		{"the limit over a count", 129, 1_000, 1_000_000, toolsearch.Rule{Above: 500, MaxTools: 128}, true, "limit", "129 tools"},
		{"within the limit the size rule decides", 128, 1_000, 1_000_000, toolsearch.Rule{MaxTools: 128}, false, "size", "within a quarter"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := toolsearch.Decide(c.tools, c.tokens, c.window, c.rule)
			if d.On != c.on || d.By != c.by {
				t.Errorf("on %v by %q, want on %v by %q (%+v)", d.On, d.By, c.on, c.by, d)
			}
			if !strings.Contains(d.Reason, c.reason) {
				t.Errorf("reason %q\nwant it to contain %q", d.Reason, c.reason)
			}
			if d.WindowKnown != (c.window > 0) || d.Window <= 0 {
				t.Errorf("window %d known %v for %d", d.Window, d.WindowKnown, c.window)
			}
		})
	}
}

// defs are tool definitions as a turn sends them.
type def struct {
	name, desc string
	schema     json.RawMessage
}

func tokensOf(defs []def) int {
	n := 0
	for _, d := range defs {
		n += toolsearch.Tokens(d.name, d.desc, d.schema)
	}
	return n
}

// builtinDefs are the real definitions of the two built-in servers.
func builtinDefs(t *testing.T) []def {
	t.Helper()
	var out []def
	for _, b := range []builtin.Server{contentstore.Builtin, workspace.Builtin} {
		srv, closeFn, err := b.Start(builtin.Config{Root: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = closeFn() })
		for _, st := range srv.ListTools() {
			schema, err := json.Marshal(st.Tool.InputSchema)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, def{b.Name + "__" + st.Tool.Name, st.Tool.Description, schema})
		}
	}
	return out
}

// typical makes n definitions the size of a typical server's: a two-line
// description and a schema of three described parameters (≈ 130 tokens,
// the mean of the 320 real tools TestFindToolsAcrossRealServers lists).
func typical(server string, n int) []def {
	schema := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"The path of the file or folder, relative to the allowed directory"},` +
		`"content":{"type":"string","description":"The text to write into the file, replacing what it held"},"recursive":{"type":"boolean","description":"Also list subfolders"}},"required":["path"]}`)
	var out []def
	for i := range n {
		out = append(out, def{server + "__tool_" + string(rune('a'+i%26)), "Does one thing to the files or records of this server and says what it did. " +
			"Use it when the user asks for exactly that; it fails with a message saying why when it cannot.", schema})
	}
	return out
}

// The built-in servers' tools must leave room for a person's own servers:
// with two typical servers beside them, an unknown model (the smallest
// window assumed) still sees every tool; with eighteen it searches.
func TestBuiltinsDoNotTurnSearchOn(t *testing.T) {
	bi := builtinDefs(t)
	if len(bi) < 15 {
		t.Fatalf("only %d built-in tools", len(bi))
	}
	two := append(append(append([]def{}, bi...), typical("filesystem", 14)...), typical("git", 12)...)
	many := append([]def{}, bi...)
	for _, s := range []string{"github", "gitlab", "slack", "notion", "playwright", "k8s", "mongodb", "sentry"} {
		many = append(many, typical(s, 35)...)
	}
	cases := []struct {
		name   string
		defs   []def
		window int
		on     bool
	}{
		{"built-ins alone, unknown window", bi, 0, false},
		{"built-ins and two servers, unknown window", two, 0, false},
		{"built-ins and two servers, 128k", two, 128_000, false},
		{"built-ins and two servers, an 8k local model", two, 8_000, true},
		{"built-ins and 280 tools, 128k", many, 128_000, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tokens := tokensOf(c.defs)
			d := toolsearch.Decide(len(c.defs), tokens, c.window, toolsearch.Rule{})
			if d.On != c.on {
				t.Errorf("%d tools ≈ %d tokens in a %d window: on %v, want %v (%s)", len(c.defs), tokens, d.Window, d.On, c.on, d.Reason)
			}
			// The count rule this replaces searched above 40 tools: it
			// would have turned search on for two servers and the built-ins.
			if c.name == "built-ins and two servers, unknown window" && len(c.defs) <= 40 {
				t.Errorf("the two-server set-up has only %d tools; it should be past the old count of 40", len(c.defs))
			}
		})
	}
}
