// Package skills is the host side of the skills extension
// (io.modelcontextprotocol/skills, SEP-2640): which servers offer skills,
// what each lists (skills/list, paged, cached as long as its ttlMs says),
// and a skill's files read on demand through resources/read, each checked
// against the digest and size its entry lists, SKILL.md's frontmatter
// against the entry's.
//
// A SKILL.md is read leniently, as Claude Code reads one (ParseSkillMD:
// no frontmatter, YAML that needs its values quoted); Load accepts its
// frontmatter as written or as Listed makes it for the listed name, which
// is how the skills on this computer are listed.
//
// Nothing here reads a file before it is asked for: listing reads none,
// and loading a skill reads its SKILL.md only (the extension forbids a
// host to fetch a skill's files ahead of need). The router keeps tools;
// skills are kept here, beside it, from the same sessions.
//
// With Options.Redact, the secrets servers were started with are masked in
// their skills' entries and files, once verified (see Redactor).
package skills

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// Extension is the extension's capability key.
const Extension = wire.SkillsExtension

// Limits of the extension: a skill lists at most MaxFiles files of at most
// MaxSize bytes in all; a listing past them is refused, a read past
// MaxSize too. A server offers at most MaxSkills skills: the rest of its
// listing is left out (and not asked for), said once in Invalid.
const (
	MaxFiles  = 512
	MaxSize   = 16 << 20
	MaxSkills = 1000
)

// Errors a caller may tell apart.
var (
	// ErrNotOffered: the server does not declare the extension.
	ErrNotOffered = errors.New("the server offers no skills (it does not declare the io.modelcontextprotocol/skills extension)")
	// ErrVerify: a file's content is not what the skill's entry lists
	// (digest, size, or SKILL.md's frontmatter); it is not used.
	ErrVerify = errors.New("verification failed")
	// ErrUnknownSkill: no skill of that name or URI.
	ErrUnknownSkill = errors.New("no such skill")
)

// Skill is one skill a server lists.
type Skill struct {
	Server      string `json:"server"`
	URI         string `json:"uri"` // its SKILL.md: skill://<path>/SKILL.md
	Name        string `json:"name"`
	Description string `json:"description"`
	// Frontmatter is SKILL.md's YAML frontmatter as the entry carries it.
	Frontmatter map[string]any `json:"frontmatter"`
	// Files are every file of the skill, SKILL.md included; nil for a
	// dynamic skill (resources: "dynamic"), whose files are not listed.
	Files   []File `json:"files,omitempty"`
	Dynamic bool   `json:"dynamic,omitempty"`
}

// File is one file of a skill, as its entry lists it.
type File struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"` // sha256:<64 lowercase hex>
	Size   int64  `json:"size"`
}

// Size is the bytes of all its files (0 for a dynamic skill). A listed
// skill's files take at most MaxSize; the sum of sizes that would pass
// int64 stops at the largest int64, never wrapping to a negative count.
func (s Skill) Size() int64 {
	var n int64
	for _, f := range s.Files {
		if f.Size > math.MaxInt64-n {
			return math.MaxInt64
		}
		n += f.Size
	}
	return n
}

// Dir is the skill's directory URI: its URI without "/SKILL.md".
func (s Skill) Dir() string { return strings.TrimSuffix(s.URI, "/SKILL.md") }

// Path is a file's path within the skill ("references/FORMS.md").
func (s Skill) Path(uri string) string { return strings.TrimPrefix(uri, s.Dir()+"/") }

// Listing is what one server lists.
type Listing struct {
	Skills []Skill
	// Invalid says which entries were left out and why (an entry that
	// breaks the extension's rules is never offered).
	Invalid []string
}

// Session is the part of an MCP session the catalog uses; the
// supervisor's *Client satisfies it.
type Session interface {
	GetTransport() transport.Interface
	ProtocolVersion() string
	GetServerCapabilities() mcp.ServerCapabilities
	GetClientCapabilities() mcp.ClientCapabilities
}

// Sessions are the servers the catalog asks: their names, and each one's
// current session (or why there is none).
type Sessions interface {
	Servers() []string
	Session(server string) (Session, error)
}

// Options configure a Catalog.
type Options struct {
	// ClientInfo is sent in the _meta of a 2026-07-28 request.
	ClientInfo mcp.Implementation
	// Redact, when set, masks secrets in what servers' skills say (see
	// Redactor): entries and files' text.
	Redact Redactor
	// OwnData reports the servers whose skills are the user's own (the
	// skills on this computer), which Redact leaves as they are.
	OwnData func(server string) bool
}

