package host

import (
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/pins"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// The pins are the router's gate, and keep their verdicts by version.
var _ router.VersionedGate = (*pins.Store)(nil)

// openPins opens the data dir's pins of trusted tool definitions. The
// built-ins are not pinned: they ship with the app and change with it.
// Accepting or rejecting a change lists the server's tools again, so the
// chat, the gateway and the pages see the verdict at once. The listings
// it screens are masked (secrets never reach pins.json); a pin taken
// before that is taken over masked.
func openPins(h *Host) *pins.Store {
	return pins.Open(h.dir.Pins(), pins.Options{
		Skip:   builtin.Reserved,
		Redact: h.red.Redact,
		OnChange: func(server string) {
			if h.mgr != nil {
				h.mgr.Router().Invalidate(server)
			}
		},
	})
}

// Pins are the tool definitions the user trusted, and the changed ones
// waiting for review: what the Servers page and 'switchboard tools trust'
// show and decide.
type Pins struct{ h *Host }

// Changes lists the tools withheld because their definition changed, with
// the trusted and the new definition.
func (p *Pins) Changes() ([]pins.Change, error) { return p.h.pins.Changes() }

// NewTools lists server's tools first seen after its first listing.
func (p *Pins) NewTools(server string) ([]string, error) { return p.h.pins.NewTools(server) }

// Trust accepts a tool's changed definition (or its "new" mark). name is
// the server's own tool name when server is given, else the exposed name
// (server__tool).
func (p *Pins) Trust(name, server string) (srv, tool string, err error) {
	srv, tool, err = p.h.pins.Resolve(name, server, router.Namespace)
	if err != nil {
		return "", "", err
	}
	return srv, tool, p.h.pins.Trust(srv, tool)
}

// Reject keeps the trusted definition; the tool stays withheld.
func (p *Pins) Reject(server, tool string) error { return p.h.pins.Reject(server, tool) }

// forgetTools deletes what the data directory kept of a removed server's
// tools: its pins and changes waiting for review (pins.json) and its last
// listing (listings/). Both hold its descriptions, and a new server of
// its name must start afresh.
func (h *Host) forgetTools(server string) error {
	return errors.Join(h.pins.Forget(server), mcpmanager.ForgetListing(h.dir.Listings(), server))
}

// ChangeReview is one withheld tool as a person reviews it: what changed
// (a line diff of the trusted and the new definition, or the whole new
// definition of a new tool) and why its new text looks suspicious.
type ChangeReview struct {
	Server string `json:"server"`
	Tool   string `json:"tool"` // the server's own name for the tool
	Name   string `json:"name"` // server__tool, as chats and serve name it
	// Old is empty for a new tool of a known server (nothing was trusted).
	Old      string        `json:"old"`
	New      string        `json:"new"`
	Diff     string        `json:"diff"`
	Warnings []WarningView `json:"warnings"`
	Seen     time.Time     `json:"seen"`
	Rejected bool          `json:"rejected"`
}

// Review lists the tools withheld for review, each with its diff and the
// hidden instructions found in its new text; name (server__tool, or the
// tool's own name with server) narrows it to one tool.
func (p *Pins) Review(name, server string) ([]ChangeReview, error) {
	changes, err := p.h.pins.Changes()
	if err != nil {
		return nil, err
	}
	if name != "" {
		srv, tool, err := p.h.pins.Resolve(name, server, router.Namespace)
		if err != nil {
			return nil, err
		}
		changes = slices.DeleteFunc(changes, func(c pins.Change) bool { return c.Server != srv || c.Tool != tool })
	}
	out := make([]ChangeReview, 0, len(changes))
	for _, c := range changes {
		r := ChangeReview{Server: c.Server, Tool: c.Tool, Name: router.Namespace(c.Server, c.Tool),
			Old: c.Old, New: c.New, Seen: c.Seen, Rejected: c.Rejected, Warnings: p.h.Tools.Warnings(definedTool(c.New))}
		if c.Old != "" {
			r.Diff = lineDiff(c.Old, c.New)
		}
		out = append(out, r)
	}
	return out, nil
}

// definedTool reads back the parts of a pinned definition that the
// hidden-instruction checks look at; what does not parse checks as empty.
func definedTool(def string) mcp.Tool {
	var d struct {
		Name        string          `json:"name"`
		Title       string          `json:"title"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if json.Unmarshal([]byte(def), &d) != nil {
		return mcp.Tool{}
	}
	return mcp.Tool{Name: d.Name, Title: d.Title, Description: d.Description, RawInputSchema: d.InputSchema}
}

// RejectNamed is Reject for a name a person typed: server__tool, or the
// tool's own name with server.
func (p *Pins) RejectNamed(name, server string) (srv, tool string, err error) {
	srv, tool, err = p.h.pins.Resolve(name, server, router.Namespace)
	if err != nil {
		return "", "", err
	}
	return srv, tool, p.h.pins.Reject(srv, tool)
}
