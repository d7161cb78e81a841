package gui

import (
	"context"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// Content is what any page shows of servers' content besides tool
// calls: their icons as data: URLs, and resources opened from a link.
type Content struct{ *core }

// Icon returns an icon a view named (its icon field) as a data: URL: an
// https icon is fetched by Switchboard, within a size and a time limit, and
// cached, so the window never loads a server's URL itself. A source no
// view named is refused.
func (a *Content) Icon(src string) (string, error) {
	ctx, cancel := context.WithTimeout(a.bg(), iconTimeout)
	defer cancel()
	return a.h.Icons.DataURL(ctx, src)
}

// ReadResource reads one of server's resources (resources/read), for the
// viewer a resource link opens.
func (a *Content) ReadResource(server, uri string) (ResourceReadView, error) {
	res, err := a.h.Tools.Read(a.bg(), server, uri)
	if err != nil {
		return ResourceReadView{}, fmt.Errorf("%s could not read %s: %w", server, uri, err)
	}
	out := ResourceReadView{Server: server, URI: uri, Contents: make([]ResourceContentsView, 0, len(res.Contents))}
	for _, c := range res.Contents {
		switch c := c.(type) {
		case mcp.TextResourceContents:
			out.Contents = append(out.Contents, ResourceContentsView{URI: c.URI, MIMEType: c.MIMEType, Text: c.Text})
		case mcp.BlobResourceContents:
			out.Contents = append(out.Contents, ResourceContentsView{URI: c.URI, MIMEType: c.MIMEType, Blob: c.Blob})
		}
	}
	return out, nil
}

// iconTimeout bounds one Icon call (the fetch itself is bounded by
// icons.FetchTimeout).
const iconTimeout = 10 * time.Second

// iconSrc picks the icon to show of a server's list (data: or https:
// only) and allows the window to ask for it; "" when there is none.
func (a *core) iconSrc(list []mcp.Icon) string {
	return a.h.Icons.Src(list)
}

// ResourceContentsView is one part of a read resource.
type ResourceContentsView struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType"`
	Text     string `json:"text"`
	Blob     string `json:"blob"` // base64
}

// ResourceReadView is a resource as the viewer shows it.
type ResourceReadView struct {
	Server   string                 `json:"server"`
	URI      string                 `json:"uri"`
	Contents []ResourceContentsView `json:"contents"`
}
