package host

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/bundle"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry"
)

// MCPRegistry is the use cases of the MCP Registry: its URL (a setting,
// default the official registry), searching it, and adding one of its
// servers as an entry (secrets to the keyring, versions pinned, an mcpb
// package downloaded, checked and installed as a bundle).
type MCPRegistry struct{ h *Host }

// registrySettings is the "registry" section of config.json's settings.
type registrySettings struct {
	URL string `json:"url,omitempty"`
}

// registrySection is settings.registry.
var registrySection = config.Section[registrySettings]{Key: "registry"}

// URL is the registry in use: the setting, else the official one (also
// when config.json or its section cannot be read: the Settings page shows
// why).
func (c *MCPRegistry) URL() string {
	cfg, err := c.h.readConfig()
	if err != nil {
		return mcpregistry.Official
	}
	s, err := registrySection.Get(cfg)
	if err != nil {
		slog.Warn("settings", "err", err)
	}
	return cmp.Or(s.URL, mcpregistry.Official)
}

// SetURL saves the registry URL ("" for the official one).
func (c *MCPRegistry) SetURL(u string) error {
	u = strings.TrimRight(strings.TrimSpace(u), "/")
	if u != "" && !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://127.0.0.1") && !strings.HasPrefix(u, "http://localhost") {
		return fmt.Errorf("registry URL %q: use an https:// URL (http only for 127.0.0.1 or localhost)", u)
	}
	return c.h.edit(func(cfg *config.Config) error { return registrySection.Put(cfg, registrySettings{URL: u}) })
}

// client talks to registry url ("" for the URL setting), its last
// listings cached in the data dir.
func (c *MCPRegistry) client(url string) *mcpregistry.Client {
	if url == "" {
		url = c.URL()
	}
	return &mcpregistry.Client{BaseURL: url, CacheFile: filepath.Join(c.h.dir.String(), "registry-cache.json")}
}

// Preview is the entry Add would make of server name with option and
// values, so the window can show the exact command line (or URL),
// environment and headers before anything is added or started. Nothing is
// stored: a secret value is shown as "••••••", not kept. A bundle (an mcpb
// package) is previewed by its install dialog once downloaded; here its
// entry has only the download URL. The error is Add's (a refused
// reference, an unsafe package, a missing value).
func (c *MCPRegistry) Preview(ctx context.Context, r RegistryPick) (Server, error) {
	url, name, option, values := r.URL, r.Name, r.Option, r.Values
	s, o, err := c.chosen(ctx, url, name, option)
	if err != nil {
		return Server{}, err
	}
	if p := o.Package; p != nil && p.RegistryType == "mcpb" {
		return Server{Name: mcpregistry.Name(s), URL: p.Identifier}, nil
	}
	shown, _ := answers(s, o, values, func(string, string) (string, error) { return "••••••", nil })
	return mcpregistry.Entry(s, o, shown)
}

// chosen fetches server name from the registry at url and picks its
// option (an index into mcpregistry.Options).
func (c *MCPRegistry) chosen(ctx context.Context, url, name string, option int) (mcpregistry.ServerJSON, mcpregistry.Option, error) {
	s, err := c.client(url).Get(ctx, name)
	if err != nil {
		return mcpregistry.ServerJSON{}, mcpregistry.Option{}, err
	}
	opts := mcpregistry.Options(s.Server)
	if len(opts) == 0 {
		return mcpregistry.ServerJSON{}, mcpregistry.Option{}, fmt.Errorf("%w: %s offers no npm, PyPI, OCI or MCPB package and no remote", mcpregistry.ErrUnsupported, name)
	}
	if option < 0 || option >= len(opts) {
		return mcpregistry.ServerJSON{}, mcpregistry.Option{}, fmt.Errorf("%s has %d ways to add it; choose 0 to %d", name, len(opts), len(opts)-1)
	}
	return s.Server, opts[option], nil
}

