package mcpmanager

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
	"github.com/switchboard-app/switchboard/mcpmanager/sandbox"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// FromConfig turns a config entry into what the manager runs.
func FromConfig(s config.Server) ServerConfig {
	c := ServerConfig{
		Name: s.Name, Command: s.Command, Args: s.Args, Env: s.Env, Dir: s.Cwd,
		Disabled: s.Disabled, CallTimeout: s.ToolTimeout, Roots: s.Roots,
		IncludeTools: s.IncludeTools, ExcludeTools: s.ExcludeTools,
	}
	for _, r := range s.Roots {
		if !filepath.IsAbs(r) && c.StartError == "" { // a placeholder expanded to a relative path
			c.StartError = fmt.Sprintf("%s: root %q is not an absolute path; write the folder's full path in \"roots\"", s.Name, r)
		}
	}
	c.StartTimeout = s.StartupTimeout
	if s.Sandbox != nil && (s.Transport == config.Stdio || s.Transport == "") {
		c.Sandbox = sandboxPolicy(*s.Sandbox)
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
		if err := config.CheckHeaders(s.Headers); err != nil && c.StartError == "" {
			c.StartError = fmt.Sprintf("%s: %v", s.Name, err)
		}
		c.Remote.OAuth = oauthSettings(s.OAuth)
	}
	return c
}

// oauthSettings is a remote entry's "oauth" object (checked with the
// file: config.OAuth) as the login uses it, its secret expanded.
func oauthSettings(o *config.OAuth) oauth.Settings {
	if o == nil {
		return oauth.Settings{}
	}
	return oauth.Settings{
		ClientID: o.ClientID, ClientSecret: o.ClientSecret, Scopes: slices.Clone(o.Scopes), RedirectPort: o.RedirectPort,
		RedirectURI: o.RedirectURI, NoResource: o.NoResource, ClientMetadataURL: o.ClientMetadataURL,
	}
}

// Specs turns config servers into what the manager runs. expand replaces
// the placeholders of one value (${secret:...}, ${env:...}) at start, never
// written back; a server whose value cannot be expanded does not start and
// says why (its StartError).
func Specs(servers []config.Server, expand func(string) (string, error)) []ServerConfig {
	out := make([]ServerConfig, 0, len(servers))
	for _, s := range servers {
		r, err := expandServer(s, expand)
		if err == nil {
			r.Env, err = withEnvFile(r)
		}
		c := FromConfig(r)
		c.ListingKey = listingKey(s)
		if err != nil { // what is missing says more than the placeholder it left
			c.StartError = fmt.Sprintf("%s: %v", s.Name, err)
		}
		out = append(out, c)
	}
	return out
}

// expandServer expands every value of s that may hold a placeholder; on the
// first failure it returns s unchanged with the error.
func expandServer(s config.Server, expand func(string) (string, error)) (config.Server, error) {
	out := s.Clone()
	var firstErr error
	x := func(v string) string {
		if !strings.Contains(v, "${") {
			return v
		}
		r, err := expand(v)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return r
	}
	out.Command, out.Cwd, out.URL, out.EnvFile = x(s.Command), x(s.Cwd), x(s.URL), x(s.EnvFile)
	for i, a := range out.Args {
		out.Args[i] = x(a)
	}
	for i, r := range out.Roots {
		out.Roots[i] = x(r)
	}
	if sb := out.Sandbox; sb != nil {
		for _, l := range [][]string{sb.AllowRead, sb.AllowWrite} {
			for i, p := range l {
				l[i] = x(p)
			}
		}
	}
	for k, v := range out.Env {
		out.Env[k] = x(v)
	}
	for k, v := range out.Headers {
		out.Headers[k] = x(v)
	}
	if o := out.OAuth; o != nil {
		o.ClientID, o.ClientSecret = x(o.ClientID), x(o.ClientSecret)
	}
	if firstErr != nil {
		return s, firstErr
	}
	return out, nil
}

// sandboxPolicy is what a "sandbox" entry lets a server reach.
func sandboxPolicy(s config.Sandbox) *sandbox.Policy {
	access := map[string]sandbox.Access{"": sandbox.ReadOnly, "write": sandbox.ReadWrite, "read": sandbox.ReadOnly, "none": sandbox.Hidden}[s.Roots]
	return &sandbox.Policy{Network: s.Network, AllowRead: slices.Clone(s.AllowRead), AllowWrite: slices.Clone(s.AllowWrite), RootsAccess: access}
}

// withEnvFile is s's environment with its envFile's variables under it:
// the entry's own "env" wins, as in VS Code. A local server's only: a
// remote one gets no environment.
func withEnvFile(s config.Server) (map[string]string, error) {
	if s.EnvFile == "" || s.Transport != config.Stdio && s.Transport != "" {
		return s.Env, nil
	}
	if !filepath.IsAbs(s.EnvFile) {
		return s.Env, fmt.Errorf("envFile %q is not an absolute path; write the file's full path", s.EnvFile)
	}
	vars, err := config.ReadEnvFile(s.EnvFile)
	if err != nil {
		return s.Env, err
	}
	maps.Copy(vars, s.Env)
	return vars, nil
}
