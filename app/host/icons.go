package host

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/icons"
)

// Icons are the icons servers list for themselves, their tools, prompts
// and resources, as the window may show them: only those a view named, an
// https one fetched by Switchboard (size- and time-bounded, cached) so the
// window never loads a server's URL itself. Safe for concurrent use.
type Icons struct{ f *icons.Fetcher }

// Src picks the icon to show of a list (data: or https: only) and allows
// DataURL to fetch it; "" when there is none.
func (i *Icons) Src(list []mcp.Icon) string {
	src := icons.Pick(list)
	if src != "" {
		i.f.Allow(src)
	}
	return src
}

// DataURL returns an icon Src picked as a data: URL; a source Src never
// picked is refused.
func (i *Icons) DataURL(ctx context.Context, src string) (string, error) {
	if !i.f.Known(src) {
		return "", fmt.Errorf("no server listed the icon %.60q", src)
	}
	return i.f.DataURL(ctx, src)
}
