package host

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/library"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
)

// Errors of the edits below; front doors map them to their exit codes.
var (
	// ErrNoServer: no configured server has that name.
	ErrNoServer = errors.New("no server named")
	// ErrNameTaken: a configured or built-in server already has that name.
	ErrNameTaken = errors.New("a server with that name already exists")
)

// index finds a configured server by name.
func index(cfg *config.Config, name string) (int, error) {
	i := slices.IndexFunc(cfg.Servers, func(s config.Server) bool { return s.Name == name })
	if i < 0 {
		return -1, fmt.Errorf("%w %q; see the Servers page or 'switchboard servers list'", ErrNoServer, name)
	}
	return i, nil
}

// SetEnabled enables or disables a configured server.
func (s *Servers) SetEnabled(name string, enabled bool) error {
	h := s.h
	return h.Edit(func(cfg *config.Config) error {
		i, err := index(cfg, name)
		if err != nil {
			return err
		}
		cfg.Servers[i].Disabled = !enabled
		return nil
	})
}

// Remove deletes a configured server (front doors confirm first) and
// keeps its keyring entries; RemoveWith can delete them too.
func (s *Servers) Remove(name string) error { return s.RemoveWith(name, false) }

// RemoveWith deletes a configured server; with forgetSecrets its keyring
// entries go too (SecretsOf: its own, and those nothing else uses) and its
// login. Either way the grants it had go, and a new server of the same
// name gets a new id: it never inherits what this one kept.
func (s *Servers) RemoveWith(name string, forgetSecrets bool) error {
	h := s.h
	var removed config.Server
	var drop []string
	err := h.Edit(func(cfg *config.Config) error {
		i, err := index(cfg, name)
		if err != nil {
			return err
		}
		removed = cfg.Servers[i]
		if forgetSecrets {
			drop = secretsOf(cfg, i)
		}
		cfg.Servers = slices.Delete(cfg.Servers, i, i+1)
		if err := secrets.Forget(cfg, removed.ID); err != nil {
			return err
		}
		if len(drop) > 0 {
			if err := secrets.Index(cfg, false, drop...); err != nil {
				return err
			}
		}
		if in, ok := InstalledOf(removed); ok && len(in.Secrets) > 0 { // a bundle's keyring entries go too
			return secrets.Index(cfg, false, slices.Collect(maps.Values(in.Secrets))...)
		}
		return nil
	})
	if err != nil {
		return err
	}
	var errs []error
	for _, n := range drop {
		errs = append(errs, h.store.Delete(n))
	}
	if forgetSecrets && removed.URL != "" {
		errs = append(errs, h.store.Delete(oauth.KeyFor(removed.Name)))
	}
	errs = append(errs, h.Bundles.forget(removed)) // an installed bundle's files and keyring entries
	return errors.Join(errs...)
}

// Add adds one server.
func (s *Servers) Add(srv config.Server) error {
	h := s.h
	return h.Edit(func(cfg *config.Config) error {
		if err := nameFree(cfg, srv.Name, pickAnother); err != nil {
			return err
		}
		cfg.Servers = append(cfg.Servers, srv)
		return nil
	})
}

// nameFree refuses a name in use (or a built-in's). fix says what the
// user can do about it where the name is theirs to choose; "" where the
// name is fixed (a registry's or a bundle's), which says so instead of
// offering a choice there is no way to make.
func nameFree(cfg *config.Config, name, fix string) error {
	if _, taken := cfg.Lookup(name); taken || builtin.Reserved(name) {
		if fix == "" {
			fix = "the name comes with it and cannot be changed here: rename or remove the server named " + strconv.Quote(name) + " first (Servers → Edit, or 'switchboard servers remove')"
		}
		return fmt.Errorf("%w: %q; %s", ErrNameTaken, name, fix)
	}
	return nil
}

// pickAnother is nameFree's fix where the name is the user's to choose.
const pickAnother = "remove it first or pick another name"

// AddFromTemplate adds the server template id makes with values; secret
// parameters go to the keyring as "<server>_<param>" and the config holds
// a ${secret:...} reference. It returns the template used.
func (l *Library) AddFromTemplate(id, name string, values map[string]string) (library.Template, error) {
	h := l.h
	name = strings.TrimSpace(name)
	if name == "" {
		return library.Template{}, errors.New("the server needs a name: it prefixes its tools (name__tool)")
	}
	cfg, err := h.Config()
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
	return t, h.Edit(func(cfg *config.Config) error {
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

// SetProfile switches every server to a profile ("" for none); servers
// whose settings change restart with them.
func (l *Library) SetProfile(name string) error {
	h := l.h
	return h.Edit(func(cfg *config.Config) error {
		raw, err := library.WithProfile(cfg.Settings, cfg.Servers, name)
		if err != nil {
			return err
		}
		cfg.Settings = raw
		return nil
	})
}

// Profiles returns the active profile and every profile servers declare.
func (l *Library) Profiles() (active string, names []string, err error) {
	h := l.h
	cfg, err := h.Config()
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

// SetSecret stores (or replaces) a secret in the keyring and indexes it in
// config.json; the servers using it restart.
func (sc *Secrets) Set(name, value string) error {
	h := sc.h
	if err := h.store.Set(name, value); err != nil {
		return err
	}
	h.red.Add(value)
	return h.Edit(func(cfg *config.Config) error { return secrets.Index(cfg, true, name) })
}

// DeleteSecret removes a secret from the keyring and the index.
func (sc *Secrets) Delete(name string) error {
	h := sc.h
	if err := h.store.Delete(name); err != nil {
		return err
	}
	return h.Edit(func(cfg *config.Config) error { return secrets.Index(cfg, false, name) })
}
