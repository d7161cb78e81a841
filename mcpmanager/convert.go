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
	if s.Transport != config.Stdio && s.Transport != "" {
		c.StartError = fmt.Sprintf("%s: %s servers (%s) are not supported by this build yet; only local stdio servers run", s.Name, s.Transport, s.URL)
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
