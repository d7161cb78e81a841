package host

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
)

// openKeyring scopes the keyring to this data directory (config.json's
// settings.keyring, see secrets.Keyring). A config.json from before
// scopes is upgraded once, here: its entries get ids and the keyring
// entries it uses are carried over (see upgrade). A config.json copied
// from another data directory that still uses its scope gets a scope of
// its own, with a copy of the entries it uses (see separate). Without a
// config.json the scope is made now and written by the first edit.
func (h *Host) openKeyring() {
	h.pendingScope = secrets.NewID()
	h.store.SetScope(h.pendingScope)
	cfg, err := config.LoadContext(h.ctx, h.dir.Config())
	if err != nil {
		return // the servers page says why; an edit retries
	}
	k := secrets.KeyringOf(cfg.Settings)
	if k.Scope != "" {
		if _, shared := h.sharedScope(k); !shared {
			h.store.SetScope(k.Scope)
			return
		}
		// The pending scope until the entries are copied into it: never
		// the original's, which this copy must not change.
	} else if _, err := os.Stat(h.dir.Config()); err != nil {
		return
	}
	if err := h.edit(func(*config.Config) error { return nil }); err != nil { // editScoped upgrades or separates it
		slog.Warn("keyring: config.json's keyring scope could not be set up", "err", err)
	}
}

// editScoped runs before every edit's own change: it keeps the scope and
// the server ids in place (an entry without one gets one), upgrading a
// config.json of an older version on the way, and giving one copied from
// another data directory a scope of its own (see separate).
func (h *Host) editScoped(cfg *config.Config) error {
	k := secrets.KeyringOf(cfg.Settings)
	here := h.canonicalDir()
	switch {
	case k.Scope == "":
		k.Scope = h.store.Scope()
		if err := h.upgrade(cfg, k.Scope); err != nil {
			return err
		}
		k.Dir = here
	case k.Dir != here:
		other, shared := h.sharedScope(k)
		if shared {
			scope, err := h.separate(cfg, k.Scope, other)
			if errors.Is(err, secrets.ErrUnavailable) {
				// The store stays on a scope of its own (nothing here can
				// change the original's entries) and config.json on the
				// original's: the next edit copies them.
				slog.Warn("keyring: this data directory's secrets are copied to its own keyring entries once the keyring can be used", "err", err)
				return ensureIDs(cfg)
			}
			if err != nil {
				return err
			}
			k.Scope = scope
		}
		if shared || !sameDir(k.Dir, here) {
			k.Dir = here // moved here, or its own now: another path of it keeps the old one
		}
	}
	if k != secrets.KeyringOf(cfg.Settings) {
		if err := secrets.SetKeyringIn(cfg, k); err != nil {
			return err
		}
	}
	h.store.SetScope(k.Scope)
	return ensureIDs(cfg)
}

// canonicalDir is the data directory's absolute path with symbolic links
// resolved, as settings.keyring.dir records it.
func (h *Host) canonicalDir() string {
	dir, err := filepath.Abs(h.dir.String())
	if err != nil {
		return h.dir.String()
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return real
	}
	return dir
}

// sameDir reports whether paths a and b are one directory (a bind mount,
// another symbolic link to it).
func sameDir(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// sharedScope reports whether k, the keyring settings of this data
// directory's config.json, name a scope another data directory uses: the
// one k.Dir names, when that is another directory whose config.json names
// the same scope (this one is a copy of it, or it of this one). A
// directory that no longer exists or has another scope now leaves the
// scope to this one (the data directory was moved). other is k.Dir.
func (h *Host) sharedScope(k secrets.Keyring) (other string, shared bool) {
	if k.Dir == "" || k.Dir == h.canonicalDir() || sameDir(k.Dir, h.canonicalDir()) {
		return k.Dir, false
	}
	theirs, err := config.LoadContext(h.ctx, datadir.Dir(k.Dir).Config())
	if err != nil {
		return k.Dir, true // unreadable: it may well use the scope still
	}
	return k.Dir, secrets.ScopeOf(theirs.Settings) == k.Scope
}

// separate gives a data directory whose config.json was copied from
// other (and so names other's scope, from) a scope of its own: the store's
// pending one, with every keyring entry cfg uses copied into it from
// from. The original's entries are left as they are: removing a server
// or a secret here no longer deletes them there. It says so once.
func (h *Host) separate(cfg *config.Config, from, other string) (string, error) {
	to := h.store.Scope()
	if to == from {
		to = secrets.NewID()
		h.store.SetScope(to) // never write the original's entries meanwhile
	}
	src := secrets.NewStore()
	src.SetScope(from)
	dst := secrets.NewStore()
	dst.SetScope(to)
	n, err := h.carry(cfg, src, dst, oauth.KeyFor)
	if err != nil {
		return "", err
	}
	slog.Warn("keyring: this data directory's config.json was copied from or to another data directory, and the two shared their keyring entries; this one now keeps its own (the ones it uses were copied), so a secret changed or a server removed here no longer changes the other's",
		"dir", h.canonicalDir(), "other", other, "copied", n)
	return to, nil
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
// into scope: every entry the config uses is copied from the unscoped one
// (left in place: another data dir of this account may still read it),
// and each remote server's login moves to its KeyFor name.
func (h *Host) upgrade(cfg *config.Config, scope string) error {
	scoped := secrets.NewStore()
	scoped.SetScope(scope)
	_, err := h.carry(cfg, secrets.NewStore(), scoped, oauth.LegacyKeyFor)
	if err != nil && !errors.Is(err, secrets.ErrUnavailable) {
		return err
	}
	// Without a keyring nothing could be read; the references still work
	// once one is there, through 'secrets set'.
	return nil
}

// carry copies into to every keyring entry cfg uses, read from from:
// the names it indexes or references (servers, providers), the ${env:…}
// variables it may read from the keyring, and each remote server's
// login (named login(server) in from, oauth.KeyFor in to). An entry
// from lacks is skipped and one to has already is kept (never overwrite
// a newer value). It returns how many it copied; an error when the
// keyring cannot be used (secrets.ErrUnavailable) or a copy failed.
func (h *Host) carry(cfg *config.Config, from, to *secrets.Store, login func(server string) string) (int, error) {
	names := secrets.Names(cfg.Settings)
	for _, s := range cfg.Servers {
		names = append(names, secrets.ServerRefs(s)...)
		names = append(names, secrets.EnvRefs(s)...)
	}
	if cs, err := chat.LoadSettings(cfg.Settings); err == nil {
		for _, p := range cs.Providers {
			names = append(names, secrets.Refs(p.APIKey)...)
		}
	}
	slices.Sort(names)
	copied := 0
	copyOne := func(src, dst string) error {
		v, err := from.Get(src)
		if errors.Is(err, secrets.ErrNotFound) || errors.Is(err, secrets.ErrBadName) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("carry %s over to this data directory's keyring entries: %w", src, err)
		}
		if _, err := to.Get(dst); err == nil {
			return nil // already there: never overwrite a newer value
		}
		h.red.Add(v)
		if err := to.Set(dst, v); err != nil {
			return err
		}
		copied++
		return nil
	}
	var errs []error
	for _, n := range slices.Compact(names) {
		errs = append(errs, copyOne(n, n))
	}
	for _, s := range cfg.Servers {
		if s.URL != "" {
			errs = append(errs, copyOne(login(s.Name), oauth.KeyFor(s.Name)))
		}
	}
	return copied, errors.Join(errs...)
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
