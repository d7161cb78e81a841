package host

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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

// SetURL saves the registry URL ("" for the official one): https, or
// plain http to this computer only (mcpregistry.CheckRegistryURL).
func (c *MCPRegistry) SetURL(u string) error {
	u = strings.TrimRight(strings.TrimSpace(u), "/")
	if u != "" {
		if err := mcpregistry.CheckRegistryURL(u); err != nil {
			return err
		}
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
// package) is previewed by its form once downloaded (FetchBundle); here
// its entry has only the download URL. The error is Add's (a refused
// reference, an unsafe package, a missing value, a deleted server).
func (c *MCPRegistry) Preview(ctx context.Context, r RegistryPick) (Server, error) {
	s, o, err := c.chosen(ctx, r)
	if err != nil {
		return Server{}, err
	}
	if p := o.Package; p != nil && p.RegistryType == "mcpb" {
		return Server{URL: p.Identifier}, nil
	}
	shown, _ := registryAnswers(s.Server, o, r.Values, func(string, string) (string, error) { return "••••••", nil })
	e, err := mcpregistry.Entry(s.Server, o, shown)
	if err != nil {
		return Server{}, err
	}
	e.Name = cmp.Or(strings.TrimSpace(r.EntryName), e.Name)
	return e, nil
}

// chosen fetches server r.Name from the registry at r.URL and picks its
// option r.Option (an index into mcpregistry.Options). A server the
// registry deleted is refused, saying why; one that offers nothing this
// app runs says why for each package and remote.
func (c *MCPRegistry) chosen(ctx context.Context, r RegistryPick) (*mcpregistry.ServerResponse, mcpregistry.Option, error) {
	cl := c.client(r.URL)
	s, err := cl.Get(ctx, r.Name)
	if err != nil {
		return nil, mcpregistry.Option{}, err
	}
	if err := s.Addable(cl.BaseURL); err != nil {
		return nil, mcpregistry.Option{}, err
	}
	opts := mcpregistry.Options(s.Server)
	if len(opts) == 0 {
		return nil, mcpregistry.Option{}, fmt.Errorf("%w: %s: %s", mcpregistry.ErrUnsupported, r.Name, mcpregistry.Unsupported(s.Server))
	}
	if r.Option < 0 || r.Option >= len(opts) {
		return nil, mcpregistry.Option{}, fmt.Errorf("%s has %d ways to add it; choose 0 to %d", r.Name, len(opts), len(opts)-1)
	}
	return s, opts[r.Option], nil
}

// registryAnswers are the values given for o's asks, empty ones left out, a
// secret one replaced by what secret makes of it (a keyring reference for
// Add, a mask for Preview). A key none of its asks has is passed on as it
// is, for mcpregistry.Entry to refuse.
func registryAnswers(s mcpregistry.ServerJSON, o mcpregistry.Option, values map[string]string, secret func(key, v string) (string, error)) (map[string]string, error) {
	out := map[string]string{}
	asked := map[string]bool{}
	for _, a := range mcpregistry.Asks(s, o) {
		asked[a.Key] = true
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
	for k, v := range values {
		if !asked[k] {
			out[k] = v
		}
	}
	return out, nil
}

// RegistryAdded is the server Add added, and what the user should know of
// it.
type RegistryAdded struct {
	Name string // the entry's name
	// Warning is a sentence about the server ("" for none): the registry
	// marks it deprecated.
	Warning string
}

// Add adds server r.Name of the registry at r.URL ("" for the setting)
// with r.Values for what it asks (secret ones go to the keyring), under
// r.EntryName when given (else the last part of its name). r.Option picks
// among mcpregistry.Options (0: the first). A server the registry deleted
// is refused; one it deprecated is added with a Warning.
func (c *MCPRegistry) Add(ctx context.Context, r RegistryPick) (RegistryAdded, error) {
	s, o, err := c.chosen(ctx, r)
	if err != nil {
		return RegistryAdded{}, err
	}
	added := RegistryAdded{Warning: deprecation(s)}
	if p := o.Package; p != nil && p.RegistryType == "mcpb" {
		if r.EntryName != "" {
			// The bundle names its server itself (its manifest), and an
			// update from its own file finds it by that name.
			return RegistryAdded{}, fmt.Errorf("%w: --name %s: an mcpb package installs under the name its bundle's manifest gives (its Details show it); --name and the Name field are for npm, PyPI, OCI and remote servers", mcpregistry.ErrInvalidValue, r.EntryName)
		}
		added.Name, err = c.addBundle(ctx, s.Server.Name, p, r)
		return added, err
	}
	e, err := c.add(s.Server, o, r)
	added.Name = e
	return added, err
}

// add adds option o of s as an entry.
func (c *MCPRegistry) add(s mcpregistry.ServerJSON, o mcpregistry.Option, r RegistryPick) (string, error) {
	entryName := cmp.Or(strings.TrimSpace(r.EntryName), mcpregistry.Name(s))
	if err := (Server{Name: entryName, Command: "x"}).Validate(); err != nil {
		return "", err
	}
	fix := ""
	if r.EntryName == "" {
		fix = "the name comes from the registry's: give it another name (the Name field in Details, or registry add --name NAME), or rename or remove the server named " + strconv.Quote(entryName) + " first"
	} else {
		fix = pickAnother
	}
	if cfg, err := c.h.readConfig(); err == nil {
		if err := nameFree(cfg, entryName, fix); err != nil {
			return "", err
		}
	}
	keep := &secrets.Keeper{Store: c.h.store, ID: secrets.NewID()}
	given, err := registryAnswers(s, o, r.Values, keep.Keep)
	if err != nil {
		return "", err
	}
	e, err := mcpregistry.Entry(s, o, given)
	if err == nil {
		e.Name = entryName
		err = c.h.edit(func(cfg *config.Config) error {
			if err := nameFree(cfg, e.Name, fix); err != nil {
				return err
			}
			e.ID = keep.ID // the values it kept are this entry's own
			cfg.Servers = append(cfg.Servers, e)
			if len(keep.Names) > 0 {
				return secrets.Index(cfg, true, keep.Names...)
			}
			return nil
		})
	}
	if err != nil {
		for _, n := range keep.Names {
			_ = c.h.store.Delete(n)
		}
		return "", err
	}
	return e.Name, nil
}

// deprecation is the warning a server the registry deprecated gets ("" for
// any other).
func deprecation(s *mcpregistry.ServerResponse) string {
	if s.Official().Status != mcpregistry.StatusDeprecated {
		return ""
	}
	return fmt.Sprintf("%s is deprecated in the registry: its publisher no longer recommends it (its description: %q); it was added all the same", s.Server.Name, s.Server.Description)
}

// MaxBundleDownload bounds an mcpb package's download.
var MaxBundleDownload = bundle.MaxBundleBytes

// downloads is where an mcpb package's checked download waits between the
// window's look at it (FetchBundle) and Add: one at a time, named by its
// SHA-256.
func (c *MCPRegistry) downloads() string {
	return filepath.Join(c.h.dir.String(), "registry-downloads")
}

var sha256Hex = regexp.MustCompile(`^[0-9a-fA-F]{64}$`)

// FetchBundle downloads the mcpb package of r (its option must be one),
// checks it against the registry's fileSha256 and keeps it for Add, so the
// window can show the bundle's form (Bundles.Inspect: its user_config, and
// the name it installs as) before adding. It returns the kept file; Add
// uses it (checked again) and removes it, and so does the next
// FetchBundle of another package.
func (c *MCPRegistry) FetchBundle(ctx context.Context, r RegistryPick) (string, error) {
	_, o, err := c.chosen(ctx, r)
	if err != nil {
		return "", err
	}
	if o.Package == nil || o.Package.RegistryType != "mcpb" {
		return "", fmt.Errorf("%s: option %d (%s) is not an mcpb package", r.Name, r.Option, o.Label)
	}
	return c.fetch(ctx, o.Package)
}

// fetch is p's bundle: the kept download when it still matches p's
// fileSha256, else a new one (any other kept one removed).
func (c *MCPRegistry) fetch(ctx context.Context, p *mcpregistry.Package) (string, error) {
	switch {
	case p.FileSHA256 == "":
		return "", &mcpregistry.ChecksumError{URL: p.Identifier}
	case !sha256Hex.MatchString(p.FileSHA256):
		return "", fmt.Errorf("%w: the mcpb package %s names %q as its fileSha256, which is not a SHA-256; it was not downloaded", mcpregistry.ErrChecksum, p.Identifier, p.FileSHA256)
	}
	// Refused before anything is created: plain http to another computer.
	if _, err := mcpregistry.CheckDownloadURL(p.Identifier); err != nil {
		return "", err
	}
	want := strings.ToLower(p.FileSHA256)
	path := filepath.Join(c.downloads(), want+".mcpb")
	if got, err := fileSHA256(path); err == nil && got == want {
		return path, nil
	}
	if err := os.RemoveAll(c.downloads()); err != nil {
		return "", err
	}
	if err := os.MkdirAll(c.downloads(), 0o700); err != nil {
		return "", err
	}
	if err := mcpregistry.DownloadFile(ctx, p.Identifier, want, MaxBundleDownload, path); err != nil {
		return "", err
	}
	return path, nil
}

// fileSHA256 is the hex SHA-256 of the file at path.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sum := sha256.New()
	if _, err := io.Copy(sum, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(sum.Sum(nil)), nil
}

// addBundle downloads an mcpb package (or takes the one FetchBundle kept),
// checks its fileSha256, and installs it as a bundle under its manifest's
// name with r's answers: r.Values (the CLI's --set, one value each), and
// r.Bundle over them (the window's form, several for a multiple option).
func (c *MCPRegistry) addBundle(ctx context.Context, name string, p *mcpregistry.Package, r RegistryPick) (string, error) {
	path, err := c.fetch(ctx, p)
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(c.downloads()) // added or refused, it is not kept
	vals := bundle.Values{}
	for k, v := range r.Values {
		vals[k] = []string{v}
	}
	for k, v := range r.Bundle {
		vals[k] = v
	}
	return c.h.Bundles.install(ctx, path, vals, installHow{fresh: true, source: "the registry's " + name})
}

// RegistryRefused reports whether err refuses what was asked of the
// registry (a missing, unknown or invalid value, a server.json refused for
// what it would run or read, a deleted server, a download that does not
// match its fileSha256, a registry address not used): the user's or the
// publisher's to change, not a failure to retry.
func RegistryRefused(err error) bool {
	for _, e := range []error{mcpregistry.ErrMissing, mcpregistry.ErrInvalidValue, mcpregistry.ErrUnsafePackage, config.ErrForeignReference,
		mcpregistry.ErrDeleted, mcpregistry.ErrChecksum, mcpregistry.ErrBadURL, mcpregistry.ErrNotRegistry, mcpregistry.ErrNotFound, mcpregistry.ErrUnsupported} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// RegistryMissing are the required values err says are missing (nil
// when it says none), for a door to say how to give them.
func RegistryMissing(err error) []RegistryAsk {
	var me *mcpregistry.MissingError
	if !errors.As(err, &me) {
		return nil
	}
	return asksView(me.Asks)
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
	EntryName   string // the config.json name Add gives it (an mcpb package's is its bundle's, known once downloaded)
	// Status is what the registry says of it: active, deprecated (Add
	// warns) or deleted (Add refuses); "" when it does not say.
	Status string
	// Options are what it offers that this app can run, packages first;
	// RegistryPick.Option is an index into them.
	Options []RegistryOption
	// Unsupported says why Options is empty ("" when it is not).
	Unsupported string

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
		EntryName: mcpregistry.Name(j), Status: s.Official().Status, Options: []RegistryOption{}, Unsupported: mcpregistry.Unsupported(j), entry: s}
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
