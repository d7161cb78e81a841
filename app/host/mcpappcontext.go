package host

import (
	"regexp"
)

// What an MCP App tells the model (ui/update-model-context) is text a
// server's page wrote, read by the model: the same channel for hidden
// instructions as a tool description. So it is bounded, checked like a
// description, and reaches the model as marked app context in the
// conversation, never as part of the system prompt.

// MaxModelContext is the most text, in bytes, one app may give the model
// at once; longer is refused (ErrModelContextTooLong).
var MaxModelContext = 8 << 10

// appKey is one app: its server and its ui:// URI.
type appKey struct{ server, app string }

// closeTag is the end of a context block, however an app spells it.
var closeTag = regexp.MustCompile(`(?i)<\s*/\s*app-context`)
