package mcpregistry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/plain"
)

// Official is the official MCP Registry.
const Official = "https://registry.modelcontextprotocol.io"

// Limits. Variables so tests can shorten them. A registry is someone
// else's server: each limit keeps one that answers slowly, endlessly or
// hugely from costing more than it names (LimitError says which).
var (
	Timeout       = 20 * time.Second // one request, its body included
	MaxBodyBytes  = int64(8 << 20)   // one page or server.json
	PageLimit     = 30               // servers asked for per page
	CacheMaxPages = 200
	// MaxPages and Deadline bound All: a registry that names a new cursor
	// on every page would otherwise be followed for ever.
	MaxPages = 100
	Deadline = 2 * time.Minute
)

// Sentinel errors.
var (
	// ErrUnreachable: the registry did not answer (and nothing was cached).
	ErrUnreachable = errors.New("the MCP Registry cannot be reached")
	// ErrNotFound: the registry has no server of that name.
	ErrNotFound = errors.New("no server of that name in the registry")
	// ErrUnsupported: the server.json offers nothing this app can run.
	ErrUnsupported = errors.New("nothing in this server.json can be run here")
	// ErrMissing: a required value (environment variable, header, URL
	// variable) was not given.
	ErrMissing = errors.New("a required value is missing")
	// ErrUnsafePackage: the server.json would run something other than its
	// package (an option where the name goes, a container widened to this
	// computer); see UnsafeError.
	ErrUnsafePackage = errors.New("the server.json would run more than its package")
	// ErrInvalidValue: a value given that the server.json does not take
	// (a key it does not ask for, a value outside its choices); see
	// ValueError.
	ErrInvalidValue = errors.New("a value the server does not take")
	// ErrDeleted: the registry marks the server deleted; see StatusError.
	ErrDeleted = errors.New("the registry deleted this server")
	// ErrNotRegistry: the address answers, but not as an MCP Registry
	// (neither API version's listing is there).
	ErrNotRegistry = errors.New("not an MCP Registry")
	// ErrBadURL: a registry address this app does not use (not https, or
	// plain http to another computer).
	ErrBadURL = errors.New("not a registry address Switchboard uses")
	// ErrChecksum: an mcpb package's download has no fileSha256 to check
	// it by, or does not match it.
	ErrChecksum = errors.New("the download does not match the registry's fileSha256")
)

// UnreachableError is a registry that did not answer: offline, a wrong
// address, a server error. It matches ErrUnreachable and says itself in
// plain words (plain.Explainer).
type UnreachableError struct {
	URL string
	Err error // what the network said; nil for an HTTP status
	// Status is the HTTP status of a server error (0 for a network failure).
	Status int
}

func (e *UnreachableError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("%v at %s: HTTP %d", ErrUnreachable, e.URL, e.Status)
	}
	return fmt.Sprintf("%v at %s: %v", ErrUnreachable, e.URL, e.Err)
}

func (e *UnreachableError) Unwrap() []error { return []error{ErrUnreachable, e.Err} }

// Plain says what happened and what to do; the network's words are the detail.
func (e *UnreachableError) Plain() (sentence, detail string) {
	var le *LimitError
	if errors.As(e.Err, &le) {
		return fmt.Sprintf("The MCP Registry at %s did not answer within %s: try again later, or use another registry (Settings → Servers → MCP Registry).", e.URL, le.Limit), e.Error()
	}
	if e.Status != 0 {
		return fmt.Sprintf("The MCP Registry at %s is not working right now (it answered HTTP %d): try again later.", e.URL, e.Status), e.Error()
	}
	return fmt.Sprintf("The MCP Registry at %s is offline or cannot be reached: check your internet connection (or the registry address in Settings → Servers → MCP Registry), then search again.", e.URL), e.Error()
}

