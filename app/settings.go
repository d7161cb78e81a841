package app

import (
	"github.com/switchboard-app/switchboard/app/secrets"
)

// KeyringStatus is "" when the OS keyring works, else one sentence on what to do.
func (a *SettingsPage) KeyringStatus() (string, error) {
	if err := a.h.Secrets.Available(); err != nil {
		return err.Error(), nil
	}
	return "", nil
}

// Secrets lists the secret names with masked values and what uses them.
func (a *SettingsPage) Secrets() ([]secrets.SecretInfo, error) {
	return a.h.Secrets.InUse()
}

// SetSecret stores (or replaces) a secret and restarts the servers using it.
func (a *SettingsPage) SetSecret(name, value string) error {
	return a.h.Secrets.Set(name, value)
}

// DeleteSecret removes a secret from the keyring and the index.
func (a *SettingsPage) DeleteSecret(name string) error {
	return a.h.Secrets.Delete(name)
}
