package secrets

import (
	"encoding/json"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// Keyring is config.json's settings.keyring: the data directory's scope
// (every keyring entry it uses is "<scope>/<name>", see Store.SetScope)
// and the directory that scope was given to. A config.json copied to
// another data directory (a backup, a second profile, a test) carries
// the scope along; Dir tells the copy from the original, so the copy can
// take a scope of its own before either changes the other's secrets.
type Keyring struct {
	Scope string `json:"scope"`
	// Dir is the data directory's canonical path (absolute, symbolic
	// links resolved) when it was given Scope; "" in a config.json from
	// before it was kept.
	Dir string `json:"dir,omitempty"`
}

// KeyringOf returns config.json's settings.keyring (zero when none).
func KeyringOf(raw json.RawMessage) Keyring {
	k, _ := keyringSection.From(raw)
	return k
}

// SetKeyringIn writes k into cfg's settings.
func SetKeyringIn(cfg *config.Config, k Keyring) error {
	return keyringSection.Edit(cfg, func(cur *Keyring) error {
		*cur = k
		return nil
	})
}
