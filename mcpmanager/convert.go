package mcpmanager

import (
	"fmt"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// FromConfig turns a config entry into what the manager runs.
func FromConfig(s config.Server) ServerConfig {
	c := ServerConfig{
		Name: s.Name, Command: s.Command, Args: s.Args, Env: s.Env, Dir: s.Cwd,
		Disabled: s.Disabled, CallTimeout: s.ToolTimeout,
	}
	if s.Restart != nil {
		c.Restart = supervisor.Restart{Disabled: !s.Restart.Enabled, MaxAttempts: s.Restart.MaxAttempts, Delay: s.Restart.Delay}
	}
	switch s.Transport {
	case config.HTTP:
		// Streamable HTTP, falling back to SSE for older servers
		// (automaticSSEFallback); "type": "sse" skips the first try.
		c.Remote = &supervisor.Remote{URL: s.URL, Headers: s.Headers}
	case config.SSE:
		c.Remote = &supervisor.Remote{URL: s.URL, Type: supervisor.RemoteSSE, Headers: s.Headers}
	case config.Stdio, "":
	default:
		c.StartError = fmt.Sprintf("%s: %s servers are not supported; use stdio, http or sse", s.Name, s.Transport)
	}
	return c
}

// FromConfigs converts every server of an app config, in order.
func FromConfigs(servers []config.Server) []ServerConfig {
	out := make([]ServerConfig, 0, len(servers))
	for _, s := range servers {
		out = append(out, FromConfig(s))
	}
	return out
}
