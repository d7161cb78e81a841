package config

import "context"

// Save replaces the config at path with cfg through Edit (tests set up files
// this way; the app only ever edits).
func Save(path string, cfg *Config) error {
	_, err := Edit(context.Background(), path, func(c *Config) error {
		*c = *cfg.Clone()
		return nil
	})
	return err
}
