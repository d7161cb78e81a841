package gateway

import (
	"bytes"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
)

// Content a server returns names its own resource URIs, which a client of
// the gateway cannot read: the gateway publishes that server's resources as
// switchboard://SERVER/URI (ExposedURI). exposeContent is the one rule that
// rewrites them (resource links, embedded resources), so a client following
// one goes through the gateway, which routes the read back; prompt
// messages, resource contents and tool results all pass through it.

// expose rewrites the resource URIs in c to the gateway's (ExposedURI):
// content (embedded resources, resource links) or a resource's contents.
// Anything else is returned as is. A pointer comes back as a value, a
// copy: the server's result is not changed.
func expose(srv string, c any) any {
	return rewrite(c, func(uri string) string { return ExposedURI(srv, uri) })
}

// rewrite is expose with the URI rule given: every resource URI u in c
// becomes to(u).
func rewrite(c any, to func(string) string) any {
	switch c := c.(type) {
	case mcp.ResourceLink:
		c.URI = to(c.URI)
		return c
	case mcp.TextResourceContents:
		c.URI = to(c.URI)
		return c
	case mcp.BlobResourceContents:
		c.URI = to(c.URI)
		return c
	case mcp.EmbeddedResource:
		c.Resource, _ = rewrite(c.Resource, to).(mcp.ResourceContents)
		return c
	case *mcp.ResourceLink:
		return rewrite(*c, to)
	case *mcp.TextResourceContents:
		return rewrite(*c, to)
	case *mcp.BlobResourceContents:
		return rewrite(*c, to)
	case *mcp.EmbeddedResource:
		return rewrite(*c, to)
	}
	return c
}

// exposeContent is expose for a piece of content (a prompt message's, a
// tool result's).
func exposeContent(srv string, c mcp.Content) mcp.Content {
	out, _ := expose(srv, c).(mcp.Content)
	return out
}

// exposeContents is expose for a resource's contents.
func exposeContents(srv string, c mcp.ResourceContents) mcp.ResourceContents {
	out, _ := expose(srv, c).(mcp.ResourceContents)
	return out
}

// linkTypes are the content types exposeContent rewrites, as they appear
// in JSON. Inside a JSON string the quotes would be escaped, so a text
// mentioning them does not match.
var linkTypes = [][]byte{[]byte(`"` + mcp.ContentTypeLink + `"`), []byte(`"` + mcp.ContentTypeResource + `"`)}

// relink is exposeContent for a relayed tools/call result (JSON). A result
// without a link (nearly all) is returned as it came, without a decode;
// only the content items that are links are decoded and encoded again,
// the rest of the result keeps its bytes. One that does not decode is
// returned as it came.
func relink(srv string, raw json.RawMessage) json.RawMessage {
	if !bytes.Contains(raw, linkTypes[0]) && !bytes.Contains(raw, linkTypes[1]) {
		return raw
	}
	var res map[string]json.RawMessage
	if json.Unmarshal(raw, &res) != nil {
		return raw
	}
	var content []json.RawMessage
	if json.Unmarshal(res["content"], &content) != nil {
		return raw
	}
	changed := false
	for i, item := range content {
		var head struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(item, &head) != nil || (head.Type != mcp.ContentTypeLink && head.Type != mcp.ContentTypeResource) {
			continue
		}
		c, err := mcp.UnmarshalContent(item)
		if err != nil {
			continue
		}
		b, err := json.Marshal(exposeContent(srv, c))
		if err != nil {
			continue
		}
		content[i], changed = b, true
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
