package gui

import (
	"context"
	"fmt"
	"github.com/switchboard-app/switchboard/app/host"
	"time"
)

// Sandbox is the sandbox of each local server (the toggle under
// Details on the Servers page).
type Sandbox struct{ *core }

// ServerSandbox returns a configured server's sandbox settings.
func (p *Sandbox) ServerSandbox(name string) (SandboxView, error) {
	s, ok := p.h.Servers.Get(name)
	if !ok {
		return SandboxView{}, fmt.Errorf("no server named %q (built-in servers run inside Switchboard and cannot be sandboxed)", name)
	}
	v := SandboxView{AllowRead: []string{}, AllowWrite: []string{}, Roots: "read", Local: s.Transport == host.TransportStdio}
	if sb := s.Sandbox; sb != nil {
		v.Enabled, v.Network = true, sb.Network
		v.AllowRead = append(v.AllowRead, sb.AllowRead...)
		v.AllowWrite = append(v.AllowWrite, sb.AllowWrite...)
		if sb.Roots != "" {
			v.Roots = sb.Roots
		}
	}
	ctx, cancel := context.WithTimeout(p.life, 10*time.Second)
	defer cancel()
	if err := p.h.Servers.SandboxAvailable(ctx); err != nil {
		v.Unavailable = err.Error()
	}
	return v, nil
}

// SetServerSandbox saves a server's sandbox settings (Enabled false turns
// it off) and restarts it; a bad folder comes back naming its JSON path.
func (p *Sandbox) SetServerSandbox(name string, v SandboxView) error {
	if !v.Enabled {
		return p.h.Servers.SetSandbox(name, nil)
	}
	roots := v.Roots
	if roots == "read" {
		roots = ""
	}
	return p.h.Servers.SetSandbox(name, &host.Sandbox{Network: v.Network, AllowRead: nonEmpty(v.AllowRead), AllowWrite: nonEmpty(v.AllowWrite), Roots: roots})
}

// SandboxView is one server's "sandbox" entry as the Details form edits it.
type SandboxView struct {
	Enabled    bool     `json:"enabled"`
	Network    bool     `json:"network"`
	AllowRead  []string `json:"allowRead"`
	AllowWrite []string `json:"allowWrite"`
	Roots      string   `json:"roots"` // read (the default), write or none
	// Local is false for a remote server, which cannot be sandboxed.
	Local bool `json:"local"`
	// Unavailable says why a sandbox cannot run on this machine (what to
	// install); "" when it can.
	Unavailable string `json:"unavailable"`
}

// nonEmpty drops the blank lines of a list typed one folder per line.
func nonEmpty(list []string) []string {
	var out []string
	for _, s := range list {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
