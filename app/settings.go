package app

import (
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
	return secrets.List(cfg, a.store), nil
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
