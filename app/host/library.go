package host

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/library"
)

// Library is the server library: templates, profiles, metadata.
type Library struct{ h *Host }

// Templates are the catalogue's server templates and those config.json
// declares (the catalogue alone when config.json cannot be read).
func (l *Library) Templates() []library.Template {
	var servers []Server
	if cfg, err := l.h.readConfig(); err == nil {
		servers = cfg.Servers
	}
	return library.Templates(servers)
}

// AddFromTemplate adds the server template id makes with values; secret
// parameters go to the keyring as "<server>_<param>" and the config holds
// a ${secret:...} reference. It returns the template used.
func (l *Library) AddFromTemplate(id, name string, values map[string]string) (library.Template, error) {
	h := l.h
	name = strings.TrimSpace(name)
	if name == "" {
		return library.Template{}, errors.New("the server needs a name: it prefixes its tools (name__tool)")
	}
	cfg, err := h.readConfig()
	if err != nil {
		return library.Template{}, err
	}
	t, err := library.FindIn(cfg.Servers, id)
	if err != nil {
		return library.Template{}, err
	}
	if err := nameFree(cfg, name, pickAnother); err != nil {
		return t, err
	}
	in := library.Values{}
	for k, v := range values {
		in[k] = v
	}
	keep := &secrets.Keeper{Store: h.store, ID: secrets.NewID()}
	s, err := t.Instantiate(name, in, library.Options{Secret: keep.Keep})
	if err != nil {
		return t, err
	}
	s.ID = keep.ID
	h.red.Add(keep.Values...)
	return t, h.edit(func(cfg *config.Config) error {
		if err := nameFree(cfg, name, pickAnother); err != nil {
			return err
		}
		cfg.Servers = append(cfg.Servers, s)
		if len(keep.Names) > 0 {
			return secrets.Index(cfg, true, keep.Names...)
		}
		return nil
	})
}

// Profiles returns the active profile and every profile servers declare.
func (l *Library) Profiles() (active string, names []string, err error) {
	h := l.h
	cfg, err := h.readConfig()
	if err != nil {
		return "", nil, err
	}
	names = library.Profiles(cfg.Servers)
	if names == nil {
		names = []string{}
	}
	active, err = library.ActiveProfile(cfg.Settings)
	return active, names, err
}

// SetProfile switches every server to a profile ("" for none); servers
// whose settings change restart with them.
func (l *Library) SetProfile(name string) error {
	h := l.h
	return h.edit(func(cfg *config.Config) error {
		raw, err := library.WithProfile(cfg.Settings, cfg.Servers, name)
		if err != nil {
			return err
		}
		cfg.Settings = raw
		return nil
	})
}

// SetServerProfile stores one server's overrides for a profile (all empty
// removes them).
func (l *Library) SetServerProfile(server, profile string, o ProfileOverride) error {
	return l.h.edit(func(cfg *config.Config) error {
		i, err := index(cfg, server)
		if err != nil {
			return err
		}
		return library.SetProfile(&cfg.Servers[i], strings.TrimSpace(profile), o.engine())
	})
}

// ServerProfiles are one configured server's profile overrides.
func (l *Library) ServerProfiles(server string) (map[string]ProfileOverride, error) {
	s, ok := l.h.Servers.Get(server)
	if !ok {
		return nil, fmt.Errorf("%w %q; see the Servers page or 'switchboard servers list'", ErrNoServer, server)
	}
	ps, err := library.ProfilesOf(s)
	out := make(map[string]ProfileOverride, len(ps))
	for name, o := range ps {
		out[name] = overrideView(o)
	}
	return out, err
}

// SetMeta saves what the user says about a configured server; the
// template it came from is kept (m.Template is ignored).
func (l *Library) SetMeta(name string, sm ServerMeta) error {
	m := library.Meta(sm)
	return l.h.edit(func(cfg *config.Config) error {
		i := slices.IndexFunc(cfg.Servers, func(s Server) bool { return s.Name == name })
		if i < 0 {
			return fmt.Errorf("no server named %q (built-in servers cannot be edited)", name)
		}
		old, _ := library.MetaOf(cfg.Servers[i])
		m.Template = old.Template
		return library.SetMeta(&cfg.Servers[i], m)
	})
}

// AsRun is a configured server as it runs now: the active profile's URL,
// arguments and environment applied (s itself when the override is wrong).
func (l *Library) AsRun(s Server) Server {
	if p, err := library.ApplyProfile(s, l.h.Servers.Applied().Profile); err == nil {
		return p
	}
	return s
}

// Meta is what the user wrote about a server (description, tags, docs,
// colour, icon, the template it came from); zero when it has none. It
// reads only the entry: a front door needs no open Host for it.
func Meta(s Server) ServerMeta {
	m, _ := library.MetaOf(s)
	return ServerMeta(m)
}

// ServerMeta is what the user wrote about a server (library.Meta).
type ServerMeta struct {
	Description string   `json:"description,omitempty"`
	Tags        []string `json:"tags,omitempty"`
	DocsURL     string   `json:"docsUrl,omitempty"`
	Color       string   `json:"color,omitempty"` // #rgb or #rrggbb
	Icon        string   `json:"icon,omitempty"`  // an emoji or up to two letters
	Template    string   `json:"template,omitempty"`
}

// Describe is the description to show of the server whose status is st:
// the user's (m), else what the server said in initialize (its
// description, else its title and the first sentence of its instructions).
func Describe(m ServerMeta, st ServerStatus) string {
	info := library.Info{Name: st.ServerInfo.Name, Title: st.ServerInfo.Title, Version: st.ServerInfo.Version,
		Description: st.ServerInfo.Description, Instructions: st.Instructions}
	return library.Describe(library.Meta(m), info)
}
