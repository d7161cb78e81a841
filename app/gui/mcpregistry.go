package gui

import (
	"errors"
	"maps"
	"slices"
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

// Add adds server name with option (its index) and the answers to its
// asks; it returns the entry's name.
func (a *MCPRegistry) Add(name string, option int, values map[string]string) (string, error) {
	return a.h.MCPRegistry.Add(a.life, host.RegistryPick{Name: name, Option: option, Values: values})
}

// Preview shows what Add would run with these answers (host.MCPRegistry.Preview).
func (a *MCPRegistry) Preview(name string, option int, values map[string]string) RegistryPreview {
	e, err := a.h.MCPRegistry.Preview(a.life, host.RegistryPick{Name: name, Option: option, Values: values})
	if errors.Is(err, host.ErrRegistryMissing) {
		return RegistryPreview{Env: []string{}, Headers: []string{}, Missing: true}
	}
	if err != nil {
		return RegistryPreview{Env: []string{}, Headers: []string{}, Problem: host.Plain(err)}
	}
	return RegistryPreview{Command: e.Target(), Remote: e.URL != "", Env: append([]string{}, slices.Sorted(maps.Keys(e.Env))...), Headers: append([]string{}, slices.Sorted(maps.Keys(e.Headers))...)}
}

// registryServer is s as the Browse tab shows it.
func registryServer(s host.RegistryServer) RegistryServer {
	v := RegistryServer{Name: s.Name, Title: s.Title, Description: s.Description, Version: s.Version, WebsiteURL: s.WebsiteURL,
		Repository: s.Repository, EntryName: s.EntryName, Options: []RegistryOption{}}
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
	Name        string           `json:"name"`
	Title       string           `json:"title"`
	Description string           `json:"description"`
	Version     string           `json:"version"`
	WebsiteURL  string           `json:"websiteUrl"`
	Repository  string           `json:"repository"`
	EntryName   string           `json:"entryName"`
	Options     []RegistryOption `json:"options"`
}

// RegistryOption is a package or remote, and what adding it asks.
type RegistryOption struct {
	Index int                `json:"index"`
	Kind  string             `json:"kind"` // npm, pypi, oci, mcpb, remote
	Label string             `json:"label"`
	Asks  []host.RegistryAsk `json:"asks"`
}

// RegistryPreview is what adding a registry server would run, shown
// before Add: the command line (or the URL it connects to), the names of
// the environment variables and headers it sets, or why it cannot be added.
type RegistryPreview struct {
	Command string   `json:"command"` // "npx -y @example/weather@1.4.2 --units metric", or the URL
	Remote  bool     `json:"remote"`
	Env     []string `json:"env"`
	Headers []string `json:"headers"`
	Problem string   `json:"problem"` // why it cannot be added as it is (a refusal); "" when it can
	// Missing: a required value is not filled in yet (no command to show).
	Missing bool `json:"missing"`
}
