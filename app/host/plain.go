package host

import (
	"context"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
	"github.com/switchboard-app/switchboard/mcpmanager/plain"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// Plain is err as a person should read it: the plain sentence first (what
// happened and what to do), then the technical detail. Both front doors
// show errors this way.
func Plain(err error) string { return plain.Text(err) }

// Ago is how long ago d was, in words ("3 minutes").
func Ago(d time.Duration) string { return plain.Ago(d) }

// Bytes is a size in words ("20.0 MB").
func Bytes(n int64) string { return plain.Bytes(n) }

// Shown is a text from a model or a server written out for the person who
// approves what it does (plain.Shown): what to show, and how much of it is
// not shown.
type Shown = plain.Shown

// Show writes s out for the person who approves it, in about max
// characters (plain.Show): invisible and reordering characters as their
// codes, long blank runs counted, and a text too long for max as its head
// and tail with the middle counted. Both front doors show a tool call's
// arguments this way, and so does serve's question to its client.
func Show(s string, max int) Shown { return plain.Show(s, max) }

// FormDefaults is a server's elicitation form filled with the defaults its
// schema gives (what accepting it without asking, --yes, sends).
func FormDefaults(schema any) any { return supervisor.ApplyDefaults(schema, nil) }

// OpenBrowser opens u in the user's browser and returns once the opener
// started (the terminal's way to follow a URL a server asks the user to
// visit; the window opens links itself).
func OpenBrowser(ctx context.Context, u string) error { return oauth.OpenBrowser(ctx, u) }
