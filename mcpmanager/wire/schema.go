package wire

import (
	"bytes"
	"encoding/json"
	"slices"
)

// ObjectSchema is a tool's input schema as MCP requires it, an object
// schema, when a server wrote it otherwise in a way that still means one,
// and whether it needed that: no "type" or an empty one (zod 4 under an
// older SDK sends {"$schema": …} alone), a type list with "object" in it
// ("type": ["object", "null"]), and "properties": [] (PHP's empty array).
// mcp-go refuses a whole tools/list for the last two, and clients (Claude
// Code) one relayed with the first.
func ObjectSchema(raw json.RawMessage) (json.RawMessage, bool) {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil || top == nil {
		return raw, false
	}
	changed := false
	switch typ := top["type"]; {
	case typ == nil || string(typ) == `""`:
		top["type"], changed = json.RawMessage(`"object"`), true
	case len(typ) > 0 && typ[0] == '[':
		var types []string
		if json.Unmarshal(typ, &types) == nil && slices.Contains(types, "object") {
			top["type"], changed = json.RawMessage(`"object"`), true
		}
	}
	if p := bytes.TrimSpace(top["properties"]); len(p) > 0 && p[0] == '[' {
		top["properties"], changed = json.RawMessage(`{}`), true
	}
	if !changed {
		return raw, false
	}
	out, err := json.Marshal(top)
	if err != nil {
		return raw, false
	}
	return out, true
}