// answers are the values given for o's asks, empty ones left out, a
// secret one replaced by what secret makes of it (a keyring reference for
// Add, a mask for Preview).
func answers(s mcpregistry.ServerJSON, o mcpregistry.Option, values map[string]string, secret func(key, v string) (string, error)) (map[string]string, error) {
	out := map[string]string{}
	for _, a := range mcpregistry.Asks(s, o) {
		v := values[a.Key]
		if v == "" {
			continue
		}
		if a.Secret {
			var err error
			if v, err = secret(a.Key, v); err != nil {
				return nil, err
			}
		}
		out[a.Key] = v
	}
	return out, nil
}

// Add adds server name of the registry at url ("" for the setting) with
// values for what it asks (secret ones go to the keyring). option picks
// among mcpregistry.Options (0: the first). It returns the entry's name.
func (c *MCPRegistry) Add(ctx context.Context, r RegistryPick) (string, error) {
	url, name, option, values := r.URL, r.Name, r.Option, r.Values
	s, o, err := c.chosen(ctx, url, name, option)
	if err != nil {
		return "", err
	}
	if p := o.Package; p != nil && p.RegistryType == "mcpb" {
		return c.addBundle(ctx, s.Name, p, values)
	}
	entryName := mcpregistry.Name(s)
	if cfg, err := c.h.readConfig(); err == nil {
		if err := nameFree(cfg, entryName, ""); err != nil {
			return "", err
		}
	}
	keep := &secrets.Keeper{Store: c.h.store, ID: secrets.NewID()}
	given, err := answers(s, o, values, keep.Keep)
	if err != nil {
		return "", err
	}
	e, err := mcpregistry.Entry(s, o, given)
	if err != nil {
		for _, n := range keep.Names {
			_ = c.h.store.Delete(n)
		}
		return "", err
	}
	err = c.h.edit(func(cfg *config.Config) error {
		if err := nameFree(cfg, e.Name, ""); err != nil {
			return err
		}
		e.ID = keep.ID // the values it kept are this entry's own
		cfg.Servers = append(cfg.Servers, e)
		if len(keep.Names) > 0 {
			return secrets.Index(cfg, true, keep.Names...)
		}
		return nil
	})
	return e.Name, err
}

// MaxBundleDownload bounds an mcpb package's download.
var MaxBundleDownload = bundle.MaxBundleBytes

// addBundle downloads an mcpb package, checks its fileSha256, and installs
// it as a bundle.
func (c *MCPRegistry) addBundle(ctx context.Context, name string, p *mcpregistry.Package, values map[string]string) (string, error) {
	if p.FileSHA256 == "" {
		return "", fmt.Errorf("the mcpb package %s has no fileSha256 to check it by; it was not downloaded", p.Identifier)
	}
	// Refused before anything is created: plain http to another computer.
	if _, err := mcpregistry.CheckDownloadURL(p.Identifier); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(c.h.dir.String(), "download-*.mcpb")
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name())
	sum := sha256.New()
	_, err = mcpregistry.Download(ctx, p.Identifier, MaxBundleDownload, io.MultiWriter(f, sum))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	if got := hex.EncodeToString(sum.Sum(nil)); !strings.EqualFold(got, p.FileSHA256) {
		return "", fmt.Errorf("download %s: its SHA-256 is %s, not the registry's %s; it was not installed", p.Identifier, got, p.FileSHA256)
	}
	vals := bundle.Values{}
	for k, v := range values {
		vals[k] = []string{v}
	}
	return c.h.Bundles.install(ctx, f.Name(), vals, installHow{fresh: true, source: "the registry's " + name})
}

// RegistrySearch is one search of the MCP Registry.
type RegistrySearch struct {
	URL    string // the registry ("" for the URL setting)
	Query  string // "" lists every server
	Cursor string // the page after a listing's NextCursor ("" for the first)
	// All follows NextCursor through every page, as far as the limits
	// allow (mcpregistry.Client.All).
	All bool
}

