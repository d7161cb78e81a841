package host

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/library"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
	"github.com/switchboard-app/switchboard/mcpmanager/sandbox"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// Servers are config.json's servers and the ones running: load, follow
// and edit the configuration, test, log in, restart, status and logs.
type Servers struct{ h *Host }

// TestTimeout bounds a test connection.
var TestTimeout = 2 * time.Minute

// LoginSettleTimeout bounds how long Login waits for the server to be
// ready again once the login succeeded.
var LoginSettleTimeout = time.Minute

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

// List returns config.json's servers as last loaded or saved.
func (s *Servers) List() []Server {
	h := s.h
	h.cfgMu.Lock()
	defer h.cfgMu.Unlock()
	return slices.Clone(h.servers)
}

// ConfigFile returns config.json's path for a person to open in an
// editor, writing the file first when it is missing (as an edit would:
// with its scope and the servers' ids). A file that does not parse is
// left as it is, to be fixed there.
func (s *Servers) ConfigFile() (string, error) {
	path := s.h.dir.Config()
	if _, err := s.h.readConfig(); err != nil {
		return path, nil //nolint:nilerr // the editor shows what is wrong
	}
	return path, s.h.edit(func(*config.Config) error { return nil })
}

// Get returns one configured server as last loaded or saved.
func (s *Servers) Get(name string) (Server, bool) {
	h := s.h
	h.cfgMu.Lock()
	defer h.cfgMu.Unlock()
	i := slices.IndexFunc(h.servers, func(s Server) bool { return s.Name == name })
	if i < 0 {
		return Server{}, false
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
	h.Shared.follow(cfg, h.Shared.g.Load()) // the attached apps' choices of servers and code mode
}

// Run starts exactly these servers (a --config file, or a subset chosen by
// the caller) with their secrets resolved, instead of config.json's.
func (s *Servers) Run(servers []Server) {
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
func (s *Servers) Specs(servers []Server) []mcpmanager.ServerConfig {
	return s.specs(servers, nil)
}

// envFromKeyring is ${env:NAME} when NAME is not in Switchboard's own
// environment: the keyring's secret NAME, under the same grants as a
// ${secret:NAME}. An app started from a dock or a launcher has none of the
// shell's variables, so a config written for a terminal (Claude Code's,
// Cursor's ${NAME}) names variables it never sees; the keyring is where
// the window lets a person put them. unset is the lookup's error, given
// back with what to do when the keyring has no such secret either.
func (h *Host) envFromKeyring(srv Server, grants map[string][]string, name string, unset error) (string, error) {
	val, err := h.store.Get(name)
	if err != nil {
		return "", fmt.Errorf("%w: set %s in the environment Switchboard starts in, or keep it in the keyring under that name (Settings → Secrets → Add, or 'switchboard secrets set %s')", unset, name, name)
	}
	if !mayUse(srv, grants, name) {
		return "", notGranted(srv.Name, name)
	}
	h.red.Add(val)
	return val, nil
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
func (s *Servers) specs(servers []Server, grants map[string][]string) []mcpmanager.ServerConfig {
	h := s.h
	out := make([]mcpmanager.ServerConfig, 0, len(servers))
	for _, srv := range servers {
		start := len(out)
		out = append(out, mcpmanager.Specs([]Server{srv}, func(v string) (string, error) {
			x, err := secrets.Expand(v, func(kind, name string) (string, error) {
				if kind == "secret" && !mayUse(srv, grants, name) {
					return "", notGranted(srv.Name, name)
				}
				val, err := h.store.Lookup(kind, name)
				if kind == "env" && errors.Is(err, secrets.ErrUnset) {
					return h.envFromKeyring(srv, grants, name, err)
				}
				if err == nil && kind == "secret" {
					h.red.Add(val)
				}
				return val, err
			})
			if errors.Is(err, ErrNotGranted) || errors.Is(err, secrets.ErrUnset) {
				return v, err
			}
			if errors.Is(err, secrets.ErrNotFound) { // a locked or missing keyring has its own advice
				return v, fmt.Errorf("%w; set it in Settings → Secrets or with 'switchboard secrets set NAME'", err)
			}
			if err != nil {
				return v, err
			}
			return x, nil
		})...)
		// An envFile's values stay out of logs and errors too, where they
		// look like secrets (its file is the user's; config.json never
		// holds them).
		for k, v := range out[start].Env {
			if _, own := srv.Env[k]; !own && secrets.LooksSecret(k, v, false) {
				h.red.Add(v)
			}
		}
	}
	return out
}

// prepared is one server of cfg as it would run now: the active profile
// applied, secrets resolved. It is never disabled: testing a disabled
// server is how a user checks it before enabling it.
func (s *Servers) prepared(cfg *config.Config, srv Server) mcpmanager.ServerConfig {
	h := s.h
	profile, _ := library.ActiveProfile(cfg.Settings) // a malformed section is reported at apply
	p, err := library.ApplyProfile(srv, profile)
	specs, _ := withRoots(h.Servers.specs([]Server{p}, grantsOf(cfg)), []Server{p}, workspaceRootIn(h.dir, cfg))
	c := specs[0]
	if err != nil {
		c.StartError = err.Error()
	}
	c.Disabled = false
	return c
}

// StartBuiltins makes the built-in servers part of every apply from now on
// and starts them: the content store in <data dir>/stores, the workspace in
// settings.workspace.root (default <data dir>/workspace). They run under
// the supervisor like any server: status, logs and restarts in one place;
// one that cannot start shows its error as its status. It returns once
// they are ready or have failed (they start in-process, in milliseconds, so
// the first page or command finds their tools); call it before Load, Follow
// or Run.
func (s *Servers) StartBuiltins() {
	h := s.h
	h.cfgMu.Lock()
	h.builtinsOn = true
	h.mgr.Apply(h.withBuiltins(WorkspaceRoot(h.dir), h.running))
	h.cfgMu.Unlock()
	ctx, cancel := context.WithTimeout(h.ctx, BuiltinStartTimeout)
	defer cancel()
	h.mgr.WaitSettled(ctx)
	h.dropLegacyResults(ctx)
}

// Runnable are config.json's servers as they run: templates left out, the
// active profile's overrides applied. A server whose override is wrong is
// left out too, with its problem in skipped.
func (s *Servers) Runnable() (servers []Server, skipped []error, err error) {
	cfg, err := s.h.readConfig()
	if err != nil {
		return nil, nil, err
	}
	profile, err := library.ActiveProfile(cfg.Settings)
	if err != nil {
		return nil, nil, err
	}
	run, problems := library.Prepare(cfg.Servers, profile)
	return withoutProblems(run, problems)
}

// withoutProblems drops the servers whose profile override is wrong.
func withoutProblems(servers []Server, problems map[string]error) ([]Server, []error, error) {
	var skipped []error
	out := servers[:0:0]
	for _, srv := range servers {
		if err := problems[srv.Name]; err != nil {
			skipped = append(skipped, err)
			continue
		}
		out = append(out, srv)
	}
	return out, skipped, nil
}

// Add adds one server.
func (s *Servers) Add(srv Server) error {
	h := s.h
	return h.edit(func(cfg *config.Config) error {
		if err := nameFree(cfg, srv.Name, pickAnother); err != nil {
			return err
		}
		cfg.Servers = append(cfg.Servers, srv)
		return nil
	})
}

// SetEnabled enables or disables a configured server.
func (s *Servers) SetEnabled(name string, enabled bool) error {
	h := s.h
	return h.edit(func(cfg *config.Config) error {
		i, err := index(cfg, name)
		if err != nil {
			return err
		}
		cfg.Servers[i].Disabled = !enabled
		return nil
	})
}

// Remove deletes a configured server (front doors confirm first) and
// keeps its keyring entries; RemoveWith can delete them too.
func (s *Servers) Remove(name string) error { return s.RemoveWith(name, false) }

// RemoveWith deletes a configured server; with forgetSecrets its keyring
// entries go too (SecretsOf: its own, and those nothing else uses) and its
// login, before the entry: when the keyring cannot delete them (locked),
// nothing is removed and the error says so. Either way the grants it had
// go, its tools' pins and kept listing go (they hold its descriptions), it leaves every agent that
// named it (its servers, tools, skills and policies there; Agents.Using
// names them first), its global approval policies, rules, pinned tools,
// result budgets and switched-off skills go (dropServerRefs), and a new
// server of the same name gets a new id: it never inherits what this one
// kept.
func (s *Servers) RemoveWith(name string, forgetSecrets bool) error {
	h := s.h
	var removed Server
	var drop []string
	err := h.edit(func(cfg *config.Config) error {
		i, err := index(cfg, name)
		if err != nil {
			return err
		}
		removed = cfg.Servers[i]
		if forgetSecrets {
			drop = secretsOf(cfg, i)
			// The keyring first: when it cannot delete them (locked,
			// away), the entry stays, and with it the names that list
			// them, so no secret is left where nothing shows it.
			if err := h.forgetSecrets(removed, drop); err != nil {
				return fmt.Errorf("%s was not removed: %w; or remove it and leave its secrets in the keyring ('servers remove --keep-secrets', or untick the box)", name, err)
			}
		}
		cfg.Servers = slices.Delete(cfg.Servers, i, i+1)
		dropServerRefs(cfg, removed.Name) // a new server of this name is in no agent and has no policy
		if err := secrets.Forget(cfg, removed.ID); err != nil {
			return err
		}
		if len(drop) > 0 {
			if err := secrets.Index(cfg, false, drop...); err != nil {
				return err
			}
		}
		if in, ok := InstalledOf(removed); ok && len(in.Secrets) > 0 { // a bundle's keyring entries go too
			return secrets.Index(cfg, false, slices.Collect(maps.Values(in.Secrets))...)
		}
		return nil
	})
	if err != nil {
		return err
	}
	var errs []error
	errs = append(errs, h.Bundles.forget(removed)) // an installed bundle's files and keyring entries
	// Its pins and kept listing hold its descriptions.
	errs = append(errs, h.forgetTools(removed.Name))
	return errors.Join(errs...)
}

// forgetSecrets deletes srv's keyring entries names and its OAuth login,
// stopping at the first that fails. A login that cannot be looked for
// because there is no keyring at all is not one (logins need a keyring);
// a locked keyring is a failure.
func (h *Host) forgetSecrets(srv Server, names []string) error {
	for _, n := range names {
		if err := h.store.Delete(n); err != nil {
			return err
		}
	}
	if srv.URL == "" {
		return nil
	}
	err := h.store.Delete(oauth.KeyFor(srv.Name))
	if errors.Is(err, secrets.ErrUnavailable) && !errors.Is(err, secrets.ErrLocked) {
		return nil
	}
	return err
}

// Refused lists the references of a server that are refused at start
// (neither its own nor granted), for the window's Grant button.
func (s *Servers) Refused(name string) ([]string, error) {
	cfg, err := s.h.readConfig()
	if err != nil {
		return nil, err
	}
	srv, ok := cfg.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrNoServer, name)
	}
	grants := grantsOf(cfg)
	out := []string{}
	for _, n := range secrets.ServerRefs(srv) {
		if !mayUse(srv, grants, n) {
			out = append(out, n)
		}
	}
	// A variable Switchboard's environment lacks, read from the keyring
	// (envFromKeyring), once the keyring has it.
	for _, n := range secrets.EnvRefs(srv) {
		if _, set := os.LookupEnv(n); set || mayUse(srv, grants, n) || slices.Contains(out, n) {
			continue
		}
		if _, err := s.h.store.Get(n); err == nil {
			out = append(out, n)
		}
	}
	return out, nil
}

// SecretsOf lists the keyring entries removing server would delete: its
// own, and the others it uses that nothing else in config.json uses (no
// other server, no provider).
func (s *Servers) SecretsOf(name string) ([]string, error) {
	cfg, err := s.h.readConfig()
	if err != nil {
		return nil, err
	}
	i, err := index(cfg, name)
	if err != nil {
		return nil, err
	}
	out := secretsOf(cfg, i)
	if srv := cfg.Servers[i]; srv.URL != "" {
		if _, err := s.h.store.Get(oauth.KeyFor(srv.Name)); err == nil {
			out = append(out, oauth.KeyFor(srv.Name)) // its OAuth login goes too
		}
	}
	return out, nil
}

// Logins lists the OAuth logins the keyring holds for the configured
// remote servers (oauth.NAME), as secret rows: the value masked, used by
// the server's login. 'secrets list' shows them beside the secrets.
func (s *Servers) Logins() ([]SecretRow, error) {
	cfg, err := s.h.readConfig()
	if err != nil {
		return nil, err
	}
	out := []SecretRow{}
	for _, srv := range cfg.Servers {
		if srv.URL == "" {
			continue
		}
		if _, err := s.h.store.Get(oauth.KeyFor(srv.Name)); err == nil {
			out = append(out, SecretRow{Name: oauth.KeyFor(srv.Name), Masked: "••••", UsedBy: []string{"OAuth login of " + srv.Name}})
		}
	}
	return out, nil
}

// OAuthEdit is a change to a remote server's "oauth" entry (the client
// Switchboard was registered as, for authorization servers that refuse
// dynamic registration).
type OAuthEdit struct {
	// OAuth is the entry as it should be; nil removes it. Its
	// ClientSecret is ignored: Secret and KeepSecret decide it.
	OAuth *OAuth
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
		cfg, err := h.readConfig()
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
	return h.edit(func(cfg *config.Config) error {
		i := slices.IndexFunc(cfg.Servers, func(s Server) bool { return s.Name == name })
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
		srv.OAuth = keepHidden(o, srv.OAuth)
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

// keepHidden keeps the options of old the window's OAuth form does not
// show in o, the entry the form saves: "resource" and "clientMetadataUrl"
// (also when the form was emptied), and the redirect URI, whose port
// follows the form's (none: any port, so no URI).
func keepHidden(o, old *OAuth) *OAuth {
	if old == nil || o == nil && !old.NoResource && old.ClientMetadataURL == "" {
		return o
	}
	if o == nil {
		o = &OAuth{Extra: old.Extra}
	}
	o.NoResource = o.NoResource || old.NoResource
	o.ClientMetadataURL = cmp.Or(o.ClientMetadataURL, old.ClientMetadataURL)
	if o.RedirectURI == "" && old.RedirectURI != "" && o.RedirectPort != 0 {
		if u, err := url.Parse(old.RedirectURI); err == nil {
			u.Host = net.JoinHostPort(u.Hostname(), strconv.Itoa(o.RedirectPort))
			o.RedirectURI = u.String()
		}
	}
	return o
}

// SetRoots saves which folders a server is offered as its roots: a mode
// (config.RootsModes) or, with mode "list", the folders given. A change of
// roots alone reaches a running server as notifications/roots/list_changed.
func (s *Servers) SetRoots(name, mode string, list []string) error {
	h := s.h
	if mode != "list" && !slices.Contains(config.RootsModes, mode) {
		return fmt.Errorf("%q is not a roots choice; choose one of %s or list", mode, strings.Join(config.RootsModes, ", "))
	}
	var folders []string
	for _, f := range list {
		if f = expandHome(strings.TrimSpace(f)); f != "" {
			folders = append(folders, f)
		}
	}
	if mode == "list" && len(folders) == 0 {
		return errors.New("give at least one folder for the list, or choose none")
	}
	return h.edit(func(cfg *config.Config) error {
		i := slices.IndexFunc(cfg.Servers, func(s Server) bool { return s.Name == name })
		if i < 0 {
			return fmt.Errorf("no server named %q (built-in servers choose their own roots)", name)
		}
		s := cfg.Servers[i].Clone()
		s.Roots, s.RootsMode = nil, ""
		switch mode {
		case "list":
			s.Roots = folders
		case config.RootsAuto:
		default:
			s.RootsMode = mode
		}
		if err := s.Validate(); err != nil {
			return err
		}
		cfg.Servers[i] = s
		return nil
	})
}

// SetSandbox turns a configured server's sandbox on with sb's settings, or
// off when sb is nil, in config.json (see Edit); a running server restarts
// in (or out of) its sandbox. Only a local (stdio) server can be
// sandboxed. A setting the config would refuse comes back as a
// *ValidationError naming its JSON path (NAME.sandbox.allowRead[0]).
func (s *Servers) SetSandbox(name string, sb *Sandbox) error {
	h := s.h
	return h.edit(func(cfg *config.Config) error {
		i := slices.IndexFunc(cfg.Servers, func(s Server) bool { return s.Name == name })
		if i < 0 {
			return fmt.Errorf("no server named %q (built-in servers run inside Switchboard and cannot be sandboxed)", name)
		}
		s := cfg.Servers[i].Clone()
		if sb != nil && s.Transport != config.Stdio {
			return fmt.Errorf("%s is a remote (%s) server: only a local (stdio) server runs in a sandbox", name, s.Transport)
		}
		s.Sandbox = sb.Clone()
		if err := s.Validate(); err != nil {
			return err
		}
		cfg.Servers[i] = s
		return nil
	})
}

// SandboxAvailable says whether this machine can run a server in a
// sandbox, and what to install when it cannot.
func (s *Servers) SandboxAvailable(ctx context.Context) error { return sandbox.Available(ctx) }

// ServerStatus is one server's state as the host reports it (Status,
// StatusOf, Options.OnStatus): the engine's ServerStatus, named here
// so a front door need not import the engine for it.
type ServerStatus = supervisor.Status

// ServerReady is the State of a server that is connected and serving.
const ServerReady = supervisor.Ready

// Status is every server's state, configured and built-in.
func (s *Servers) Status() []ServerStatus { return s.h.mgr.Status() }

// StatusOf is one server's state; false when no such server runs.
func (s *Servers) StatusOf(name string) (ServerStatus, bool) {
	for _, st := range s.h.mgr.Status() {
		if st.Name == name {
			return st, true
		}
	}
	return ServerStatus{Name: name}, false
}

// Restart stops and starts one server.
func (s *Servers) Restart(ctx context.Context, name string) error { return s.h.mgr.Restart(ctx, name) }

// Settle waits until every server started is ready or has failed, or ctx
// ends.
func (s *Servers) Settle(ctx context.Context) { s.h.mgr.WaitSettled(ctx) }

// HandleRequests routes what servers ask of the host (sampling,
// elicitation) to r: the window's chat, the terminal, or serve's client.
func (s *Servers) HandleRequests(r RequestHandler) { s.h.Shared.handle(r) }

// Roots are the folders a running server is offered as its MCP roots
// (none when it does not run).
func (s *Servers) Roots(name string) []string {
	if sup, err := s.h.mgr.Server(name); err == nil {
		return sup.Roots()
	}
	return nil
}

// Test starts srv on its own as it would run now (the active profile, its
// secrets, its roots), runs initialize and tools/list, and reports each
// step's time and exactly what failed, secrets masked. A disabled server
// is tested too: that is how a user checks it before enabling it.
func (s *Servers) Test(ctx context.Context, srv Server) (TestReport, error) {
	if _, isTemplate := library.TemplateOf(srv); isTemplate {
		return TestReport{}, fmt.Errorf("%s is a template: add a server from it, then test that", srv.Name)
	}
	cfg, err := s.h.readConfig()
	if err != nil {
		cfg = &config.Config{} // a --config file's server: no profile, the default workspace
	}
	ctx, cancel := context.WithTimeout(ctx, TestTimeout)
	defer cancel()
	r := mcpmanager.Report(srv.Name, s.h.mgr.Test(ctx, s.prepared(cfg, srv)), s.h.Redact)
	slog.Info("test connection", "server", srv.Name, "ok", r.OK, "failed", r.Failed, "ms", r.TotalMs)
	return reportView(r), nil
}

// ErrNoOAuthClient is oauth.ErrNoClient: a remote server's authorization
// server offers no dynamic registration, and Login's error says how to
// register Switchboard by hand (a door adds where the entry is).
var ErrNoOAuthClient = oauth.ErrNoClient

// CancelLogin ends the login of server name that waits for the browser
// (the window's Cancel): its Login returns "login cancelled". It reports
// whether one was under way.
func (s *Servers) CancelLogin(name string) bool { return s.h.mgr.CancelLogin(name) }

// Login logs in to a remote server that needs it: the authorization page
// goes to show (nil: Options.OnLoginURL), the tokens to the keyring, and
// it returns the server's state once it has started again with them
// (waiting at most LoginSettleTimeout); an error when it is not ready.
func (s *Servers) Login(ctx context.Context, name string, show func(url string)) (ServerStatus, error) {
	if err := s.h.store.Available(); err != nil {
		return ServerStatus{Name: name}, fmt.Errorf("%s: the tokens could not be kept: %w", name, err)
	}
	if err := s.h.mgr.LoginWith(ctx, name, show); err != nil {
		if errors.Is(err, context.Canceled) {
			return ServerStatus{Name: name}, fmt.Errorf("%s: login cancelled", name)
		}
		return ServerStatus{Name: name}, &redacted{msg: s.h.Redact(err.Error()), err: err}
	}
	wctx, cancel := context.WithTimeout(ctx, LoginSettleTimeout)
	defer cancel()
	res, err := s.Wait(wctx, name)
	if err != nil {
		return res.Status, fmt.Errorf("%s did not start after the login: %w", name, wctx.Err())
	}
	if res.Status.State != supervisor.Ready {
		return res.Status, fmt.Errorf("logged in, but %s", s.h.Redact(res.Status.Error))
	}
	return res.Status, nil
}

// redacted is err with its secrets masked in its text; errors.Is and As
// still see err (a CLI adds what to do to oauth.ErrNoClient).
type redacted struct {
	msg string
	err error
}

func (e *redacted) Error() string { return e.msg }
func (e *redacted) Unwrap() error { return e.err }
