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
		return fmt.Sprintf("The MCP Registry at %s did not answer within %s: try again later, or use another registry under Browse registry.", e.URL, le.Limit), e.Error()
	}
	if e.Status != 0 {
		return fmt.Sprintf("The MCP Registry at %s is not working right now (it answered HTTP %d): try again later.", e.URL, e.Status), e.Error()
	}
	return fmt.Sprintf("The MCP Registry at %s is offline or cannot be reached: check your internet connection (or the registry address under Browse registry), then search again.", e.URL), e.Error()
}

// ServerJSON is a server.json document (schema 2025-09-29).
type ServerJSON struct {
	Schema      string      `json:"$schema,omitempty"`
	Name        string      `json:"name"`
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

func (c *Client) get(ctx context.Context, path string, q url.Values, into any) error {
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
// cursor ("" for the first). Only the latest version of each server is
// listed. When the registry cannot be reached, the cached page is returned
// with Stale set; without one, the error.
func (c *Client) Search(ctx context.Context, query, cursor string) (*List, error) {
	q := url.Values{"limit": {fmt.Sprint(PageLimit)}, "version": {"latest"}}
	if query != "" {
		q.Set("search", query)
	}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	var lr listResponse
	err := c.get(ctx, "/v0.1/servers", q, &lr)
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
	l := &List{Servers: lr.Servers, NextCursor: lr.Metadata.NextCursor, FetchedAt: time.Now().UTC()}
	if l.Servers == nil {
		l.Servers = []ServerResponse{}
	}
	c.store(key, l)
	return l, nil
}

// Get returns the latest version of the server named name.
func (c *Client) Get(ctx context.Context, name string) (*ServerResponse, error) {
	var s ServerResponse
	err := c.get(ctx, "/v0.1/servers/"+url.PathEscape(name)+"/versions/latest", nil, &s)
	if errors.Is(err, ErrNotFound) {
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