// requestIDs numbers the extension's requests for the whole process, not
// per Catalog: two catalogs over one session (a relay's and the app's,
// or a test's) must never send the same ID, since a client transport
// keys its waiting requests by ID, and mcp-go's stdio transport, which
// forgets an answered ID only after handing the answer over, then
// forgot the second request's waiter and dropped its answer.
var requestIDs atomic.Int64

// Catalog lists servers' skills and reads their files.
type Catalog struct {
	sessions Sessions
	opts     Options
	mu       sync.Mutex
	cache    map[string]cached // by server
}

type cached struct {
	session Session
	listing Listing
	err     error     // the listing failed: said again until FailedRetry
	until   time.Time // zero: until the session changes
}

// New returns a catalog over sessions.
func New(sessions Sessions, opts Options) *Catalog {
	return &Catalog{sessions: sessions, opts: opts, cache: map[string]cached{}}
}

// ZeroTTLRefresh is how long a listing with ttlMs 0 is kept (as the
// router's tool lists): long enough that one chat turn lists once.
var ZeroTTLRefresh = 5 * time.Second

// now is the clock of the listings' ttlMs; tests move it.
var now = time.Now

// ListTimeout bounds listing one server's skills, every page.
var ListTimeout = 10 * time.Second

// FailedRetry is how long a failed listing is reported again without
// asking the server: every chat step lists the skills, and a server that
// hangs on skills/list must not hold up each of them.
var FailedRetry = 30 * time.Second

// maxPages bounds a listing against a server whose cursor never ends.
const maxPages = 100

// Servers are the servers the catalog asks (a relay declares the
// extension while one of them offers it).
func (c *Catalog) Servers() []string { return c.sessions.Servers() }

// Offers reports whether server's current session declares the extension.
func (c *Catalog) Offers(server string) bool {
	s, err := c.sessions.Session(server)
	return err == nil && offers(s)
}

func offers(s Session) bool {
	_, ok := s.GetServerCapabilities().Extensions[Extension]
	return ok
}

// List returns server's skills, from the cache while its ttlMs holds and
// the session is the same. A server without the extension has none
// (ErrNotOffered).
func (c *Catalog) List(ctx context.Context, server string) (Listing, error) {
	s, err := c.sessions.Session(server)
	if err != nil {
		return Listing{}, err
	}
	if !offers(s) {
		return Listing{}, fmt.Errorf("%s: %w", server, ErrNotOffered)
	}
	c.mu.Lock()
	e, ok := c.cache[server]
	c.mu.Unlock()
	if ok && e.session == s && (e.until.IsZero() || now().Before(e.until)) {
		return e.listing, e.err
	}
	l, ttl, err := c.fetch(ctx, server, s)
	if err != nil {
		if ctx.Err() == nil { // the caller's own end is not the server's failure
			c.mu.Lock()
			c.cache[server] = cached{session: s, err: err, until: now().Add(FailedRetry)}
			c.mu.Unlock()
		}
		return Listing{}, err
	}
	until := time.Time{}
	switch {
	case ttl == nil:
	case *ttl > 0:
		until = now().Add(time.Duration(*ttl) * time.Millisecond)
	default:
		until = now().Add(ZeroTTLRefresh)
	}
	c.mu.Lock()
	c.cache[server] = cached{session: s, listing: l, until: until}
	c.mu.Unlock()
	return l, nil
}

