package mcpmanager

import (
	"encoding/json"
	"fmt"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
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
	if c.Remote != nil {
		// The URL as it runs, after ${secret:}, ${env:} and {{param}}
		// substitution: the file's check skipped the placeholders.
		if err := config.CheckURL(s.URL, s.Transport); err != nil && c.StartError == "" {
			c.StartError = fmt.Sprintf("%s: %v", s.Name, err)
		}
		settings, err := oauthSettings(s.Extra["oauth"])
		if err != nil && c.StartError == "" {
			c.StartError = fmt.Sprintf("%s: %v", s.Name, err)
		}
		c.Remote.OAuth = settings
	}
	return c
}

// oauthSettings reads a remote entry's "oauth" object, in the shape Gemini
// CLI and Claude Code write it: {"clientId", "clientSecret", "scopes",
// "callbackPort"}. Every field is optional.
func oauthSettings(raw json.RawMessage) (oauth.Settings, error) {
	if len(raw) == 0 {
		return oauth.Settings{}, nil
	}
	var v struct {
		ClientID     string   `json:"clientId"`
		ClientSecret string   `json:"clientSecret"`
		Scopes       []string `json:"scopes"`
		CallbackPort int      `json:"callbackPort"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return oauth.Settings{}, fmt.Errorf(`"oauth" must be an object like {"clientId": "...", "scopes": ["..."]}: %w`, err)
	}
	if v.CallbackPort < 0 || v.CallbackPort > 65535 {
		return oauth.Settings{}, fmt.Errorf(`"oauth.callbackPort" %d is not a port number (1-65535)`, v.CallbackPort)
	}
	return oauth.Settings{ClientID: v.ClientID, ClientSecret: v.ClientSecret, Scopes: v.Scopes, CallbackPort: v.CallbackPort}, nil
}

// FromConfigs converts every server of an app config, in order.
func FromConfigs(servers []config.Server) []ServerConfig {
	out := make([]ServerConfig, 0, len(servers))
	for _, s := range servers {
		out = append(out, FromConfig(s))
	}
	return out
}
