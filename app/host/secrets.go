package host

import (
	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/secrets"
)

// SecretsInUse lists the keyring's secrets named in config.json, masked,
// with what uses each: servers, and model providers ("provider NAME").
func (sc *Secrets) InUse() ([]secrets.SecretInfo, error) {
	h := sc.h
	cfg, err := h.Config()
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
	return list, nil
}

// Available says whether the OS keyring can be used, and what to do when
// it cannot.
func (sc *Secrets) Available() error { return sc.h.store.Available() }

// Get reads one secret's value from the keyring.
func (sc *Secrets) Get(name string) (string, error) { return sc.h.store.Get(name) }

// Lookup resolves a ${secret:NAME} or ${env:NAME} reference (kind is
// "secret" or "env"), as server entries and providers use them.
func (sc *Secrets) Lookup(kind, name string) (string, error) { return sc.h.store.Lookup(kind, name) }
