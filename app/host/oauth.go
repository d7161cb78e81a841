package host

import (
	"fmt"
	"slices"

	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// OAuthEdit is a change to a remote server's "oauth" entry (the client
// Switchboard was registered as, for authorization servers that refuse
// dynamic registration).
type OAuthEdit struct {
	// OAuth is the entry as it should be; nil removes it. Its
	// ClientSecret is ignored: Secret and KeepSecret decide it.
	OAuth *config.OAuth
	// Secret, when not "", is a new client secret: it goes to the keyring
	// and the entry gets its ${secret:...} reference.
	Secret string
	// KeepSecret keeps the entry's current clientSecret when Secret is "";
	// false removes it (a public client).
	KeepSecret bool
}

// SetOAuth saves a remote server's "oauth" entry as one locked edit of
// config.json, checked with the file's own rules (a problem names its JSON
// path, e.g. oauth.redirectPort). The server then restarts with it, and
// its login uses the new client.
func (s *Servers) SetOAuth(name string, e OAuthEdit) error {
	h := s.h
	var ref, kept string
	if e.Secret != "" {
		cfg, err := h.Config()
		if err != nil {
			return err
		}
		cur, ok := cfg.Lookup(name)
		if !ok || !secrets.ValidID(cur.ID) {
			return fmt.Errorf("no server named %q (built-in servers need no login)", name)
		}
		kept = secrets.ServerName(cur.ID, "oauth.clientSecret")
		if err := h.store.Set(kept, e.Secret); err != nil {
			return fmt.Errorf("%s: the client secret could not be kept in the keyring: %w", name, err)
		}
		h.red.Add(e.Secret)
		ref = "${secret:" + kept + "}"
	}
	return h.Edit(func(cfg *config.Config) error {
		i := slices.IndexFunc(cfg.Servers, func(s config.Server) bool { return s.Name == name })
		if i < 0 {
			return fmt.Errorf("no server named %q (built-in servers need no login)", name)
		}
		srv := cfg.Servers[i].Clone()
		if e.OAuth != nil && srv.Transport == config.Stdio {
			return fmt.Errorf("%s is a local (stdio) server: only a remote (http/sse) server logs in with OAuth; give it its credentials as env values", name)
		}
		o := e.OAuth.Clone()
		if o != nil {
			o.ClientSecret = ref
			if ref == "" && e.KeepSecret && srv.OAuth != nil {
				o.ClientSecret = srv.OAuth.ClientSecret
			}
			if srv.OAuth != nil && o.Extra == nil {
				o.Extra = srv.OAuth.Extra // keys the form does not show stay as they were
			}
		}
		srv.OAuth = o
		if err := srv.Validate(); err != nil {
			return err
		}
		cfg.Servers[i] = srv
		if kept != "" {
			return secrets.Index(cfg, true, kept)
		}
		return nil
	})
}