// ServerJSON is a server.json document (schema 2025-09-29).
type ServerJSON struct {
	Schema string `json:"$schema,omitempty"`
	Name   string `json:"name"`
	// Status is the status a server.json of the draft schemas carried
	// itself; the registry's _meta says it now (ServerResponse.Official).
	Status      string      `json:"status,omitempty"`
	Title       string      `json:"title,omitempty"`
	Description string      `json:"description"`
	Version     string      `json:"version"`
	WebsiteURL  string      `json:"websiteUrl,omitempty"`
	Repository  *Repository `json:"repository,omitempty"`
	Packages    []Package   `json:"packages,omitempty"`
	Remotes     []Remote    `json:"remotes,omitempty"`
}

// Repository is where the source lives.
type Repository struct {
	URL    string `json:"url"`
	Source string `json:"source"`
}

// Input is a value the user may be asked for.
type Input struct {
	Description string   `json:"description,omitempty"`
	IsRequired  bool     `json:"isRequired,omitempty"`
	IsSecret    bool     `json:"isSecret,omitempty"`
	Format      string   `json:"format,omitempty"`
	Value       string   `json:"value,omitempty"`
	Default     string   `json:"default,omitempty"`
	Choices     []string `json:"choices,omitempty"`
	// Variables fill {name} placeholders of Value.
	Variables map[string]Input `json:"variables,omitempty"`
}

// KeyValue is an environment variable or a header.
type KeyValue struct {
	Name string `json:"name"`
	Input
}

// Argument is a runtime or package argument.
type Argument struct {
	Type       string `json:"type"` // positional or named
	Name       string `json:"name,omitempty"`
	ValueHint  string `json:"valueHint,omitempty"`
	IsRepeated bool   `json:"isRepeated,omitempty"`
	Input
}

// Transport is how a package's server is reached.
type Transport struct {
	Type    string     `json:"type"` // stdio, streamable-http, sse
	URL     string     `json:"url,omitempty"`
	Headers []KeyValue `json:"headers,omitempty"`
}

// Package is one way to install the server.
type Package struct {
	RegistryType         string     `json:"registryType"` // npm, pypi, oci, nuget, mcpb
	RegistryBaseURL      string     `json:"registryBaseUrl,omitempty"`
	Identifier           string     `json:"identifier"`
	Version              string     `json:"version,omitempty"`
	FileSHA256           string     `json:"fileSha256,omitempty"`
	RuntimeHint          string     `json:"runtimeHint,omitempty"`
	Transport            Transport  `json:"transport"`
	RuntimeArguments     []Argument `json:"runtimeArguments,omitempty"`
	PackageArguments     []Argument `json:"packageArguments,omitempty"`
	EnvironmentVariables []KeyValue `json:"environmentVariables,omitempty"`
}

// Remote is a hosted endpoint.
type Remote struct {
	Type      string           `json:"type"` // streamable-http or sse
	URL       string           `json:"url"`
	Headers   []KeyValue       `json:"headers,omitempty"`
	Variables map[string]Input `json:"variables,omitempty"`
}

// ServerResponse is one listing entry: the server.json and the registry's
// own metadata.
type ServerResponse struct {
	Server ServerJSON                 `json:"server"`
	Meta   map[string]json.RawMessage `json:"_meta,omitempty"`
}

// MetaKey is the _meta key under which a registry speaking the generic
// API says what it knows of a server (OfficialMeta).
const MetaKey = "io.modelcontextprotocol.registry/official"

// The statuses a registry gives a server (OfficialMeta.Status).
const (
	StatusActive     = "active"
	StatusDeprecated = "deprecated" // still there, its publisher moved on
	StatusDeleted    = "deleted"    // taken down (malicious, broken, withdrawn)
)

// OfficialMeta is the registry's own metadata of one server version.
type OfficialMeta struct {
	Status      string `json:"status,omitempty"` // active, deprecated or deleted ("" when not said)
	PublishedAt string `json:"publishedAt,omitempty"`
	UpdatedAt   string `json:"updatedAt,omitempty"`
	// IsLatest: this is the server's latest version (nil when not said).
	IsLatest *bool `json:"isLatest,omitempty"`
}

