package host

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/library"
)

// Applied is what the running servers were started with, read by every
// server view (so a status event does not read config.json again).
type Applied struct {
	Profile string              // the active profile ("" for none)
	Agents  map[string][]string // server → names of the agents using it
	// Roots are each configured server's roots and the rule that chose them.
	Roots map[string]Roots
}

// Applied is what Load or Edit last applied (zero before the first).
func (s *Servers) Applied() *Applied {
	h := s.h
	if ap := h.applied.Load(); ap != nil {
		return ap
	}
	return &Applied{}
}

// Config reads config.json.
func (h *Host) Config() (*config.Config, error) {
	h.cfgMu.Lock()
	defer h.cfgMu.Unlock()
	return config.LoadContext(h.ctx, h.dir.Config())
}

// Load reads config.json and makes the running servers match it.
func (s *Servers) Load() error {
	h := s.h
	h.cfgMu.Lock()
	defer h.cfgMu.Unlock()
	return h.loadLocked()
}

func (h *Host) loadLocked() error {
	cfg, err := config.Load(h.dir.Config())
	if err != nil {
		return err
	}
	h.servers = cfg.Servers
	h.live = true
	h.apply(cfg)
	return nil
}

// Follow loads config.json and then follows it: whenever another process
// (the CLI, a second window, an editor) changes it, the running servers
// follow the new content and onReload (nil: none) hears of it, with the
// error when the new file does not load (the servers keep running as they
// were). It returns at once; following ends at Close. Changes are never
// overwritten: every Edit re-reads the file under its lock.
func (s *Servers) Follow(onReload func(error)) error {
	h := s.h
	h.cfgMu.Lock()
	since, err := config.StampOf(h.dir.Config())
	if err == nil {
		err = h.loadLocked()
	}
	h.cfgMu.Unlock()
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		config.Watch(h.ctx, h.dir.Config(), since, func(cfg *config.Config, err error) {
			if err == nil {
				h.cfgMu.Lock()
				h.servers = cfg.Servers
				h.apply(cfg)
				h.cfgMu.Unlock()
			}
			if onReload != nil {
				onReload(err)
			}
		})
	}()
	return err
}

// Edit changes config.json as one transaction, across processes (see
// config.Edit): lock, read, fn, save atomically (nothing is written when fn
// fails), then the running servers follow.
func (h *Host) Edit(fn func(cfg *config.Config) error) error {
	h.cfgMu.Lock()
	defer h.cfgMu.Unlock()
	saved, err := config.EditBackup(h.ctx, h.dir.Config(), h.keepBackup, func(cfg *config.Config) error {
		if err := h.editScoped(cfg); err != nil {
			return err
		}
		if err := fn(cfg); err != nil {
			return err
		}
		return ensureIDs(cfg) // an entry fn added without one is the user's
	})
	if err != nil {
		return err
	}
	fresh := added(h.servers, saved.Servers)
	h.servers = saved.Servers
	if h.live { // a CLI command edits without running anything
		h.apply(saved)
		h.Downloads.Prefetch(saved, fresh...) // imported or added: warm before the first start
	}
	return nil
}

// EditSettings changes the chat settings in config.json (see Edit).
func (st *Settings) EditChat(fn func(s *chat.Settings) error) error {
	h := st.h
	return h.Edit(func(cfg *config.Config) error { return editChat(cfg, fn) })
}

// editChat lets fn change the chat settings inside cfg.
func editChat(cfg *config.Config, fn func(s *chat.Settings) error) error {
	s, err := chat.LoadSettings(cfg.Settings)
	if err != nil {
		return err
	}
	if err := fn(&s); err != nil {
		return err
	}
	raw, err := s.Into(cfg.Settings)
	if err != nil {
		return err
	}
	cfg.Settings = raw
	return nil
}

// SaveProvider adds or updates a model provider. A new key (apiKey not
// empty) goes to the keyring first and the provider refers to it as
// ${secret:...}; an empty apiKey keeps the key stored before.
func (st *Settings) SaveProvider(ps chat.ProviderSettings, apiKey string) error {
	h := st.h
	if old, err := h.Settings.Chat(); err == nil {
		if p, err := old.Provider(ps.Name); err == nil && strings.EqualFold(p.Name, ps.Name) {
			ps.APIKey = p.APIKey
		}
	}
	if err := ps.Validate(); err != nil {
		return err
	}
	var keyName string
	if k := strings.TrimSpace(apiKey); k != "" {
		keyName = secrets.ProviderName(ps.Name)
		if err := h.store.Set(keyName, k); err != nil {
			return err
		}
		h.red.Add(k)
		ps.APIKey = "${secret:" + keyName + "}"
	}
	return h.Edit(func(cfg *config.Config) error {
		if keyName != "" {
			if err := secrets.Index(cfg, true, keyName); err != nil {
				return err
			}
		}
		return editChat(cfg, func(s *chat.Settings) error { return s.Put(ps) })
	})
}

// ChatSettings reads the chat settings of config.json.
func (st *Settings) Chat() (chat.Settings, error) {
	h := st.h
	cfg, err := h.Config()
	if err != nil {
		return chat.Settings{}, err
	}
	return chat.LoadSettings(cfg.Settings)
}