// RegistryList is a search's servers: one page, or with All every page.
type RegistryList struct {
	Registry string // the registry's URL
	// Servers are nil when the registry's answer listed none as null.
	Servers    []RegistryServer
	NextCursor string // "" on the last page (and after All)
	// FetchedAt is when the page was fetched (with All, the first cached
	// page's; zero when none was cached).
	FetchedAt time.Time
	// Stale: the registry could not be reached; this is the cached page
	// (with All, at least one), because of Why (a sentence, a newline,
	// the technical detail).
	Stale bool
	Why   string
}

// RegistryServer is a server of the registry as the doors show it and
// the ways this app can add it. Its JSON is the registry's own entry
// (server.json and _meta) as it came: what 'registry search --json'
// prints.
type RegistryServer struct {
	Name        string
	Title       string
	Description string
	Version     string
	WebsiteURL  string
	Repository  string // where the source lives ("" when not said)
	EntryName   string // the config.json name Add gives it
	// Options are what it offers that this app can run, packages first;
	// RegistryPick.Option is an index into them.
	Options []RegistryOption

	entry mcpregistry.ServerResponse
}

// MarshalJSON is the registry's entry.
func (s RegistryServer) MarshalJSON() ([]byte, error) { return json.Marshal(s.entry) }

// RegistryOption is one way to add a registry server: a package or a
// remote, and the values adding it asks for.
type RegistryOption struct {
	Kind  string        `json:"kind"`  // npm, pypi, oci, mcpb, remote
	Label string        `json:"label"` // "npm @scope/pkg 1.2.3", "remote streamable-http https://..."
	Asks  []RegistryAsk `json:"asks"`
}

// Search lists the servers of the registry matching r.Query: one page,
// or every page with r.All. A search that stopped part way (a limit, a
// cancel) returns what it listed with the error; a registry that cannot
// be reached gives its last cached listing, Stale.
func (c *MCPRegistry) Search(ctx context.Context, r RegistrySearch) (RegistryList, error) {
	cl := c.client(r.URL)
	out := RegistryList{Registry: cl.BaseURL}
	var servers []mcpregistry.ServerResponse
	var stale *mcpregistry.List
	var err error
	if r.All {
		var l *mcpregistry.Listing
		l, err = cl.All(ctx, r.Query)
		if l == nil {
			return out, err
		}
		servers, stale = l.Servers, l.Stale
	} else {
		var l *mcpregistry.List
		if l, err = cl.Search(ctx, r.Query, r.Cursor); err != nil {
			return out, err
		}
		servers, out.NextCursor, out.FetchedAt = l.Servers, l.NextCursor, l.FetchedAt
		if l.Stale {
			stale = l
		}
	}
	if stale != nil {
		out.Stale, out.FetchedAt, out.Why = true, stale.FetchedAt, stale.Why
	}
	if servers != nil { // as the registry said it: its JSON is "[]", not null
		out.Servers = make([]RegistryServer, 0, len(servers))
	}
	for _, s := range servers {
		out.Servers = append(out.Servers, registryServer(s))
	}
	return out, err
}

// registryServer is s as the doors see it.
func registryServer(s mcpregistry.ServerResponse) RegistryServer {
	j := s.Server
	v := RegistryServer{Name: j.Name, Title: j.Title, Description: j.Description, Version: j.Version, WebsiteURL: j.WebsiteURL,
		EntryName: mcpregistry.Name(j), Options: []RegistryOption{}, entry: s}
	if j.Repository != nil {
		v.Repository = j.Repository.URL
	}
	for _, o := range mcpregistry.Options(j) {
		kind := "remote"
		if o.Package != nil {
			kind = o.Package.RegistryType
		}
		v.Options = append(v.Options, RegistryOption{Kind: kind, Label: o.Label, Asks: asksView(mcpregistry.Asks(j, o))})
	}
	return v
}
