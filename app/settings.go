package app

import (
	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// KeyringStatus is "" when the OS keyring works, else one sentence on what to do.
func (a *App) KeyringStatus() (string, error) {
	if err := a.store.Available(); err != nil {
		return err.Error(), nil
	}
	return "", nil
}

// Secrets lists the secret names with masked values and the servers using them.
func (a *App) Secrets() ([]secrets.SecretInfo, error) {
	a.cfgMu.Lock()
	cfg, err := config.Load(a.dir.Config())
	a.cfgMu.Unlock()
	if err != nil {
		return nil, err
	}
	list := secrets.List(cfg, a.store)
	// Provider keys are used by chat settings, which the secrets package
	// does not read.
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

// SetSecret stores (or replaces) a secret and restarts the servers using it.
func (a *App) SetSecret(name, value string) error {
	if err := a.store.Set(name, value); err != nil {
		return err
	}
	return a.editConfig(func(cfg *config.Config) error { return secrets.Index(cfg, true, name) })
}

// DeleteSecret removes a secret from the keyring and the index.
func (a *App) DeleteSecret(name string) error {
	if err := a.store.Delete(name); err != nil {
		return err
	}
	return a.editConfig(func(cfg *config.Config) error { return secrets.Index(cfg, false, name) })
}