// All lists the skills of every server that offers them; a server that
// fails to list only loses its skills (its error is in errs).
func (c *Catalog) All(ctx context.Context) (all []Skill, errs []error) {
	for _, name := range c.sessions.Servers() {
		if !c.Offers(name) {
			continue
		}
		l, err := c.List(ctx, name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		all = append(all, l.Skills...)
	}
	return all, errs
}

// Find returns server's skill by name or URI.
func (c *Catalog) Find(ctx context.Context, server, nameOrURI string) (Skill, error) {
	l, err := c.List(ctx, server)
	if err != nil {
		return Skill{}, err
	}
	for _, s := range l.Skills {
		if s.Name == nameOrURI || s.URI == nameOrURI {
			return s, nil
		}
	}
	return Skill{}, fmt.Errorf("%s: %w %q", server, ErrUnknownSkill, nameOrURI)
}

// wireEntry is a skill entry as skills/list and skills/get carry it.
type wireEntry struct {
	URI         string          `json:"uri"`
	Frontmatter map[string]any  `json:"frontmatter"`
	Resources   json.RawMessage `json:"resources"`
}

type listResult struct {
	Skills     []json.RawMessage `json:"skills"`
	NextCursor string            `json:"nextCursor"`
	TTLMs      *int64            `json:"ttlMs"`
}

// fetch pages through skills/list; the ttlMs is the smallest of the pages'.
func (c *Catalog) fetch(ctx context.Context, server string, s Session) (Listing, *int64, error) {
	ctx, cancel := context.WithTimeout(ctx, ListTimeout)
	defer cancel()
	var l Listing
	var ttl *int64
	cursor := ""
	seen := map[string]bool{}
	keep := keeper{}
	for page := 1; ; page++ {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		raw, err := c.send(ctx, s, "skills/list", params)
		if err != nil {
			return Listing{}, nil, fmt.Errorf("%s: skills/list: %w", server, err)
		}
		var r listResult
		if err := json.Unmarshal(raw, &r); err != nil {
			return Listing{}, nil, fmt.Errorf("%s: skills/list: the answer is not a skills list: %w", server, err)
		}
		if r.TTLMs != nil && (ttl == nil || *r.TTLMs < *ttl) {
			ttl = r.TTLMs
		}
		for i, e := range r.Skills {
			if len(l.Skills) == MaxSkills {
				l.Invalid = append(l.Invalid, fmt.Sprintf("the server lists more than %d skills; the rest are left out (from entry %d of page %d on)", MaxSkills, i+1, page))
				return l, ttl, nil
			}
			sk, err := entry(server, e)
			if err != nil {
				l.Invalid = append(l.Invalid, Clean(fmt.Sprintf("entry %d of page %d: %v", i+1, page, err), 0))
				continue
			}
			if why := keep.add(sk); why != "" {
				l.Invalid = append(l.Invalid, why)
				continue
			}
			l.Skills = append(l.Skills, redactSkill(c.redactor(server), sk))
		}
		if r.NextCursor == "" {
			return l, ttl, nil
		}
		if seen[r.NextCursor] || page >= maxPages {
			return Listing{}, nil, fmt.Errorf("%s: skills/list: the server keeps answering with a nextCursor (%d pages); stopped listing (a pagination bug of the server: tell its author)", server, page)
		}
		seen[r.NextCursor] = true
		cursor = r.NextCursor
	}
}

// keeper tells a listing's duplicates (two entries of one URI keep the
// first) in one map lookup an entry: a scan of the kept ones for each
// entry made 100,000 skills take 96 s to list. Two skills of one name at
// different paths are not duplicates (a relay such as serve lists
// skill://A/pdf and skill://B/pdf).
type keeper map[string]bool

// add records sk, or says why it is a duplicate.
func (k keeper) add(sk Skill) string {
	if k[sk.URI] {
		return fmt.Sprintf("%s is listed twice; the first entry is kept", sk.URI)
	}
	k[sk.URI] = true
	return ""
}

// Get asks server for one skill's entry (skills/get), checked as a
// listed one.
func (c *Catalog) Get(ctx context.Context, server, uri string) (Skill, error) {
	s, err := c.sessions.Session(server)
	if err != nil {
		return Skill{}, err
	}
	if !offers(s) {
		return Skill{}, fmt.Errorf("%s: %w", server, ErrNotOffered)
	}
	raw, err := c.send(ctx, s, "skills/get", map[string]any{"uri": uri})
	if err != nil {
		return Skill{}, fmt.Errorf("%s: skills/get %s: %w", server, uri, err)
	}
	var r struct {
		Skill json.RawMessage `json:"skill"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || len(r.Skill) == 0 {
		// Some servers answer with the entry itself.
		r.Skill = raw
	}
	sk, err := entry(server, r.Skill)
	if err != nil {
		return Skill{}, err
	}
	return redactSkill(c.redactor(server), sk), nil
}

// entry checks one skill entry against the extension's rules.
func entry(server string, raw json.RawMessage) (Skill, error) {
	var e wireEntry
	if err := json.Unmarshal(raw, &e); err != nil {
		return Skill{}, fmt.Errorf("not a skill entry: %w", err)
	}
	if e.URI == "" {
		return Skill{}, errors.New("it has no uri")
	}
	if !strings.HasSuffix(e.URI, "/SKILL.md") {
		return Skill{}, fmt.Errorf("%s does not end in /SKILL.md", e.URI)
	}
	if err := checkURI(e.URI); err != nil {
		return Skill{}, err
	}
	name, _ := e.Frontmatter["name"].(string)
	desc, _ := e.Frontmatter["description"].(string)
	if name == "" || desc == "" {
		return Skill{}, fmt.Errorf("%s: its frontmatter has no name or no description", e.URI)
	}
	if err := checkName(name); err != nil {
		return Skill{}, fmt.Errorf("%s: %w", e.URI, err)
	}
	dir := strings.TrimSuffix(e.URI, "/SKILL.md")
	if last := dir[strings.LastIndex(dir, "/")+1:]; last != name {
		return Skill{}, fmt.Errorf("%s: the last segment of its path (%q) is not its name (%q)", e.URI, last, name)
	}
	desc = Clean(desc, MaxDescription)
	if desc == "" {
		return Skill{}, fmt.Errorf("%s: its description has no visible text", e.URI)
	}
	sk := Skill{Server: server, URI: e.URI, Name: name, Description: desc, Frontmatter: e.Frontmatter}
	var dynamic string
	if json.Unmarshal(e.Resources, &dynamic) == nil {
		if dynamic != "dynamic" {
			return Skill{}, fmt.Errorf("%s: resources is %q, neither a list nor \"dynamic\"", e.URI, dynamic)
		}
		sk.Dynamic = true
		return sk, nil
	}
	if err := json.Unmarshal(e.Resources, &sk.Files); err != nil || sk.Files == nil {
		return Skill{}, fmt.Errorf("%s: it has no resources list", e.URI)
	}
	if len(sk.Files) > MaxFiles {
		return Skill{}, fmt.Errorf("%s: it lists %d files (at most %d)", e.URI, len(sk.Files), MaxFiles)
	}
	seen := map[string]bool{}
	var total int64
	for _, f := range sk.Files {
		rel, inDir := strings.CutPrefix(f.URI, dir+"/")
		switch {
		case seen[f.URI]:
			return Skill{}, fmt.Errorf("%s: it lists %s twice", e.URI, f.URI)
		case !inDir:
			return Skill{}, fmt.Errorf("%s: it lists %s, outside the skill's directory", e.URI, f.URI)
		case !validDigest(f.Digest):
			return Skill{}, fmt.Errorf("%s: %s has the digest %q, not sha256:<64 lowercase hex>", e.URI, f.URI, f.Digest)
		case f.Size < 0:
			return Skill{}, fmt.Errorf("%s: %s has a negative size", e.URI, f.URI)
		}
		if err := CheckPath(rel); err != nil {
			return Skill{}, fmt.Errorf("%s: it lists %s: %w", e.URI, f.URI, err)
		}
		// Each size is checked before it is added: sizes that add past
		// int64 wrap to a negative sum, which passed a check of the sum.
		if f.Size > MaxSize-total {
			return Skill{}, fmt.Errorf("%s: its files take more than %d bytes (at most %d)", e.URI, MaxSize, MaxSize)
		}
		total += f.Size
		seen[f.URI] = true
	}
	if !seen[e.URI] {
		return Skill{}, fmt.Errorf("%s: its resources do not list its SKILL.md", e.URI)
	}
	return sk, nil
}

func validDigest(d string) bool {
	hexPart, ok := strings.CutPrefix(d, "sha256:")
	if !ok || len(hexPart) != 64 {
		return false
	}
	for _, r := range hexPart {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}

// Digest is the extension's digest of b.
func Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// send sends one request on s and returns its result. A 2026-07-28
// session's request carries the protocol's _meta (version, client info and
// capabilities) and its Mcp-Method header, as mcp-go puts on its own.
func (c *Catalog) send(ctx context.Context, s Session, method string, params map[string]any) (json.RawMessage, error) {
	var header http.Header
	if v := s.ProtocolVersion(); mcp.IsModernProtocol(v) {
		meta := map[string]any{
			mcp.MetaKeyProtocolVersion:    v,
			mcp.MetaKeyClientCapabilities: s.GetClientCapabilities(),
		}
		if c.opts.ClientInfo.Name != "" {
			meta[mcp.MetaKeyClientInfo] = c.opts.ClientInfo
		}
		params["_meta"] = meta
		header = http.Header{}
		header.Set("Mcp-Method", method)
		if uri, ok := params["uri"].(string); ok {
			header.Set("Mcp-Name", uri)
		}
	}
	res, err := s.GetTransport().SendRequest(ctx, transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(fmt.Sprintf("switchboard-skills-%d", requestIDs.Add(1))),
		Method: method, Params: params, Header: header,
	})
	if err != nil {
		return nil, err
	}
	if res.Error != nil {
		return nil, &RPCError{Code: res.Error.Code, Message: res.Error.Message}
	}
	return res.Result, nil
}

// RPCError is a server's JSON-RPC error answer, its code kept for a relay.
type RPCError struct {
	Code    int
	Message string
}

func (e *RPCError) Error() string { return fmt.Sprintf("%s (JSON-RPC error %d)", e.Message, e.Code) }

// ReadRaw relays one resources/read of server's, unverified and undecoded
// (unless it may hold a secret, which is masked: see Redactor): for a
// relay (the gateway), whose own client verifies what it reads.
func (c *Catalog) ReadRaw(ctx context.Context, server, uri string) (json.RawMessage, error) {
	s, err := c.sessions.Session(server)
	if err != nil {
		return nil, err
	}
	raw, err := c.send(ctx, s, "resources/read", map[string]any{"uri": uri})
	if err != nil {
		return nil, err
	}
	return redactRaw(c.redactor(server), raw), nil
}
