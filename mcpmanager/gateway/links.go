package gateway

import (
	"bytes"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
)

// A tool result's resource links name the upstream server's URIs, which a
// client of the gateway cannot read: the gateway publishes that server's
// resources as switchboard://SERVER/URI (ExposedURI). Relayed results get
// their links rewritten so that a client can follow them through the
// gateway, which routes the read back.

// relinkRaw rewrites the resource links of a relayed tools/call result
// (JSON). A result without one (nearly all) is returned as it came,
// without a decode; one that does not decode is returned as it came too.
func relinkRaw(server string, raw json.RawMessage) json.RawMessage {
	if !bytes.Contains(raw, []byte(`"resource_link"`)) {
		return raw
	}
	var res map[string]json.RawMessage
	if json.Unmarshal(raw, &res) != nil {
		return raw
	}
	var content []map[string]json.RawMessage
	if json.Unmarshal(res["content"], &content) != nil {
		return raw
	}
	changed := false
	for _, c := range content {
		var typ, uri string
		if json.Unmarshal(c["type"], &typ) != nil || typ != "resource_link" || json.Unmarshal(c["uri"], &uri) != nil || uri == "" {
			continue
		}
		c["uri"], _ = json.Marshal(ExposedURI(server, uri))
		changed = true
	}
	if !changed {
		return raw
	}
	res["content"], _ = json.Marshal(content)
	out, err := json.Marshal(res)
	if err != nil {
		return raw
	}
	return out
}

// relink is relinkRaw for a decoded result (the general path); res is
// changed in place.
func relink(server string, res *mcp.CallToolResult) {
	if res == nil {
		return
	}
	for i, c := range res.Content {
		if l, ok := c.(mcp.ResourceLink); ok && l.URI != "" {
			l.URI = ExposedURI(server, l.URI)
			res.Content[i] = l
		}
	}
}