// Servers returns config.json's servers as last loaded or saved.
func (s *Servers) List() []config.Server {
	h := s.h
	h.cfgMu.Lock()
	defer h.cfgMu.Unlock()
	return slices.Clone(h.servers)
}

// Server returns one configured server as last loaded or saved.
func (s *Servers) Get(name string) (config.Server, bool) {
	h := s.h
	h.cfgMu.Lock()
	defer h.cfgMu.Unlock()
	i := slices.IndexFunc(h.servers, func(s config.Server) bool { return s.Name == name })
	if i < 0 {
		return config.Server{}, false
	}
	return h.servers[i], true
}

// apply starts what cfg says should run: templates are left out, the
// active profile's overrides applied, secrets resolved. A server whose
// profile override is wrong shows the problem instead of running.
func (h *Host) apply(cfg *config.Config) {
	profile, perr := library.ActiveProfile(cfg.Settings)
	cs, cerr := chat.LoadSettings(cfg.Settings)
	for _, err := range []error{perr, cerr} {
		if err != nil { // the servers run as written; the Settings page says why
			slog.Warn("settings", "err", err)
		}
	}
	ap := &Applied{Profile: profile, Agents: map[string][]string{}}
	if cerr == nil {
		for _, ag := range cs.Agents {
			for _, s := range ag.Servers {
				ap.Agents[s] = append(ap.Agents[s], ag.Name)
			}
		}
	}
	run, problems := library.Prepare(cfg.Servers, ap.Profile)
	specs := h.Servers.specs(run, grantsOf(cfg))
	withDownloadTimeout(specs, cfg)
	for i := range specs {
		if err := problems[specs[i].Name]; err != nil {
			specs[i].StartError = err.Error()
		}
	}
	h.applyTaskPolicy(cfg)
	root := workspaceRootIn(h.dir, cfg)
	h.running, ap.Roots = withRoots(specs, run, root)
	h.applied.Store(ap)
	h.mgr.Apply(h.withBuiltins(root, h.running))
}

// Run starts exactly these servers (a --config file, or a subset chosen by
// the caller) with their secrets resolved, instead of config.json's.
func (s *Servers) Run(servers []config.Server) {
	h := s.h
	specs := h.Servers.Specs(servers)
	h.cfgMu.Lock()
	defer h.cfgMu.Unlock()
	root := WorkspaceRoot(h.dir)
	if cfg, err := config.Load(h.dir.Config()); err == nil {
		h.applyTaskPolicy(cfg)
	}
	h.running, _ = withRoots(specs, servers, root)
	h.mgr.Apply(h.withBuiltins(root, h.running))
}

// Specs resolves the secrets of servers into what the manager runs; every
// resolved secret is masked from then on (Redact). They are the user's
// own list (a --config file), so no reference is refused.
func (s *Servers) Specs(servers []config.Server) []mcpmanager.ServerConfig {
	return s.specs(servers, nil)
}

// grantsOf is what config.json lets each server use besides its own
// secrets (never nil: a nil map turns the check off).
func grantsOf(cfg *config.Config) map[string][]string {
	if g := secrets.Grants(cfg.Settings); g != nil {
		return g
	}
	return map[string][]string{}
}

// specs is Specs where each server of config.json may resolve only its
// own keyring entries and those granted to it (grants; nil: any).
func (s *Servers) specs(servers []config.Server, grants map[string][]string) []mcpmanager.ServerConfig {
	h := s.h
	out := make([]mcpmanager.ServerConfig, 0, len(servers))
	for _, srv := range servers {
		out = append(out, mcpmanager.Specs([]config.Server{srv}, func(v string) (string, error) {
			x, err := secrets.Expand(v, func(kind, name string) (string, error) {
				if kind == "secret" && !mayUse(srv, grants, name) {
					return "", notGranted(srv.Name, name)
				}
				val, err := h.store.Lookup(kind, name)
				if err == nil && kind == "secret" {
					h.red.Add(val)
				}
				return val, err
			})
			if errors.Is(err, ErrNotGranted) {
				return v, err
			}
			if err != nil {
				return v, fmt.Errorf("%w; set it in Settings → Secrets or with 'switchboard secrets set NAME'", err)
			}
			return x, nil
		})...)
	}
	return out
}

// Prepared is one server of cfg as it would run now: the active profile
// applied, secrets resolved. It is never disabled: testing a disabled
// server is how a user checks it before enabling it.
func (s *Servers) Prepared(cfg *config.Config, srv config.Server) mcpmanager.ServerConfig {
	h := s.h
	profile, _ := library.ActiveProfile(cfg.Settings) // a malformed section is reported at apply
	p, err := library.ApplyProfile(srv, profile)
	specs, _ := withRoots(h.Servers.specs([]config.Server{p}, grantsOf(cfg)), []config.Server{p}, workspaceRootIn(h.dir, cfg))
	c := specs[0]
	if err != nil {
		c.StartError = err.Error()
	}
	c.Disabled = false
	return c
}
