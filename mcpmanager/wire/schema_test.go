package wire_test

import (
	"encoding/json"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// An input schema written otherwise but meaning an object schema is typed
// as MCP requires; any other is left as it is.
func TestObjectSchema(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"$schema":"http://json-schema.org/draft-07/schema#"}`, `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}`},
		{`{"type":"","properties":{}}`, `{"properties":{},"type":"object"}`},
		{`{"type":["object","null"],"properties":{"a":{"type":"string"}}}`, `{"properties":{"a":{"type":"string"}},"type":"object"}`},
		{`{"type":"object","properties":[]}`, `{"properties":{},"type":"object"}`},
		{`{"type":"object","properties":{"a":{}}}`, ``},
		{`{"type":"string"}`, ``}, // not ours to turn into an object
		{`[]`, ``},
		{`null`, ``},
	} {
		got, changed := wire.ObjectSchema(json.RawMessage(c.in))
		if c.want == "" {
			if changed || string(got) != c.in {
				t.Errorf("%s: changed to %s", c.in, got)
			}
			continue
		}
		if !changed || string(got) != c.want {
			t.Errorf("%s: %s (changed %v), want %s", c.in, got, changed, c.want)
		}
	}
}
