// Package apps is the host side of MCP Apps (the io.modelcontextprotocol/ui
// extension, spec 2026-01-26): a tool whose _meta.ui.resourceUri names a
// ui:// resource is rendered with that resource's HTML in a sandboxed frame.
//
// The package owns what does not depend on a window: which tools have an
// app and who may see them (ToolUI, ModelVisible, AppVisible), reading and
// caching the ui:// resources per server and URI (Cache), turning a
// resource's _meta.ui into a Content-Security-Policy and a Permissions
// Policy allow list (ResourceMeta), and the loopback HTTP server that serves
// the sandbox proxy page on an origin that is not the window's (Proxy).
//
//	c := apps.NewCache(reg)              // reads through the router
//	go c.Follow(ctx, reg)                // dropped on every list change
//	res, err := c.Read(ctx, "weather", "ui://weather/view.html")
//	p, _ := apps.Listen()                // 127.0.0.1, random port
//	url := p.Register(res)               // the proxy page, CSP in its header
package apps

import (
	"encoding/json"
	"errors"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
)

// Extension is the extension's identifier in client capabilities.
const Extension = "io.modelcontextprotocol/ui"

// MIMEType is the only content type of an app resource this host renders.
const MIMEType = "text/html;profile=mcp-app"

// Visibility values of _meta.ui.visibility.
const (
	VisibleToModel = "model"
	VisibleToApp   = "app"
)

// Sentinel errors.
var (
	// ErrNotUI: the URI is not a ui:// resource.
	ErrNotUI = errors.New("not a ui:// resource")
	// ErrNoContent: the server's resources/read answer held no HTML app.
	ErrNoContent = errors.New("the server returned no text/html;profile=mcp-app content for this resource")
	// ErrNotForApps: an app called a tool whose visibility leaves out "app".
	ErrNotForApps = errors.New("this tool is not callable from an app (its _meta.ui.visibility leaves out \"app\")")
)

// Error is a failure about one app resource.
type Error struct {
	Op     string // "read", "call"
	Server string
	URI    string // the ui:// URI or the tool's name
	Err    error
}

func (e *Error) Error() string { return e.Server + ": " + e.Op + " " + e.URI + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Capability is what a client declares under capabilities.extensions
// [Extension] at initialize.
func Capability() map[string]any {
	return map[string]any{"mimeTypes": []string{MIMEType}}
}

// ToolMeta is a tool's _meta.ui.
type ToolMeta struct {
	ResourceURI string   `json:"resourceUri,omitempty"`
	Visibility  []string `json:"visibility,omitempty"`
}

// ToolUI returns t's _meta.ui; the deprecated flat "ui/resourceUri" key is
// read when ui.resourceUri is absent.
func ToolUI(t mcp.Tool) ToolMeta {
	var m ToolMeta
	if t.Meta == nil || t.Meta.AdditionalFields == nil {
		return m
	}
	f := t.Meta.AdditionalFields
	if ui, ok := f["ui"]; ok {
		if b, err := json.Marshal(ui); err == nil {
			_ = json.Unmarshal(b, &m) // a malformed ui object is no app
		}
	}
	if m.ResourceURI == "" {
		if s, ok := f["ui/resourceUri"].(string); ok {
			m.ResourceURI = s
		}
	}
	if !IsUI(m.ResourceURI) {
		m.ResourceURI = ""
	}
	return m
}

// visible applies the spec's default (["model", "app"] when omitted).
func (m ToolMeta) visible(to string) bool {
	return m.Visibility == nil || slices.Contains(m.Visibility, to)
}

// ModelVisible says whether t may be offered to a model: its visibility is
// omitted or includes "model".
func ModelVisible(t mcp.Tool) bool { return ToolUI(t).visible(VisibleToModel) }

// AppVisible says whether an app may call t: its visibility is omitted or
// includes "app".
func AppVisible(t mcp.Tool) bool { return ToolUI(t).visible(VisibleToApp) }

// IsUI says whether uri uses the ui:// scheme.
func IsUI(uri string) bool { return len(uri) > len("ui://") && uri[:len("ui://")] == "ui://" }
