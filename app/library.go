package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/library"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// MetaView is a server's library entry as the Servers page shows and edits it.
type MetaView struct {
	Description string   `json:"description"` // what the user wrote ("" = from the server)
	Tags        []string `json:"tags"`
	DocsURL     string   `json:"docsUrl"`
	Color       string   `json:"color"`
	Icon        string   `json:"icon"`
	Template    string   `json:"template"`
}

// TemplateView is a template as the "Add from template" form shows it.
type TemplateView struct {
	ID          string          `json:"id"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Tags        []string        `json:"tags"`
	DocsURL     string          `json:"docsUrl"`
	Source      string          `json:"source"` // "catalogue" or "config"
	Preview     string          `json:"preview"`
	Params      []library.Param `json:"params"`
	Error       string          `json:"error"` // a broken config template says why
}

// ProfilesView is the profiles servers declare and the active one.
type ProfilesView struct {
	Active string   `json:"active"`
	Names  []string `json:"names"`
}

// apply starts what cfg says should run: templates are left out, the
// active profile's overrides applied, secrets resolved. A server whose
// profile override is wrong shows the problem instead of running.
func (a *App) apply(cfg *config.Config) {
	ap := &applied{profile: library.ActiveProfile(cfg.Settings), agents: map[string][]string{}}
	if cs, err := chat.LoadSettings(cfg.Settings); err == nil {
		for _, ag := range cs.Agents {
			for _, s := range ag.Servers {
				ap.agents[s] = append(ap.agents[s], ag.Name)
			}
		}
	}
	a.applied.Store(ap)
	run, problems := library.Prepare(cfg.Servers, ap.profile)
	cfgs := secrets.Prepare(run, a.store.Lookup, a.red)
	for i := range cfgs {
		if err := problems[cfgs[i].Name]; err != nil {
			cfgs[i].StartError = err.Error()
		}
	}
	a.mgr.Apply(cfgs)
}

// applied is what the running servers were started with, read by every
// server view (so a status event does not read config.json again).
type applied struct {
	profile string
	agents  map[string][]string // server → names of the agents using it
}

// lastApplied is what apply last applied (zero before the first Apply).
func (a *App) lastApplied() *applied {
	if ap := a.applied.Load(); ap != nil {
		return ap
	}
	return &applied{}
}

// fillMeta sets a server's metadata (c: its config entry, if it has one),
// with what its initialize said filling gaps.
func (a *App) fillMeta(v *ServerView, st supervisor.Status, c config.Server) {
	info := library.Info{Name: st.ServerInfo.Name, Title: st.ServerInfo.Title, Version: st.ServerInfo.Version,
		Description: st.ServerInfo.Description, Instructions: st.Instructions}
	m, _ := library.MetaOf(c)
	v.Meta = MetaView{Description: m.Description, Tags: m.Tags, DocsURL: m.DocsURL, Color: m.Color, Icon: m.Icon, Template: m.Template}
	if v.Meta.Tags == nil {
		v.Meta.Tags = []string{}
	}
	if st.Builtin && len(v.Meta.Tags) == 0 {
		v.Meta.Tags = []string{"built-in"}
	}
	v.Description = library.Describe(m, info)
	v.Title = st.ServerInfo.Title
	v.Instructions = st.Instructions
	v.DocsURL = cmp.Or(m.DocsURL, st.ServerInfo.WebsiteURL)
	v.UsedBy = a.usedBy(st.Name)
}

// usedBy names the agents that use a server and how many chats called it.
func (a *App) usedBy(server string) []string {
	out := []string{}
	for _, name := range a.lastApplied().agents[server] {
		out = append(out, "agent "+name)
	}
	if h := a.hist.Load(); h != nil {
		a.usageMu.Lock()
		if time.Since(a.usageAt) > 2*time.Second { // one query per burst of status events
			if u, err := h.ServerUsage(a.bg()); err == nil {
				a.usage, a.usageAt = u, time.Now()
			}
		}
		n := a.usage[server]
		a.usageMu.Unlock()
		switch {
		case n == 1:
			out = append(out, "1 chat")
		case n > 1:
			out = append(out, fmt.Sprintf("%d chats", n))
		}
	}
	return out
}

// SetServerMeta saves what the user says about a server: description, tags,
// docs URL, colour and icon.
func (a *App) SetServerMeta(name string, m MetaView) error {
	return a.editConfig(func(cfg *config.Config) error {
		i := slices.IndexFunc(cfg.Servers, func(s config.Server) bool { return s.Name == name })
		if i < 0 {
			return fmt.Errorf("no server named %q (built-in servers cannot be edited)", name)
		}
		old, _ := library.MetaOf(cfg.Servers[i])
		return library.SetMeta(&cfg.Servers[i], library.Meta{Description: m.Description, Tags: m.Tags, DocsURL: m.DocsURL, Color: m.Color, Icon: m.Icon, Template: old.Template})
	})
}

// Templates lists the catalogue and the templates declared in config.json.
func (a *App) Templates() ([]TemplateView, error) {
	var out []TemplateView
	view := func(t library.Template, source string) TemplateView {
		v := TemplateView{ID: t.ID, Title: t.Title, Description: t.Description, Tags: t.Tags, DocsURL: t.DocsURL, Source: source, Preview: preview(t.Server)}
		ps, err := t.Params()
		if err != nil {
			v.Error = err.Error()
		}
		v.Params = ps
		if v.Params == nil {
			v.Params = []library.Param{}
		}
		if v.Tags == nil {
			v.Tags = []string{}
		}
		return v
	}
	a.cfgMu.Lock()
	servers := slices.Clone(a.servers)
	a.cfgMu.Unlock()
	for _, t := range library.Templates(servers) {
		source := "catalogue"
		if t.FromConfig {
			source = "config"
		}
		out = append(out, view(t, source))
	}
	return out, nil
}

func preview(s config.Server) string {
	if s.URL != "" {
		return s.URL
	}
	return strings.TrimSpace(s.Command + " " + strings.Join(s.Args, " "))
}

// AddServerFromTemplate adds the server a template makes with the values
// the user typed. Secret parameters go to the keyring as
// "<server>.<param>" and the config holds a ${secret:...} reference.
func (a *App) AddServerFromTemplate(templateID, name string, values map[string]string) error {
	name = strings.TrimSpace(name)
	if name == "" {
		return errors.New("the server needs a name: it prefixes its tools (name__tool)")
	}
	a.cfgMu.Lock()
	servers := slices.Clone(a.servers)
	a.cfgMu.Unlock()
	tmpl, err := library.FindIn(servers, templateID)
	if err != nil {
		return fmt.Errorf("no template %q: pick one from the list", templateID)
	}
	in := library.Values{}
	for k, v := range values {
		in[k] = v
	}
	keep := &secrets.Keeper{Store: a.store, Server: name}
	s, err := tmpl.Instantiate(name, in, library.Options{Secret: keep.Keep})
	if err != nil {
		return err
	}
	return a.editConfig(func(cfg *config.Config) error {
		if _, taken := cfg.Lookup(name); taken || slices.Contains(a.mgr.InProcess(), name) {
			return fmt.Errorf("a server named %q already exists: choose another name", name)
		}
		cfg.Servers = append(cfg.Servers, s)
		if len(keep.Names) > 0 {
			return secrets.Index(cfg, true, keep.Names...)
		}
		return nil
	})
}

// Profiles returns the profiles servers declare and the active one.
func (a *App) Profiles() (ProfilesView, error) {
	a.cfgMu.Lock()
	cfg, err := config.Load(a.dir.Config())
	a.cfgMu.Unlock()
	if err != nil {
		return ProfilesView{}, err
	}
	names := library.Profiles(cfg.Servers)
	if names == nil {
		names = []string{}
	}
	return ProfilesView{Active: library.ActiveProfile(cfg.Settings), Names: names}, nil
}

// SetProfile switches every server to a profile ("" for none); servers
// whose settings change restart with them.
func (a *App) SetProfile(name string) error {
	return a.editConfig(func(cfg *config.Config) error {
		raw, err := library.WithProfile(cfg.Settings, cfg.Servers, name)
		if err != nil {
			return err
		}
		cfg.Settings = raw
		return nil
	})
}

// SetServerProfile stores one server's overrides for a profile (all empty
// removes them).
func (a *App) SetServerProfile(server, profile string, o library.Override) error {
	return a.editConfig(func(cfg *config.Config) error {
		i := slices.IndexFunc(cfg.Servers, func(s config.Server) bool { return s.Name == server })
		if i < 0 {
			return fmt.Errorf("no server named %q", server)
		}
		return library.SetProfile(&cfg.Servers[i], strings.TrimSpace(profile), o)
	})
}

// ServerProfiles returns one server's profile overrides.
func (a *App) ServerProfiles(server string) (map[string]library.Override, error) {
	s, ok := a.serverConfig(server)
	if !ok {
		return nil, fmt.Errorf("no server named %q", server)
	}
	ps, err := library.ProfilesOf(s)
	if ps == nil {
		ps = map[string]library.Override{}
	}
	return ps, err
}

// TestTimeout bounds a test connection.
var TestTimeout = 2 * time.Minute

// TestServer starts a configured server on its own (with the active profile
// and its secrets), runs initialize and tools/list, and reports each step's
// time and exactly what failed.
func (a *App) TestServer(name string) (mcpmanager.TestReport, error) {
	a.cfgMu.Lock()
	cfg, err := config.Load(a.dir.Config())
	a.cfgMu.Unlock()
	if err != nil {
		return mcpmanager.TestReport{}, err
	}
	s, ok := cfg.Lookup(name)
	if !ok {
		return mcpmanager.TestReport{}, fmt.Errorf("no server named %q (built-in servers run inside the app and need no test)", name)
	}
	if _, isTemplate := library.TemplateOf(s); isTemplate {
		return mcpmanager.TestReport{}, fmt.Errorf("%s is a template: add a server from it, then test that", name)
	}
	c := a.prepared(cfg, s)
	ctx, cancel := context.WithTimeout(cmp.Or(a.wailsContext(), context.Background()), TestTimeout)
	defer cancel()
	v := mcpmanager.Report(name, a.mgr.Test(ctx, c), a.red.Redact)
	slog.Info("test connection", "server", name, "ok", v.OK, "failed", v.Failed, "ms", v.TotalMs)
	return v, nil
}

// prepared is one server as it would run now: profile applied, secrets resolved.
func (a *App) prepared(cfg *config.Config, s config.Server) mcpmanager.ServerConfig {
	p, err := library.ApplyProfile(s, library.ActiveProfile(cfg.Settings))
	c := secrets.Prepare([]config.Server{p}, a.store.Lookup, a.red)[0]
	if err != nil {
		c.StartError = err.Error()
	}
	c.Disabled = false // testing a disabled server is how a user checks it before enabling
	return c
}