// Official is what the registry says of r under MetaKey; a status
// only the server.json gives (the draft schemas') stands in for one the
// registry does not give.
func (r ServerResponse) Official() OfficialMeta {
	var o OfficialMeta
	if raw, ok := r.Meta[MetaKey]; ok {
		_ = json.Unmarshal(raw, &o) // a registry's odd metadata is as good as none
	}
	if o.Status == "" {
		o.Status = r.Server.Status
	}
	o.Status = strings.ToLower(o.Status)
	return o
}

// Addable refuses a server the registry deleted, saying why; a
// deprecated one may be added (the doors warn).
func (r ServerResponse) Addable(registry string) error {
	if r.Official().Status == StatusDeleted {
		return &StatusError{Name: r.Server.Name, Registry: registry}
	}
	return nil
}

// StatusError is a server the registry marks deleted; it matches
// ErrDeleted.
type StatusError struct{ Name, Registry string }

func (e *StatusError) Error() string {
	return fmt.Sprintf("%s is marked deleted in the registry at %s, so Switchboard does not add it: a registry deletes a server that was found malicious or broken, or that its publisher withdrew; look for another in 'switchboard registry search' or Browse registry", e.Name, e.Registry)
}

func (e *StatusError) Unwrap() error { return ErrDeleted }

// Latest keeps one version of each server, in listing order: a version
// the registry says is not the latest goes, and of several left of one
// name the one published last stays (the first, when none says). A
// registry that ignores version=latest lists every version.
func Latest(in []ServerResponse) []ServerResponse {
	out := make([]ServerResponse, 0, len(in))
	at := map[string]int{}
	for _, s := range in {
		o := s.Official()
		if o.IsLatest != nil && !*o.IsLatest {
			continue
		}
		i, seen := at[s.Server.Name]
		if !seen {
			at[s.Server.Name] = len(out)
			out = append(out, s)
			continue
		}
		if later(o, out[i].Official()) {
			out[i] = s
		}
	}
	return out
}

// later reports whether a was published after b (false when either does
// not say).
func later(a, b OfficialMeta) bool {
	ta, erra := time.Parse(time.RFC3339, a.PublishedAt)
	tb, errb := time.Parse(time.RFC3339, b.PublishedAt)
	return erra == nil && errb == nil && ta.After(tb)
}

// List is one page of a search.
type List struct {
	Servers    []ServerResponse `json:"servers"`
	NextCursor string           `json:"nextCursor,omitempty"`
	// Stale: the registry could not be reached; this is the cached page
	// fetched at FetchedAt.
	Stale     bool      `json:"stale,omitempty"`
	FetchedAt time.Time `json:"fetchedAt"`
	// Why says why it is stale.
	Why string `json:"why,omitempty"`
}

type listResponse struct {
	Servers  []ServerResponse `json:"servers"`
	Metadata struct {
		NextCursor string `json:"nextCursor,omitempty"`
		Count      int    `json:"count,omitempty"`
	} `json:"metadata"`
}

// Client talks to one registry.
type Client struct {
	BaseURL string       // "" is Official
	HTTP    *http.Client // nil: a client with Timeout
	// CacheFile keeps the last page of each search ("" keeps none).
	CacheFile string
}

var cacheMu sync.Mutex

func (c *Client) base() string {
	b := strings.TrimRight(c.BaseURL, "/")
	if b == "" {
		b = Official
	}
	return b
}

// apiVersions are the generic API's path prefixes, newest first: a
// registry that answers only v0 (one not updated since) is read through
// it, with the same documents.
var apiVersions = []string{"/v0.1", "/v0"}

// CheckRegistryURL refuses, before any connection, a registry address this
// app does not use: the rule of CheckDownloadURL, https only, plain http
// only to this computer (localhost, 127.0.0.1, ::1: a test registry, a
// local mirror), never to a name that only starts like one
// (localhost.example.com). The error matches ErrBadURL.
func CheckRegistryURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Host == "" || u.Scheme != "https" && u.Scheme != "http":
		return &URLError{URL: raw}
	case u.Scheme == "http" && !loopback(u.Hostname()):
		return &URLError{URL: raw, Host: u.Hostname()}
	}
	return nil
}

