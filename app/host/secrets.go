package host

import (
	"fmt"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// Secrets is the OS keyring and what in config.json uses each secret.
type Secrets struct{ h *Host }

// InUse lists the keyring's secrets named in config.json, masked,
// with what uses each: servers, and model providers ("provider NAME").
func (sc *Secrets) InUse() ([]SecretRow, error) {
	h := sc.h
	cfg, err := h.readConfig()
	if err != nil {
		return nil, err
	}
	list := secrets.List(cfg, h.store)
	if cs, err := chat.LoadSettings(cfg.Settings); err == nil {
		for _, p := range cs.Providers {
			for _, ref := range secrets.Refs(p.APIKey) {
				for i := range list {
					if list[i].Name == ref {
						list[i].UsedBy = append(list[i].UsedBy, "provider "+p.Name)
					}
				}
			}
		}
	}
	return secretsView(list), nil
}

// ProviderKey is the keyring entry a provider's API key names (the first
// ${secret:NAME} of it; "" when the key is not in the keyring) and
// whether the keyring holds a value for it.
func (sc *Secrets) ProviderKey(p ProviderSettings) (name string, stored bool) {
	refs := secrets.Refs(p.APIKey)
	if len(refs) == 0 {
		return "", false
	}
	_, err := sc.h.store.Get(refs[0])
	return refs[0], err == nil
}

// Available says whether the OS keyring can be used, and what to do when
// it cannot.
func (sc *Secrets) Available() error { return sc.h.store.Available() }

// Get reads one secret's value from the keyring.
func (sc *Secrets) Get(name string) (string, error) { return sc.h.store.Get(name) }

// Lookup resolves a ${secret:NAME} or ${env:NAME} reference (kind is
// "secret" or "env"), as server entries and providers use them.
func (sc *Secrets) Lookup(kind, name string) (string, error) { return sc.h.store.Lookup(kind, name) }

// Set stores (or replaces) a secret in the keyring and indexes it in
// config.json; the servers using it restart.
func (sc *Secrets) Set(name, value string) error {
	h := sc.h
	if err := h.store.Set(name, value); err != nil {
		return err
	}
	h.red.Add(value)
	return h.edit(func(cfg *config.Config) error { return secrets.Index(cfg, true, name) })
}

// Delete removes a secret from the keyring and the index.
func (sc *Secrets) Delete(name string) error {
	h := sc.h
	if err := h.store.Delete(name); err != nil {
		return err
	}
	return h.edit(func(cfg *config.Config) error { return secrets.Index(cfg, false, name) })
}

// Grant lets server use the keyring entry name although it is not the
// server's own: a reference that came with an import, a registry entry or
// a bundle is refused at start until then. The server restarts with it.
func (sc *Secrets) Grant(name, server string) error {
	h := sc.h
	return h.edit(func(cfg *config.Config) error {
		i, err := index(cfg, server)
		if err != nil {
			return err
		}
		s := cfg.Servers[i]
		if !slices.Contains(secrets.ServerRefs(s), name) && !slices.Contains(secrets.EnvRefs(s), name) {
			return fmt.Errorf("server %q does not use ${secret:%s} or ${env:%s}; its secrets are %s", server, name, name, strings.Join(secrets.ServerRefs(s), ", "))
		}
		return secrets.Grant(cfg, s.ID, true, name)
	})
}

// CommandLineSecrets are the arguments of s ("args[3]") that hold a
// ${secret:…}: its value is put on the command line when s starts, where
// every user of the computer can read it (see CommandLineNote).
func CommandLineSecrets(s Server) []string {
	var out []string
	for i, a := range s.Args {
		if len(secrets.Refs(a)) > 0 {
			out = append(out, fmt.Sprintf("args[%d]", i))
		}
	}
	return out
}
