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

// fillMeta sets a server's metadata (c: its config entry, if it has one),
// with what its initialize said filling gaps.
func (a *core) fillMeta(v *ServerView, st supervisor.Status, c config.Server) {
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
func (a *core) usedBy(server string) []string {
	out := []string{}
	for _, name := range a.h.Applied().Agents[server] {
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
func (a *ServersPage) SetServerMeta(name string, m MetaView) error {
	return a.h.Edit(func(cfg *config.Config) error {
		i := slices.IndexFunc(cfg.Servers, func(s config.Server) bool { return s.Name == name })
		if i < 0 {
			return fmt.Errorf("no server named %q (built-in servers cannot be edited)", name)
		}
		old, _ := library.MetaOf(cfg.Servers[i])
		return library.SetMeta(&cfg.Servers[i], library.Meta{Description: m.Description, Tags: m.Tags, DocsURL: m.DocsURL, Color: m.Color, Icon: m.Icon, Template: old.Template})
	})
}

// Templates lists the catalogue and the templates declared in config.json.
func (a *ServersPage) Templates() ([]TemplateView, error) {
	var out []TemplateView
	view := func(t library.Template, source string) TemplateView {
		v := TemplateView{ID: t.ID, Title: t.Title, Description: t.Description, Tags: t.Tags, DocsURL: t.DocsURL, Source: source, Preview: t.Server.Target()}
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
	servers := a.h.Servers()
	for _, t := range library.Templates(servers) {
		source := "catalogue"
		if t.FromConfig {
			source = "config"
		}
		out = append(out, view(t, source))
	}
	return out, nil
}

// AddServerFromTemplate adds the server a template makes with the values
// the user typed. Secret parameters go to the keyring as
// "<server>.<param>" and the config holds a ${secret:...} reference.
func (a *ServersPage) AddServerFromTemplate(templateID, name string, values map[string]string) error {
	_, err := a.h.AddFromTemplate(templateID, name, values)
	if errors.Is(err, library.ErrUnknownTemplate) {
		return fmt.Errorf("no template %q: pick one from the list", templateID)
	}
	return err
}

// Profiles returns the profiles servers declare and the active one.
func (a *ServersPage) Profiles() (ProfilesView, error) {
	active, names, err := a.h.Profiles()
	return ProfilesView{Active: active, Names: names}, err
}

// SetProfile switches every server to a profile ("" for none); servers
// whose settings change restart with them.
func (a *ServersPage) SetProfile(name string) error {
	return a.h.SetProfile(name)
}

// SetServerProfile stores one server's overrides for a profile (all empty
// removes them).
func (a *ServersPage) SetServerProfile(server, profile string, o library.Override) error {
	return a.h.Edit(func(cfg *config.Config) error {
		i := slices.IndexFunc(cfg.Servers, func(s config.Server) bool { return s.Name == server })
		if i < 0 {
			return fmt.Errorf("no server named %q", server)
		}
		return library.SetProfile(&cfg.Servers[i], strings.TrimSpace(profile), o)
	})
}

// ServerProfiles returns one server's profile overrides.
func (a *ServersPage) ServerProfiles(server string) (map[string]library.Override, error) {
	s, ok := a.h.Server(server)
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
func (a *ServersPage) TestServer(name string) (mcpmanager.TestReport, error) {
	cfg, err := a.h.Config()
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
	c := a.h.Prepared(cfg, s)
	ctx, cancel := context.WithTimeout(cmp.Or(a.wailsContext(), context.Background()), TestTimeout)
	defer cancel()
	v := mcpmanager.Report(name, a.h.Manager().Test(ctx, c), a.h.Redact)
	slog.Info("test connection", "server", name, "ok", v.OK, "failed", v.Failed, "ms", v.TotalMs)
	return v, nil
}
