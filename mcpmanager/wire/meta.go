package wire

import "github.com/mark3labs/mcp-go/mcp"

// SessionMeta are the _meta keys of a request of revision 2026-07-28 or
// later that describe the session of whoever sends it: its protocol
// version, client identity and capabilities, and log level (SEP-2575).
// mcp-go's client writes them into every request it sends, over any key of
// the same name the caller gave; a hop that relays a request writes its
// own in place of its caller's.
var SessionMeta = []string{mcp.MetaKeyProtocolVersion, mcp.MetaKeyClientInfo, mcp.MetaKeyClientCapabilities, mcp.MetaKeyLogLevel}
