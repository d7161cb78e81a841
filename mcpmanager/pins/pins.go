package pins

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/toolcheck"
)

// Sentinel errors.
var (
	// ErrChanged: a tool's definition differs from the one the user trusted.
	ErrChanged = errors.New("the tool's definition changed since you trusted it")
	// ErrNoChange: Trust or Reject found no changed definition waiting.
	ErrNoChange = errors.New("no changed definition waits for review")
)

// ChangedError is a tool withheld because its definition changed.
type ChangedError struct {
	Server string
	Tool   string // the server's own name for the tool
	// Findings, for a new tool of a trusted server, say why its text looks
	// like hidden instructions; empty for a changed definition.
	Findings string
}

func (e *ChangedError) Error() string {
	what := ErrChanged.Error()
	if e.Findings != "" {
		what = "a new tool whose text may hide instructions for the model (" + e.Findings + ")"
	}
	return fmt.Sprintf("%s: %s: %s; it is withheld until you review it: see what changed with 'switchboard tools changes %s --server %s', then run 'switchboard tools trust %s --server %s' (or 'tools reject'), or open Servers → %s in the window and Accept or Reject it",
		e.Server, e.Tool, what, e.Tool, e.Server, e.Tool, e.Server, e.Server)
}

func (e *ChangedError) Unwrap() error { return ErrChanged }

// StoreError is a failure to read or write the pin file.
type StoreError struct {
	Op   string // "read" or "write"
	Path string
	Err  error
}

func (e *StoreError) Error() string {
	return fmt.Sprintf("%s tool pins %s: %v (remove the file to trust every tool's current definition again)", e.Op, e.Path, e.Err)
}

func (e *StoreError) Unwrap() error { return e.Err }

// Pin is a trusted definition.
type Pin struct {
	Hash string `json:"hash"`
	// Definition is the canonical JSON that was hashed, kept for the diff.
	Definition json.RawMessage `json:"definition"`
	Trusted    time.Time       `json:"trusted"`
	// New: first seen after the server's first listing, not yet accepted.
	New bool `json:"new,omitempty"`
	// Format is which parts Hash covers: 0 for pins made before _meta,
	// execution and icons were pinned (formatOneKeys), else format.
	Format int `json:"format,omitempty"`
}

// format is the Format of pins made now: Hash's pinnedKeys.
const format = 2

// pinnedKeys are the parts of a tool that are pinned; formatOneKeys those
// pinned before format 2.
var (
	pinnedKeys    = []string{"name", "title", "description", "inputSchema", "outputSchema", "annotations", "_meta", "execution", "icons"}
	formatOneKeys = pinnedKeys[:6]
)

// Pending is a listed definition that differs from the pin.
type Pending struct {
	Hash       string          `json:"hash"`
	Definition json.RawMessage `json:"definition"`
	Seen       time.Time       `json:"seen"`
	Rejected   bool            `json:"rejected,omitempty"`
}

// Change is one tool waiting for review.
type Change struct {
	Server   string
	Tool     string
	Old, New string // indented canonical JSON; Old is empty when none was trusted
	Seen     time.Time
	Rejected bool
}

// fileData is the JSON of the pin file.
type fileData struct {
	Version int                           `json:"version"`
	Pins    map[string]map[string]Pin     `json:"pins"`    // server → tool → trusted
	Pending map[string]map[string]Pending `json:"pending"` // server → tool → changed
}

// Options configure a Store.
type Options struct {
	// Skip reports servers whose tools are not pinned (the built-ins, which
	// ship with the app and change with it).
	Skip func(server string) bool
	// OnChange is told after Trust or Reject changed what server may offer,
	// so that listings are screened again. It must not block.
	OnChange func(server string)
	// Redact, when set, is the mask the listings Screen gets were given
	// (the router masks secrets before the gate screens: see
	// router.Redactor). A pin taken before masking, whose definition
	// masked is the one listed now, is taken over masked rather than
	// withheld as changed: the tool keeps its trust and the file loses
	// the secret.
	Redact func(string) string
}

// Store is the pin file of one data directory.
type Store struct {
	path string
	opts Options

	mu      sync.Mutex
	data    fileData
	stamp   fileStamp // of the file as last read or written
	version uint64    // moves whenever data does (see Version)
	w       *watch    // of the file's folder, started by the first Version
	tried   bool      // a watch was started, or failed to since the folder last changed
	closed  bool      // no watch starts again (Close)
	// unreadable: Version's last look failed, and it looks again every time
	unreadable bool
}

// fileStamp tells whether another process rewrote the file.
type fileStamp struct {
	mod  time.Time
	size int64
}

// Open returns the store kept at path; nothing is read until it is used.
func Open(path string, opts Options) *Store {
	return &Store{path: path, opts: opts, data: empty()}
}