// URLError is a registry address this app does not use; it matches
// ErrBadURL.
type URLError struct {
	URL  string
	Host string // the other computer plain http would reach ("" for any other refusal)
}

func (e *URLError) Error() string {
	if e.Host != "" {
		return fmt.Sprintf("registry URL %q: plain http to %s is refused (anyone on the way could change what it lists): use its https:// URL; plain http is only for this computer (localhost, 127.0.0.1, ::1)", e.URL, e.Host)
	}
	return fmt.Sprintf("registry URL %q: the registry's address must be an https:// URL (plain http only for this computer: localhost, 127.0.0.1, ::1)", e.URL)
}

func (e *URLError) Unwrap() error { return ErrBadURL }

// NotRegistryError is an address that answers, but neither API version's
// listing is there; it matches ErrNotRegistry.
type NotRegistryError struct{ URL string }

func (e *NotRegistryError) Error() string {
	return fmt.Sprintf("%v: %s has neither %s/servers nor %s/servers (HTTP 404)", ErrNotRegistry, e.URL, apiVersions[0], apiVersions[1])
}

func (e *NotRegistryError) Unwrap() error { return ErrNotRegistry }

// Plain says what to do.
func (e *NotRegistryError) Plain() (sentence, detail string) {
	return fmt.Sprintf("%s answers, but not as an MCP Registry: check the registry address (Settings → Servers → MCP Registry, or --registry).", e.URL), e.Error()
}

func (c *Client) get(ctx context.Context, path string, q url.Values, into any) error {
	if err := CheckRegistryURL(c.base()); err != nil {
		return err
	}
	u := c.base() + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return fmt.Errorf("registry URL %q: %w", c.base(), err)
	}
	req.Header.Set("Accept", "application/json")
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{} // the request's context bounds it, body included
	}
	// stopped says why a request ended early: the caller cancelled (its
	// own error, never a cached page), the caller's deadline, or ours.
	stopped := func() error {
		if parent.Err() != nil {
			return fmt.Errorf("registry %s: %w", c.base(), context.Cause(parent))
		}
		if ctx.Err() != nil {
			return &UnreachableError{URL: c.base(), Err: &LimitError{URL: c.base(), Limit: "the " + Duration(Timeout) + " per-request timeout"}}
		}
		return nil
	}
	res, err := hc.Do(req)
	if err != nil {
		if e := stopped(); e != nil {
			return e
		}
		return &UnreachableError{URL: c.base(), Err: err}
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, MaxBodyBytes+1))
	if err != nil {
		if e := stopped(); e != nil {
			return e
		}
		if errors.Is(err, io.ErrUnexpectedEOF) && res.StatusCode == http.StatusOK {
			// The body ended before its Content-Length: half a listing.
			return fmt.Errorf("registry %s sent something that is not a listing: unexpected end of JSON input (the answer was cut off after %d bytes)", c.base(), len(body))
		}
		return &UnreachableError{URL: c.base(), Err: err}
	}
	if int64(len(body)) > MaxBodyBytes {
		return &LimitError{URL: c.base(), Limit: "the " + Size(MaxBodyBytes) + " listing cap"}
	}
	switch {
	case res.StatusCode == http.StatusNotFound:
		return ErrNotFound
	case res.StatusCode >= 500:
		return &UnreachableError{URL: c.base(), Status: res.StatusCode}
	case res.StatusCode != http.StatusOK:
		return fmt.Errorf("registry %s: HTTP %d: %s", c.base(), res.StatusCode, strings.TrimSpace(string(body[:min(len(body), 200)])))
	}
	if err := json.Unmarshal(body, into); err != nil {
		return fmt.Errorf("registry %s sent something that is not a listing: %w", c.base(), err)
	}
	return nil
}

