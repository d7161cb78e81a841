package gui

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/switchboard-app/switchboard/app/host"
)

// MCPRegistry is the Servers page's Browse tab: the MCP Registry searched
// page by page, a server's details, and Add (host.MCPRegistry).
type MCPRegistry struct{ *core }

// RegistryURL is the registry in use (the setting, else the official one).
func (a *MCPRegistry) RegistryURL() string { return a.h.MCPRegistry.URL() }

// SetRegistryURL saves the registry URL ("" for the official one).
func (a *MCPRegistry) SetRegistryURL(url string) error { return a.h.MCPRegistry.SetURL(url) }

// Search lists one page of the registry's servers matching query.
func (a *MCPRegistry) Search(query, cursor string) (RegistryList, error) {
	l, err := a.h.MCPRegistry.Search(a.life, host.RegistrySearch{Query: query, Cursor: cursor})
	if err != nil {
		return RegistryList{}, errors.New(host.Plain(err)) // the sentence first; the page shows the rest behind a disclosure
	}
	v := RegistryList{Servers: []RegistryServer{}, NextCursor: l.NextCursor, Stale: l.Stale, Why: l.Why, Registry: l.Registry,
		FetchedAt: l.FetchedAt.Format(time.RFC3339), Age: host.Ago(time.Since(l.FetchedAt))}
	for _, s := range l.Servers {
		v.Servers = append(v.Servers, registryServer(s))
	}
	return v, nil
}

// RegistryPick is what the Browse tab previews or adds: the server, its
// option (an index into its options), the answers to its asks, the
// answers to an mcpb package's form (its user_config, a key one value or
// several), and the name to add it under ("": the registry's).
type RegistryPick struct {
	Name      string              `json:"name"`
	Option    int                 `json:"option"`
	Values    map[string]string   `json:"values"`
	Bundle    map[string][]string `json:"bundle"`
	EntryName string              `json:"entryName"`
}

func (p RegistryPick) host() host.RegistryPick {
	return host.RegistryPick{Name: p.Name, Option: p.Option, Values: p.Values, Bundle: p.Bundle, EntryName: p.EntryName}
}

// RegistryAdded is the server Add added and a warning about it ("" for
// none: one the registry deprecated gets one).
type RegistryAdded struct {
	Name    string `json:"name"`
	Warning string `json:"warning"`
}

// Add adds the server p picks with its answers. A required value left
// empty is named, as the form's field to fill in.
func (a *MCPRegistry) Add(p RegistryPick) (RegistryAdded, error) {
	r, err := a.h.MCPRegistry.Add(a.life, p.host())
	if missing := host.RegistryMissing(err); missing != nil {
		return RegistryAdded{}, errors.New(fillIn(missing))
	}
	if err != nil {
		return RegistryAdded{}, err
	}
	return RegistryAdded{Name: r.Name, Warning: r.Warning}, nil
}

// fillIn says which fields to fill in, in the form's words.
func fillIn(missing []host.RegistryAsk) string {
	var parts []string
	for _, m := range missing {
		if m.Description == "" {
			parts = append(parts, m.Key)
		} else {
			parts = append(parts, m.Key+" ("+m.Description+")")
		}
	}
	return "Fill in " + strings.Join(parts, ", ") + ", then Add again."
}

// Preview shows what Add would run with these answers
// (host.MCPRegistry.Preview); an mcpb package's is its download, and its
// form (InspectBundle) says the rest.
func (a *MCPRegistry) Preview(p RegistryPick) RegistryPreview {
	e, err := a.h.MCPRegistry.Preview(a.life, p.host())
	if missing := host.RegistryMissing(err); missing != nil {
		v := RegistryPreview{Env: []string{}, Headers: []string{}, Missing: true, Fill: []string{}}
		for _, m := range missing {
			v.Fill = append(v.Fill, m.Key)
		}
		return v
	}
	if err != nil {
		return RegistryPreview{Env: []string{}, Headers: []string{}, Fill: []string{}, Problem: host.Plain(err)}
	}
	if e.URL != "" && e.Transport == "" && e.Command == "" {
		return RegistryPreview{Command: e.URL, Bundle: true, Env: []string{}, Headers: []string{}, Fill: []string{}}
	}
	return RegistryPreview{Command: e.Target(), Name: e.Name, Remote: e.URL != "", Fill: []string{},
		Env: append([]string{}, slices.Sorted(maps.Keys(e.Env))...), Headers: append([]string{}, slices.Sorted(maps.Keys(e.Headers))...)}
}