func empty() fileData {
	return fileData{Version: 1, Pins: map[string]map[string]Pin{}, Pending: map[string]map[string]Pending{}}
}

// canonical is the JSON of the parts of t named by keys, keys sorted and
// without insignificant space.
func canonical(t mcp.Tool, keys []string) (json.RawMessage, error) {
	raw, err := json.Marshal(t)
	if err != nil {
		return nil, fmt.Errorf("encode tool %q: %w", t.Name, err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var all map[string]any
	if err := dec.Decode(&all); err != nil {
		return nil, fmt.Errorf("decode tool %q: %w", t.Name, err)
	}
	kept := map[string]any{}
	for _, k := range keys {
		if v, ok := all[k]; ok {
			kept[k] = v
		}
	}
	c, err := encodeCanonical(kept)
	if err != nil {
		return nil, fmt.Errorf("encode tool %q: %w", t.Name, err)
	}
	return c, nil
}

// encodeCanonical is v as canonical JSON: maps encode with sorted keys,
// all the way down; <, > and & stay as they are so that the diff a
// person reads shows the text as sent.
func encodeCanonical(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Hash is the hex SHA-256 of the JSON of the parts of t that are pinned
// (pinnedKeys), keys sorted and without insignificant space, and that JSON.
func Hash(t mcp.Tool) (hash string, canonical json.RawMessage, err error) {
	return hashOf(t, pinnedKeys)
}

func hashOf(t mcp.Tool, keys []string) (string, json.RawMessage, error) {
	c, err := canonical(t, keys)
	if err != nil {
		return "", nil, err
	}
	sum := sha256.Sum256(c)
	return hex.EncodeToString(sum[:]), c, nil
}

// Screen checks a server's listed tools against the pins: errs[i] is nil
// when tools[i] may be offered, else a *ChangedError (or the reason its
// definition could not be read). Tools seen for the first time are pinned;
// a changed definition is kept for review. It implements router.Gate.
func (s *Store) Screen(server string, tools []mcp.Tool) []error {
	errs := make([]error, len(tools))
	if s.opts.Skip != nil && s.opts.Skip(server) {
		return errs
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.reloadLocked(); err != nil {
		for i := range errs {
			errs[i] = err // an unreadable pin file withholds rather than trusts
		}
		return errs
	}
	pins := s.data.Pins[server]
	known := len(pins) > 0
	dirty := false
	now := time.Now().UTC()
	for i, t := range tools {
		hash, def, err := Hash(t)
		if err != nil {
			errs[i] = err
			continue
		}
		p, ok := pins[t.Name]
		if ok && p.Format < format {
			// Trusted before _meta, execution and icons were pinned: when
			// the rest is as trusted, pin those as they are now, as the
			// first listing would have.
			if old, _, err := hashOf(t, formatOneKeys); err == nil && old == p.Hash {
				p = Pin{Hash: hash, Definition: def, Trusted: p.Trusted, New: p.New, Format: format}
				pins[t.Name] = p
				dirty = true
			}
		}
		var findings []toolcheck.Finding
		if !ok && known {
			findings = toolcheck.Check(t)
		}
		switch {
		case len(findings) > 0:
			errs[i] = &ChangedError{Server: server, Tool: t.Name, Findings: toolcheck.Summary(findings)}
			dirty = s.pendLocked(server, t.Name, hash, def, now) || dirty
		case !ok:
			if pins == nil {
				pins = map[string]Pin{}
				s.data.Pins[server] = pins
			}
			pins[t.Name] = Pin{Hash: hash, Definition: def, Trusted: now, New: known, Format: format}
			dirty = true
		case p.Hash != hash && s.remasked(p, hash):
			pins[t.Name] = Pin{Hash: hash, Definition: def, Trusted: p.Trusted, New: p.New, Format: format}
			dirty = true
			delete(s.data.Pending[server], t.Name) // its unmasked listing, if one waits
		case p.Hash == hash:
			if _, waiting := s.data.Pending[server][t.Name]; waiting {
				delete(s.data.Pending[server], t.Name) // it changed back
				dirty = true
			}
		default:
			errs[i] = &ChangedError{Server: server, Tool: t.Name}
			dirty = s.pendLocked(server, t.Name, hash, def, now) || dirty
		}
	}
	if dirty {
		if err := s.writeLocked(); err != nil {
			// The verdicts stand; the next listing tries to save again.
			s.stamp = fileStamp{}
		}
	}
	return errs
}

// remasked reports whether pin p, taken of a definition that held a
// secret before listings were masked, is the definition listed now
// (hash) once masked (Options.Redact).
func (s *Store) remasked(p Pin, hash string) bool {
	if s.opts.Redact == nil || p.Format != format || len(p.Definition) == 0 {
		return false
	}
	// The definition as hashed (the file holds it indented), its strings
	// masked as the router masks a listing's.
	dec := json.NewDecoder(bytes.NewReader(p.Definition))
	dec.UseNumber()
	var def any
	if dec.Decode(&def) != nil {
		return false
	}
	changed := false
	c, err := encodeCanonical(maskStrings(def, s.opts.Redact, &changed))
	if err != nil || !changed {
		return false
	}
	sum := sha256.Sum256(c)
	return hex.EncodeToString(sum[:]) == hash
}

// maskStrings is decoded JSON v with redact applied to every string and
// key; changed is set when one changed.
func maskStrings(v any, redact func(string) string, changed *bool) any {
	switch v := v.(type) {
	case string:
		m := redact(v)
		*changed = *changed || m != v
		return m
	case []any:
		for i := range v {
			v[i] = maskStrings(v[i], redact, changed)
		}
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			mk := redact(k)
			*changed = *changed || mk != k
			out[mk] = maskStrings(e, redact, changed)
		}
		return out
	}
	return v
}

// pendLocked keeps a listed definition for review, and reports whether
// that changed the file.
func (s *Store) pendLocked(server, tool, hash string, def json.RawMessage, now time.Time) bool {
	pend := s.data.Pending[server]
	if cur, ok := pend[tool]; ok && cur.Hash == hash {
		return false
	}
	if pend == nil {
		pend = map[string]Pending{}
		s.data.Pending[server] = pend
	}
	pend[tool] = Pending{Hash: hash, Definition: def, Seen: now}
	return true
}

// Version moves whenever what Screen answers may change: a trust or a
// rejection, a new pin, the file rewritten by another process. It makes
// the Store a router.VersionedGate, asked at every call and listing, so it
// looks at the file only when a watch of its folder saw it change (or
// there is no watch): a change by another process moves it a moment
// later, when the watch's event arrives. An unreadable file moves it at
// every call.
func (s *Store) Version() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.watchLocked(); w != nil && !s.unreadable && !w.changed() {
		return s.version
	}
	err := s.reloadLocked()
	if s.unreadable = err != nil; s.unreadable {
		s.version++ // Screen withholds everything: never keep an earlier verdict
	}
	return s.version
}

// watchLocked returns the watch of the file's folder, starting it the
// first time; nil when it cannot run (no such folder yet: it is tried
// again once the file is written or appears).
func (s *Store) watchLocked() *watch {
	if s.w == nil && !s.tried && !s.closed {
		s.tried = true
		if w, err := startWatch(s.path); err == nil {
			s.w = w
			runtime.AddCleanup(s, (*watch).close, w) // a Store nobody closes
		}
	}
	return s.w
}

// Close stops watching the file. The Store still works: Version then
// looks at the file every time.
func (s *Store) Close() error {
	s.mu.Lock()
	w := s.w
	s.w, s.closed = nil, true
	s.mu.Unlock()
	if w != nil {
		w.close()
	}
	return nil
}

// Changes lists the tools waiting for review, by server and tool.
func (s *Store) Changes() ([]Change, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.reloadLocked(); err != nil {
		return nil, err
	}
	var out []Change
	for server, pend := range s.data.Pending {
		for tool, p := range pend {
			c := Change{Server: server, Tool: tool, Seen: p.Seen, Rejected: p.Rejected, New: indent(p.Definition)}
			if pin, ok := s.data.Pins[server][tool]; ok {
				c.Old = indent(pin.Definition)
			}
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Server != out[j].Server {
			return out[i].Server < out[j].Server
		}
		return out[i].Tool < out[j].Tool
	})
	return out, nil
}

// NewTools lists server's tools first seen after its first listing and
// not accepted yet.
func (s *Store) NewTools(server string) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.reloadLocked(); err != nil {
		return nil, err
	}
	var out []string
	for name, p := range s.data.Pins[server] {
		if p.New {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out, nil
}

// Trust accepts tool's changed definition on server (or clears its "new"
// mark): it becomes the pin and the tool is offered again.
func (s *Store) Trust(server, tool string) error {
	err := s.edit(server, tool, func(d *fileData) error {
		if p, ok := d.Pending[server][tool]; ok {
			d.Pins[server][tool] = Pin{Hash: p.Hash, Definition: p.Definition, Trusted: time.Now().UTC(), Format: format}
			delete(d.Pending[server], tool)
			return nil
		}
		if p, ok := d.Pins[server][tool]; ok && p.New {
			p.New = false
			d.Pins[server][tool] = p
			return nil
		}
		return fmt.Errorf("%s: %s: %w (run 'switchboard tools list' to list the servers' tools again)", server, tool, ErrNoChange)
	})
	return err
}

// Reject keeps the trusted definition: the tool stays withheld while the
// server lists the changed one, and the change is marked rejected.
func (s *Store) Reject(server, tool string) error {
	return s.edit(server, tool, func(d *fileData) error {
		p, ok := d.Pending[server][tool]
		if !ok {
			return fmt.Errorf("%s: %s: %w", server, tool, ErrNoChange)
		}
		p.Rejected = true
		d.Pending[server][tool] = p
		return nil
	})
}

// Resolve finds the server and tool a name given by a person stands for:
// with server set, name is the server's own tool name; without, name is an
// exposed name (server__tool, as exposed returns it) of a changed or new tool.
func (s *Store) Resolve(name, server string, exposed func(server, tool string) string) (string, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.reloadLocked(); err != nil {
		return "", "", err
	}
	if server != "" {
		return server, name, nil
	}
	var found [][2]string
	seen := map[[2]string]bool{}
	add := func(srv, tool string) {
		k := [2]string{srv, tool}
		if !seen[k] && (exposed(srv, tool) == name || tool == name) {
			seen[k] = true
			found = append(found, k)
		}
	}
	for srv, pend := range s.data.Pending {
		for tool := range pend {
			add(srv, tool)
		}
	}
	for srv, pins := range s.data.Pins {
		for tool, p := range pins {
			if p.New {
				add(srv, tool)
			}
		}
	}
	switch len(found) {
	case 1:
		return found[0][0], found[0][1], nil
	case 0:
		return "", "", fmt.Errorf("%s: %w (run 'switchboard tools changes' to see which tools are withheld)", name, ErrNoChange)
	}
	var names []string
	for _, f := range found {
		names = append(names, f[0])
	}
	slices.Sort(names)
	return "", "", fmt.Errorf("%s: more than one server has a tool of that name waiting (%s): add --server", name, strings.Join(names, ", "))
}

func (s *Store) edit(server, tool string, fn func(*fileData) error) error {
	s.mu.Lock()
	if err := s.reloadLocked(); err != nil {
		s.mu.Unlock()
		return err
	}
	if s.data.Pins[server] == nil {
		s.data.Pins[server] = map[string]Pin{}
	}
	if err := fn(&s.data); err != nil {
		s.mu.Unlock()
		return err
	}
	err := s.writeLocked()
	s.mu.Unlock()
	if err == nil && s.opts.OnChange != nil {
		s.opts.OnChange(server)
	}
	return err
}

// reloadLocked reads the file when it is not the one last read or written.
func (s *Store) reloadLocked() error {
	fi, err := os.Stat(s.path)
	if errors.Is(err, os.ErrNotExist) {
		if s.stamp != (fileStamp{}) {
			s.data, s.stamp = empty(), fileStamp{} // removed: trust anew
			s.version++
		}
		return nil
	}
	if err != nil {
		return &StoreError{Op: "read", Path: s.path, Err: err}
	}
	st := fileStamp{mod: fi.ModTime(), size: fi.Size()}
	if st == s.stamp {
		return nil
	}
	if s.w == nil {
		s.tried = false // the folder is there now: a watch may start
	}
	raw, err := os.ReadFile(s.path)
	if err != nil {
		return &StoreError{Op: "read", Path: s.path, Err: err}
	}
	d := empty()
	if err := json.Unmarshal(raw, &d); err != nil {
		return &StoreError{Op: "read", Path: s.path, Err: err}
	}
	if d.Pins == nil {
		d.Pins = map[string]map[string]Pin{}
	}
	if d.Pending == nil {
		d.Pending = map[string]map[string]Pending{}
	}
	s.data, s.stamp = d, st
	s.version++
	return nil
}

// writeLocked saves the file atomically: a temp file beside it, fsync, rename.
func (s *Store) writeLocked() (err error) {
	for srv, p := range s.data.Pending {
		if len(p) == 0 {
			delete(s.data.Pending, srv)
		}
	}
	raw, err := json.MarshalIndent(s.data, "", "  ")
	if err != nil {
		return &StoreError{Op: "write", Path: s.path, Err: err}
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return &StoreError{Op: "write", Path: s.path, Err: err}
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.path), ".pins-*.tmp")
	if err != nil {
		return &StoreError{Op: "write", Path: s.path, Err: err}
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(raw); err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), s.path)
	}
	if err != nil {
		return &StoreError{Op: "write", Path: s.path, Err: err}
	}
	if fi, serr := os.Stat(s.path); serr == nil {
		s.stamp = fileStamp{mod: fi.ModTime(), size: fi.Size()}
	}
	if s.w == nil {
		s.tried = false // the folder is there now: a watch may start
	}
	s.version++
	return nil
}

// indent pretty-prints canonical JSON for a diff.
func indent(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	// pins.json is written by json.MarshalIndent, which escapes <, > and &
	// inside the definitions it holds (\u003cIMPORTANT\u003e); a person
	// reviewing a change must read the text as the server sent it, so the
	// definition is decoded and written again without that escaping.
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return string(raw)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return string(raw)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
