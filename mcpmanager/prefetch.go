package mcpmanager

import (
	"context"

	"github.com/switchboard-app/switchboard/mcpmanager/fetch"
)

// Prefetch downloads the package of c's launcher (npx, uvx, docker) now,
// in the environment c would start in, so that its first start is warm; it
// is a no-op for any other server. A start of c while the download is
// under way waits for the same download (in state installing) rather than
// starting another.
func (m *Manager) Prefetch(ctx context.Context, c ServerConfig) error {
	if c.Remote != nil || c.Builtin != nil || c.StartError != "" {
		return nil
	}
	p := fetch.For(m.resolve(c.Command, m.env(c.Env)), c.Args)
	if p == nil {
		return nil
	}
	return fetch.Run(ctx, p, fetch.Options{Env: m.env(c.Env), Dir: c.Dir, Timeout: c.FetchTimeout})
}