// InspectBundle downloads the mcpb package of option (checked against the
// registry's fileSha256; host.MCPRegistry.FetchBundle) and returns its
// form: what it asks (its user_config), who signed it, and the name it
// installs as. Add then installs the same download.
func (a *MCPRegistry) InspectBundle(name string, option int) (BundleForm, error) {
	path, err := a.h.MCPRegistry.FetchBundle(a.life, host.RegistryPick{Name: name, Option: option})
	if err != nil {
		return BundleForm{}, errors.New(host.Plain(err))
	}
	return (&Bundles{a.core}).inspect(path, path)
}

// registryServer is s as the Browse tab shows it.
func registryServer(s host.RegistryServer) RegistryServer {
	v := RegistryServer{Name: s.Name, Title: s.Title, Description: s.Description, Version: s.Version, WebsiteURL: s.WebsiteURL,
		Repository: s.Repository, EntryName: s.EntryName, Status: s.Status, Unsupported: s.Unsupported, Options: []RegistryOption{}}
	for i, o := range s.Options {
		v.Options = append(v.Options, RegistryOption{Index: i, Kind: o.Kind, Label: o.Label, Asks: o.Asks})
	}
	return v
}

// RegistryList is one page of a search.
type RegistryList struct {
	Servers    []RegistryServer `json:"servers"`
	NextCursor string           `json:"nextCursor"`
	// Stale: the registry could not be reached; this is the cached page,
	// fetched Age ago ("3 hours"; FetchedAt, RFC 3339), because of Why (a
	// sentence, then the technical detail).
	Stale     bool   `json:"stale"`
	FetchedAt string `json:"fetchedAt"`
	Age       string `json:"age"`
	Why       string `json:"why"`
	Registry  string `json:"registry"`
}

// RegistryServer is a server of the registry and the ways to add it.
type RegistryServer struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Version     string `json:"version"`
	WebsiteURL  string `json:"websiteUrl"`
	Repository  string `json:"repository"`
	EntryName   string `json:"entryName"`
	// Status: active, deprecated (Add warns) or deleted (Add refuses); ""
	// when the registry does not say.
	Status  string           `json:"status"`
	Options []RegistryOption `json:"options"`
	// Unsupported says why it offers nothing to add ("" when it does).
	Unsupported string `json:"unsupported"`
}

// RegistryOption is a package or remote, and what adding it asks.
type RegistryOption struct {
	Index int                `json:"index"`
	Kind  string             `json:"kind"` // npm, pypi, oci, mcpb, remote
	Label string             `json:"label"`
	Asks  []host.RegistryAsk `json:"asks"`
}

// RegistryPreview is what adding a registry server would run, shown
// before Add: the command line (or the URL it connects to, or the bundle
// it downloads), the name it is added as, the names of the environment
// variables and headers it sets, or why it cannot be added.
type RegistryPreview struct {
	Command string `json:"command"` // "npx -y @example/weather@1.4.2 --units metric", the URL, or the bundle's download URL
	Name    string `json:"name"`    // the name it is added as ("" for a bundle: its form says)
	Remote  bool   `json:"remote"`
	// Bundle: Command is an mcpb package's download, installed as a bundle.
	Bundle  bool     `json:"bundle"`
	Env     []string `json:"env"`
	Headers []string `json:"headers"`
	Problem string   `json:"problem"` // why it cannot be added as it is (a refusal); "" when it can
	// Missing: a required value is not filled in yet (no command to
	// show); Fill are their keys.
	Missing bool     `json:"missing"`
	Fill    []string `json:"fill"`
}