// Search lists the servers matching query (all for ""), one page from
// cursor ("" for the first), from the API v0.1, else (a 404) v0; neither
// is a *NotRegistryError. Only the latest version of each server is
// listed: it asks for version=latest, and of a registry that lists every
// version anyway keeps one per name (Latest). When the registry cannot be
// reached, the cached page is returned with Stale set; without one, the
// error.
func (c *Client) Search(ctx context.Context, query, cursor string) (*List, error) {
	q := url.Values{"limit": {fmt.Sprint(PageLimit)}, "version": {"latest"}}
	if query != "" {
		q.Set("search", query)
	}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	var lr listResponse
	err := c.newest(func(api string) error { return c.get(ctx, api+"/servers", q, &lr) })
	if errors.Is(err, ErrNotFound) {
		err = &NotRegistryError{URL: c.base()}
	}
	key := c.base() + "\x00" + query + "\x00" + cursor
	if err != nil {
		if errors.Is(err, ErrUnreachable) {
			if l, ok := c.cached(key); ok {
				l.Stale, l.Why = true, plain.Text(err) // the sentence, then what the network said
				return l, nil
			}
		}
		return nil, err
	}
	l := &List{Servers: Latest(lr.Servers), NextCursor: lr.Metadata.NextCursor, FetchedAt: time.Now().UTC()}
	c.store(key, l)
	return l, nil
}

// newest calls fn with each API version's prefix, newest first, until one
// answers something other than 404.
func (c *Client) newest(fn func(api string) error) error {
	var err error
	for _, api := range apiVersions {
		if err = fn(api); !errors.Is(err, ErrNotFound) {
			return err
		}
	}
	return err
}

// Get returns the latest version of the server named name, from the API
// v0.1, else v0. A name neither knows is ErrNotFound, unless neither
// listing is there either: a *NotRegistryError.
func (c *Client) Get(ctx context.Context, name string) (*ServerResponse, error) {
	var s ServerResponse
	err := c.newest(func(api string) error {
		return c.get(ctx, api+"/servers/"+url.PathEscape(name)+"/versions/latest", nil, &s)
	})
	if errors.Is(err, ErrNotFound) {
		// Not there, or no registry there at all: its listing says which.
		var lr listResponse
		q := url.Values{"limit": {"1"}}
		if c.newest(func(api string) error { return c.get(ctx, api+"/servers", q, &lr) }) != nil {
			return nil, &NotRegistryError{URL: c.base()}
		}
		return nil, fmt.Errorf("%w: %q at %s; 'switchboard registry search' lists them", ErrNotFound, name, c.base())
	}
	if err != nil {
		return nil, err
	}
	return &s, nil
}

func (c *Client) cached(key string) (*List, bool) {
	if c.CacheFile == "" {
		return nil, false
	}
	cacheMu.Lock()
	defer cacheMu.Unlock()
	m := map[string]*List{}
	data, err := os.ReadFile(c.CacheFile)
	if err != nil || json.Unmarshal(data, &m) != nil {
		return nil, false
	}
	l, ok := m[key]
	return l, ok && l != nil
}

func (c *Client) store(key string, l *List) {
	if c.CacheFile == "" {
		return
	}
	cacheMu.Lock()
	defer cacheMu.Unlock()
	m := map[string]*List{}
	if data, err := os.ReadFile(c.CacheFile); err == nil {
		_ = json.Unmarshal(data, &m)
	}
	if len(m) >= CacheMaxPages {
		m = map[string]*List{}
	}
	m[key] = l
	data, err := json.Marshal(m)
	if err != nil {
		return
	}
	_ = os.MkdirAll(filepath.Dir(c.CacheFile), 0o700)
	tmp := c.CacheFile + ".tmp"
	if os.WriteFile(tmp, data, 0o600) == nil {
		_ = os.Rename(tmp, c.CacheFile)
	}
}
