package host

import (
	"fmt"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/library"
)

// Templates are the catalogue's server templates and those config.json
// declares (the catalogue alone when config.json cannot be read).
func (l *Library) Templates() []library.Template {
	var servers []config.Server
	if cfg, err := l.h.Config(); err == nil {
		servers = cfg.Servers
	}
	return library.Templates(servers)
}

// Meta is what the user wrote about a server (description, tags, docs,
// colour, icon, the template it came from); zero when it has none. It
// reads only the entry: a front door needs no open Host for it.
func Meta(s config.Server) library.Meta {
	m, _ := library.MetaOf(s)
	return m
}

// Describe is the description to show: the user's, else what the server
// said in initialize.
func Describe(m library.Meta, info library.Info) string {
	return library.Describe(m, info)
}

// SetMeta saves what the user says about a configured server; the
// template it came from is kept.
func (l *Library) SetMeta(name string, m library.Meta) error {
	return l.h.Edit(func(cfg *config.Config) error {
		i := slices.IndexFunc(cfg.Servers, func(s config.Server) bool { return s.Name == name })
		if i < 0 {
			return fmt.Errorf("no server named %q (built-in servers cannot be edited)", name)
		}
		old, _ := library.MetaOf(cfg.Servers[i])
		m.Template = old.Template
		return library.SetMeta(&cfg.Servers[i], m)
	})
}

// SetServerProfile stores one server's overrides for a profile (all empty
// removes them).
func (l *Library) SetServerProfile(server, profile string, o library.Override) error {
	return l.h.Edit(func(cfg *config.Config) error {
		i, err := index(cfg, server)
		if err != nil {
			return err
		}
		return library.SetProfile(&cfg.Servers[i], strings.TrimSpace(profile), o)
	})
}

// ServerProfiles are one configured server's profile overrides.
func (l *Library) ServerProfiles(server string) (map[string]library.Override, error) {
	s, ok := l.h.Servers.Get(server)
	if !ok {
		return nil, fmt.Errorf("%w %q; see the Servers page or 'switchboard servers list'", ErrNoServer, server)
	}
	ps, err := library.ProfilesOf(s)
	if ps == nil {
		ps = map[string]library.Override{}
	}
	return ps, err
}

// AsRun is a configured server as it runs now: the active profile's URL,
// arguments and environment applied (s itself when the override is wrong).
func (l *Library) AsRun(s config.Server) config.Server {
	if p, err := library.ApplyProfile(s, l.h.Servers.Applied().Profile); err == nil {
		return p
	}
	return s
}
