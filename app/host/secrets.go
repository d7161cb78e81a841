package host

import (
	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/secrets"
)

// SecretsInUse lists the keyring's secrets named in config.json, masked,
// with what uses each: servers, and model providers ("provider NAME").
func (h *Host) SecretsInUse() ([]secrets.SecretInfo, error) {
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
