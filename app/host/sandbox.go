package host

import (
	"context"
	"fmt"
	"slices"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/sandbox"
)

// SetSandbox turns a configured server's sandbox on with sb's settings, or
// off when sb is nil, in config.json (see Edit); a running server restarts
// in (or out of) its sandbox. Only a local (stdio) server can be
// sandboxed. A setting the config would refuse comes back as a
// *config.ValidationError naming its JSON path (NAME.sandbox.allowRead[0]).
func (s *Servers) SetSandbox(name string, sb *config.Sandbox) error {
	h := s.h
	return h.Edit(func(cfg *config.Config) error {
		i := slices.IndexFunc(cfg.Servers, func(s config.Server) bool { return s.Name == name })
		if i < 0 {
			return fmt.Errorf("no server named %q (built-in servers run inside Switchboard and cannot be sandboxed)", name)
		}
		s := cfg.Servers[i].Clone()
		if sb != nil && s.Transport != config.Stdio {
			return fmt.Errorf("%s is a remote (%s) server: only a local (stdio) server runs in a sandbox", name, s.Transport)
		}
		s.Sandbox = sb.Clone()
		if err := s.Validate(); err != nil {
			return err
		}
		cfg.Servers[i] = s
		return nil
	})
}

// sandboxAll gives every local (stdio) server of f without a "sandbox"
// entry of its own the default sandbox (an import's "run in a sandbox").
func sandboxAll(f *config.File) {
	for i := range f.Servers {
		if s := &f.Servers[i]; s.Transport == config.Stdio && s.Sandbox == nil {
			s.Sandbox = &config.Sandbox{}
		}
	}
	for i := range f.Entries {
		if s := &f.Entries[i].Server; s.Transport == config.Stdio && s.Sandbox == nil {
			s.Sandbox = &config.Sandbox{}
		}
	}
}

// SandboxAvailable says whether this machine can run a server in a
// sandbox, and what to install when it cannot.
func (s *Servers) SandboxAvailable(ctx context.Context) error { return sandbox.Available(ctx) }
