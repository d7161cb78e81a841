package host

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
)

// openKeyring scopes the keyring to this data directory (config.json's
// settings.keyring.scope). A config.json from before scopes is upgraded
// once, here: its entries get ids and the keyring entries it uses are
// carried over (see upgrade). Without a config.json the scope is made now
// and written by the first edit.
func (h *Host) openKeyring() {
	h.pendingScope = secrets.NewID()
	h.store.SetScope(h.pendingScope)
	cfg, err := config.LoadContext(h.ctx, h.dir.Config())
	if err != nil {
		return // the servers page says why; an edit retries
	}
	if sc := secrets.ScopeOf(cfg.Settings); sc != "" {
		h.store.SetScope(sc)
		return
	}
	if _, err := os.Stat(h.dir.Config()); err != nil {
		return
	}
	if err := h.edit(func(*config.Config) error { return nil }); err != nil { // editScoped upgrades it
		slog.Warn("keyring: config.json could not be upgraded to scoped keyring names", "err", err)
	}
}

// editScoped runs before every edit's own change: it keeps the scope and
// the server ids in place (an entry without one gets one), upgrading a
// config.json of an older version on the way.
func (h *Host) editScoped(cfg *config.Config) error {
	sc := secrets.ScopeOf(cfg.Settings)
	if sc == "" {
		sc = h.store.Scope()
		if err := h.upgrade(cfg, sc); err != nil {
			return err
		}
		if err := secrets.SetScopeIn(cfg, sc); err != nil {
			return err
		}
	}
	h.store.SetScope(sc)
	return ensureIDs(cfg)
}

// ensureIDs gives every entry without a valid, unique id a new one. Such
// an entry was written by the user (an editor, an older version): the
// references it holds are theirs, so they are granted to it.
func ensureIDs(cfg *config.Config) error {
	seen := map[string]bool{}
	for i := range cfg.Servers {
		s := &cfg.Servers[i]
		if secrets.ValidID(s.ID) && !seen[s.ID] {
			seen[s.ID] = true
			continue
		}
		s.ID = secrets.NewID()
		seen[s.ID] = true
		if refs := secrets.ServerRefs(*s); len(refs) > 0 {
			if err := secrets.Grant(cfg, s.ID, true, refs...); err != nil {
				return err
			}
		}
	}
	return nil
}

// upgrade carries the keyring entries of a config.json from before scopes
// into scope: every name the config uses or indexes is copied from the
// unscoped entry (left in place: another data dir of this account may
// still read it), and each remote server's login moves to its KeyFor name.
func (h *Host) upgrade(cfg *config.Config, scope string) error {
	legacy := secrets.NewStore()
	scoped := secrets.NewStore()
	scoped.SetScope(scope)
	names := secrets.Names(cfg.Settings)
	for _, s := range cfg.Servers {
		names = append(names, secrets.ServerRefs(s)...)
	}
	if cs, err := chat.LoadSettings(cfg.Settings); err == nil {
		for _, p := range cs.Providers {
			names = append(names, secrets.Refs(p.APIKey)...)
		}
	}
	slices.Sort(names)
	copyOne := func(from, to string) error {
		v, err := legacy.Get(from)
		if errors.Is(err, secrets.ErrNotFound) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("carry %s over to this data directory's keyring entries: %w", from, err)
		}
		if _, err := scoped.Get(to); err == nil {
			return nil // already there: never overwrite a newer value
		}
		h.red.Add(v)
		return scoped.Set(to, v)
	}
	var errs []error
	for _, n := range slices.Compact(names) {
		errs = append(errs, copyOne(n, n))
	}
	for _, s := range cfg.Servers {
		if s.URL != "" {
			errs = append(errs, copyOne(oauth.LegacyKeyFor(s.Name), oauth.KeyFor(s.Name)))
		}
	}
	if err := errors.Join(errs...); err != nil && !errors.Is(err, secrets.ErrUnavailable) {
		return err
	}
	// Without a keyring nothing could be read; the references still work
	// once one is there, through 'secrets set'.
	return nil
}

// mayUse reports whether server s may resolve ${secret:name}: its own
// entries and the ones granted to it. An entry without an id (a --config
// file run as it is) is the user's file and is not checked.
func mayUse(s Server, grants map[string][]string, name string) bool {
	return s.ID == "" || grants == nil || secrets.OwnedBy(name, s.ID) || slices.Contains(grants[s.ID], name)
}

// notGranted is the start error of a server using another's secret.
func notGranted(server, name string) error {
	return fmt.Errorf("${secret:%s} %w (it came with an import, a registry entry or a bundle); if you trust it, grant it with 'switchboard secrets grant %s --server %q' or Grant on the server's card", name, ErrNotGranted, name, server)
}

// keepBackup reports whether a previous config.json may stay as the
// backup: not when it holds a value the keyring now keeps.
func (h *Host) keepBackup(old []byte) bool {
	s := string(old)
	return h.red.Redact(s) == s
}

func secretsOf(cfg *config.Config, i int) []string {
	srv := cfg.Servers[i]
	elsewhere := map[string]bool{}
	for j, o := range cfg.Servers {
		if j != i {
			for _, n := range secrets.ServerRefs(o) {
				elsewhere[n] = true
			}
		}
	}
	if cs, err := chat.LoadSettings(cfg.Settings); err == nil {
		for _, p := range cs.Providers {
			for _, n := range secrets.Refs(p.APIKey) {
				elsewhere[n] = true
			}
		}
	}
	var out []string
	add := func(n string) {
		if !elsewhere[n] && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	for _, n := range secrets.ServerRefs(srv) {
		add(n)
	}
	for _, n := range secrets.Names(cfg.Settings) {
		if secrets.OwnedBy(n, srv.ID) {
			add(n)
		}
	}
	slices.Sort(out)
	return out
}
