package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/switchboard-app/switchboard/app/host"
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
	m := host.Meta(c)
	v.Meta = MetaView{Description: m.Description, Tags: m.Tags, DocsURL: m.DocsURL, Color: m.Color, Icon: m.Icon, Template: m.Template}
	if v.Meta.Tags == nil {
		v.Meta.Tags = []string{}
	}
	if st.Builtin && len(v.Meta.Tags) == 0 {
		v.Meta.Tags = []string{"built-in"}
	}
	v.Description = host.Describe(m, info)
	v.Title = st.ServerInfo.Title
	v.Instructions = st.Instructions
	v.DocsURL = cmp.Or(m.DocsURL, st.ServerInfo.WebsiteURL)
	v.UsedBy = a.usedBy(st.Name)
}

// usedBy names the agents that use a server and how many chats called it.
func (a *core) usedBy(server string) []string {
	out := []string{}
	for _, name := range a.h.Servers.Applied().Agents[server] {
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
	return a.h.Library.SetMeta(name, library.Meta{Description: m.Description, Tags: m.Tags, DocsURL: m.DocsURL, Color: m.Color, Icon: m.Icon})
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
	for _, t := range a.h.Library.Templates() {
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
	_, err := a.h.Library.AddFromTemplate(templateID, name, values)
	if errors.Is(err, library.ErrUnknownTemplate) {
		return fmt.Errorf("no template %q: pick one from the list", templateID)
	}
	return err
}

// Profiles returns the profiles servers declare and the active one.
func (a *ServersPage) Profiles() (ProfilesView, error) {
	active, names, err := a.h.Library.Profiles()
	return ProfilesView{Active: active, Names: names}, err
}

// SetProfile switches every server to a profile ("" for none); servers
// whose settings change restart with them.
func (a *ServersPage) SetProfile(name string) error {
	return a.h.Library.SetProfile(name)
}

// SetServerProfile stores one server's overrides for a profile (all empty
// removes them).
func (a *ServersPage) SetServerProfile(server, profile string, o library.Override) error {
	return a.h.Library.SetServerProfile(server, profile, o)
}

// ServerProfiles returns one server's profile overrides.
func (a *ServersPage) ServerProfiles(server string) (map[string]library.Override, error) {
	return a.h.Library.ServerProfiles(server)
}

// TestServer starts a configured server on its own (with the active profile,
// its secrets and its roots), runs initialize and tools/list, and reports
// each step's time and exactly what failed.
func (a *ServersPage) TestServer(name string) (mcpmanager.TestReport, error) {
	s, ok := a.h.Servers.Get(name)
	if !ok {
		return mcpmanager.TestReport{}, fmt.Errorf("no server named %q (built-in servers run inside the app and need no test)", name)
	}
	return a.h.Servers.Test(cmp.Or(a.wailsContext(), context.Background()), s)
}
