package gui

import (
	"cmp"
	"fmt"
	"time"

	"github.com/switchboard-app/switchboard/app/host"
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
	ID          string               `json:"id"`
	Title       string               `json:"title"`
	Description string               `json:"description"`
	Tags        []string             `json:"tags"`
	DocsURL     string               `json:"docsUrl"`
	Source      string               `json:"source"` // "catalogue" or "config"
	Preview     string               `json:"preview"`
	Params      []host.TemplateParam `json:"params"`
	Error       string               `json:"error"` // a broken config template says why
}

// ProfilesView is the profiles servers declare and the active one.
type ProfilesView struct {
	Active string   `json:"active"`
	Names  []string `json:"names"`
}

// fillMeta sets a server's metadata (c: its config entry, if it has one),
// with what its initialize said filling gaps.
func (a *core) fillMeta(v *ServerView, st host.ServerStatus, c host.Server) {
	m := host.Meta(c)
	v.Meta = MetaView{Description: m.Description, Tags: m.Tags, DocsURL: m.DocsURL, Color: m.Color, Icon: m.Icon, Template: m.Template}
	if v.Meta.Tags == nil {
		v.Meta.Tags = []string{}
	}
	if st.Builtin && len(v.Meta.Tags) == 0 {
		v.Meta.Tags = []string{"built-in"}
	}
	v.Description = host.Describe(m, st)
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
	a.usageMu.Lock()
	if time.Since(a.usageAt) > 2*time.Second { // one query per burst of status events
		if u, err := a.h.Chats.ServerUsage(a.bg()); err == nil {
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
	return out
}
