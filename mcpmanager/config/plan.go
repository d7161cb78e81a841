package config

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Outcome is what importing one server would do.
type Outcome string

// The outcomes of importing one server, each said beside it.
const (
	Added       Outcome = "added"       // no server of that name yet
	Changed     Outcome = "changed"     // same name, same program or endpoint, other settings differ
	Unchanged   Outcome = "unchanged"   // identical to the server already there
	Conflicting Outcome = "conflicting" // same name but a different program or endpoint
	Invalid     Outcome = "invalid"     // cannot be imported; see Item.Problems
)

// Resolution is the user's choice for one item of an import plan.
type Resolution string

const (
	// Keep leaves the app config's entry for that name as it is; the
	// incoming server is not imported (for an added server: skip it).
	Keep Resolution = "keep"
	// Replace imports the server under its own name, replacing any server
	// already called that (for an added server: just add it).
	Replace Resolution = "replace"
	// Rename imports the server under Item.RenameTo, next to the existing one.
	Rename Resolution = "rename"
)

// DefaultResolution is what Apply does when the caller gives no choice:
// import what is new, update a server whose settings changed, and never
// overwrite a different server that happens to share the name.
func DefaultResolution(o Outcome) Resolution {
	switch o {
	case Added, Changed:
		return Replace
	default:
		return Keep
	}
}

// ImportPlan is the per-server preview of importing a file.
type ImportPlan struct {
	File  string // the file's name, for messages
	Items []Item // in file order
}

// Item is the plan for one server of the file.
type Item struct {
	Name     string
	Path     string // JSON path of the entry in the file
	Outcome  Outcome
	Incoming Server    // from the file (as far as it could be read if invalid)
	Current  *Server   // the app config's server of the same name, if any
	Changes  []Change  // current → incoming, for changed and conflicting
	Problems []Problem // why an invalid item cannot be imported (plus any warnings)
	Default  Resolution
	// RenameTo is a free name ("github-2") for the Rename resolution, set
	// when the name is taken. Callers may set another name before Apply.
	RenameTo string
	// NeedsInputs lists ${input:id} placeholders still in the server; Apply
	// refuses to import it until File.WithInputs has filled them.
	NeedsInputs []string
}

// Resolve returns the choice in resolutions for this item, or its Default.
func (it Item) Resolve(resolutions map[string]Resolution) Resolution {
	if r := resolutions[it.Name]; r != "" {
		return r
	}
	return it.Default
}

// Imports reports whether Apply with resolutions brings this item's server
// into the config (an invalid, unchanged or kept one it leaves out).
func (it Item) Imports(resolutions map[string]Resolution) bool {
	return it.Outcome != Invalid && it.Outcome != Unchanged && it.Resolve(resolutions) != Keep
}

// Counts returns how many items have each outcome.
func (p ImportPlan) Counts() map[Outcome]int {
	out := map[Outcome]int{}
	for _, it := range p.Items {
		out[it.Outcome]++
	}
	return out
}

// Plan compares a parsed file with the app config and says, per server,
// what importing would do. Neither argument is modified.
func Plan(cfg *Config, f *File) ImportPlan {
	plan := ImportPlan{File: f.Name}
	taken := map[string]bool{}
	if cfg != nil {
		for _, s := range cfg.Servers {
			taken[s.Name] = true
		}
	}
	for _, e := range f.Entries {
		taken[e.Name] = true
	}
	claimed := map[string]bool{} // valid names already planned, to catch repeats
	for _, e := range f.Entries {
		it := Item{Name: e.Name, Path: e.Path, Incoming: e.Server.Clone(), Problems: slices.Clone(e.Problems)}
		reserved, isReserved := reservedProblem(e.Path, e.Name,
			fmt.Sprintf("rename this server in %s (e.g. to %q) and import it again", cmp.Or(f.Name, "the file"), freeName(e.Name, taken)))
		switch {
		case !e.Valid() || claimed[e.Name]:
			it.Outcome = Invalid
		case isReserved:
			it.Outcome = Invalid
			reserved.Line, reserved.Col = e.Line, e.Col
			it.Problems = append(it.Problems, reserved)
		default:
			claimed[e.Name] = true
			it.NeedsInputs = e.Server.InputIDs()
			cur, ok := cfg.Lookup(e.Name)
			if !ok {
				it.Outcome = Added
				break
			}
			cur = cur.Clone()
			it.Current = &cur
			it.Changes = Diff(cur, e.Server)
			switch {
			case len(it.Changes) == 0:
				it.Outcome = Unchanged
			case sameEndpoint(cur, e.Server):
				it.Outcome = Changed
			default:
				it.Outcome = Conflicting
			}
			it.RenameTo = freeName(e.Name, taken)
			taken[it.RenameTo] = true
		}
		it.Default = DefaultResolution(it.Outcome)
		plan.Items = append(plan.Items, it)
	}
	return plan
}

// sameEndpoint decides "changed" versus "conflicting": the same program
// (stdio command) or the same endpoint (URL without its query) is taken to
// be the same server with updated settings; anything else is a different
// server that only shares the name.
func sameEndpoint(a, b Server) bool {
	if a.Transport != b.Transport {
		return false
	}
	if a.Transport == Stdio {
		return a.Command == b.Command
	}
	return endpoint(a.URL) == endpoint(b.URL)
}

func endpoint(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host) + strings.TrimSuffix(u.Path, "/")
}

var numbered = regexp.MustCompile(`^(.*)-(\d+)$`)

// freeName returns name-2, name-3, ... (continuing from an existing
// "-N" suffix) that is not in taken.
func freeName(name string, taken map[string]bool) string {
	base, n := name, 2
	if m := numbered.FindStringSubmatch(name); m != nil {
		if k, err := strconv.Atoi(m[2]); err == nil && k < 1<<30 {
			base, n = m[1], k+1
		}
	}
	for ; ; n++ {
		if c := base + "-" + strconv.Itoa(n); !taken[c] {
			return c
		}
	}
}

// Apply returns a new config with the plan carried out; cfg is not modified.
// resolutions maps a server name to the user's choice; names left out get
// Item.Default. Replaced servers keep their position; new ones are appended
// in file order. Invalid items are never imported. Every bad resolution is
// reported at once.
func Apply(cfg *Config, plan ImportPlan, resolutions map[string]Resolution) (*Config, error) {
	out := cfg.Clone()
	var errs []error
	known := map[string]bool{}
	for _, it := range plan.Items {
		if it.Outcome != Invalid {
			known[it.Name] = true
		}
	}
	for _, name := range slices.Sorted(maps.Keys(resolutions)) {
		if !known[name] {
			errs = append(errs, fmt.Errorf("resolution for %q: %w; the importable servers are %s",
				name, ErrUnknownServer, quoteList(slices.Sorted(maps.Keys(known)))))
		}
	}
	for _, it := range plan.Items {
		if it.Outcome == Invalid {
			continue
		}
		r := it.Resolve(resolutions)
		if r == Keep {
			continue
		}
		if len(it.NeedsInputs) > 0 {
			errs = append(errs, fmt.Errorf("import %q: %w", it.Name, &MissingInputError{Server: it.Name, IDs: it.NeedsInputs}))
			continue
		}
		s := it.Incoming.Clone()
		switch r {
		case Replace:
			if i := out.index(it.Name); i >= 0 {
				out.Servers[i] = s
			} else {
				out.Servers = append(out.Servers, s)
			}
		case Rename:
			switch {
			case strings.TrimSpace(it.RenameTo) == "":
				errs = append(errs, fmt.Errorf("rename %q: %w: no new name; set RenameTo", it.Name, ErrBadResolution))
			case out.index(it.RenameTo) >= 0:
				errs = append(errs, fmt.Errorf("rename %q to %q: %w; choose another name", it.Name, it.RenameTo, ErrNameTaken))
			default:
				s.Name = it.RenameTo
				out.Servers = append(out.Servers, s)
			}
		default:
			errs = append(errs, fmt.Errorf("server %q: %w %q; use keep, replace or rename", it.Name, ErrBadResolution, r))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

func quoteList(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// Change is one difference between two definitions of a server. From and To
// are display values ("" when absent); for env and headers they are always
// empty, because those usually hold tokens.
type Change struct {
	Field    string // "command", "args", "env.GITHUB_TOKEN", "autoApprove"
	From, To string
	Secret   bool // values hidden on purpose
}

// String renders `args: ["a"] → ["b"]`, `env.TOKEN: changed`, `cwd: added "/x"`.
func (c Change) String() string {
	switch {
	case c.From == "" && c.To == "":
		return c.Field + ": changed"
	case c.From == "":
		if c.Secret {
			return c.Field + ": added"
		}
		return c.Field + ": added " + c.To
	case c.To == "":
		return c.Field + ": removed"
	case c.Secret:
		return c.Field + ": changed"
	}
	return c.Field + ": " + c.From + " → " + c.To
}

// Diff lists how b differs from a, field by field, in a fixed order. Env
// and header values are compared but never shown. The names are not compared.
func Diff(a, b Server) []Change {
	var out []Change
	str := func(field, x, y string) {
		if x != y {
			out = append(out, Change{Field: field, From: show(x), To: show(y)})
		}
	}
	str("type", string(a.Transport), string(b.Transport))
	str("command", a.Command, b.Command)
	if !slices.Equal(a.Args, b.Args) {
		out = append(out, Change{Field: "args", From: showJSON(a.Args), To: showJSON(b.Args)})
	}
	out = append(out, diffSecret("env", a.Env, b.Env)...)
	str("cwd", a.Cwd, b.Cwd)
	str("envFile", a.EnvFile, b.EnvFile)
	for _, l := range []struct {
		field string
		a, b  []string
	}{{"includeTools", a.IncludeTools, b.IncludeTools}, {"excludeTools", a.ExcludeTools, b.ExcludeTools}} {
		if !slices.Equal(l.a, l.b) {
			out = append(out, Change{Field: l.field, From: showJSON(l.a), To: showJSON(l.b)})
		}
	}
	str("url", a.URL, b.URL)
	out = append(out, diffSecret("headers", a.Headers, b.Headers)...)
	if a.Disabled != b.Disabled {
		out = append(out, Change{Field: "disabled", From: strconv.FormatBool(a.Disabled), To: strconv.FormatBool(b.Disabled)})
	}
	if ra, rb := restartJSON(a.Restart), restartJSON(b.Restart); ra != rb {
		out = append(out, Change{Field: "restart", From: ra, To: rb})
	}
	if a.ToolTimeout != b.ToolTimeout {
		out = append(out, Change{Field: "defaultToolTimeout", From: string(millis(a.ToolTimeout)), To: string(millis(b.ToolTimeout))})
	}
	if a.StartupTimeout != b.StartupTimeout {
		out = append(out, Change{Field: "startupTimeout", From: string(millis(a.StartupTimeout)), To: string(millis(b.StartupTimeout))})
	}
	str("stderr", a.Stderr, b.Stderr)
	str("encoding", a.Encoding, b.Encoding)
	if !slices.Equal(a.Roots, b.Roots) {
		out = append(out, Change{Field: "roots", From: showJSON(a.Roots), To: showJSON(b.Roots)})
	} else if a.RootsMode != b.RootsMode {
		str("roots", a.RootsMode, b.RootsMode)
	}
	if sa, sb := sandboxJSON(a.Sandbox), sandboxJSON(b.Sandbox); sa != sb {
		out = append(out, Change{Field: "sandbox", From: sa, To: sb})
	}
	switch oa, ob := oauthJSON(a.OAuth), oauthJSON(b.OAuth); {
	case oa != ob:
		out = append(out, Change{Field: "oauth", From: oa, To: ob})
	case a.OAuth != nil && b.OAuth != nil && a.OAuth.ClientSecret != b.OAuth.ClientSecret:
		// Both sides show a plaintext secret masked: say that it changed.
		out = append(out, Change{Field: "oauth.clientSecret", Secret: true})
	}
	keys := slices.Sorted(maps.Keys(a.Extra))
	for k := range b.Extra {
		if _, ok := a.Extra[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		x, y := canonical(a.Extra[k]), canonical(b.Extra[k])
		if x != y {
			out = append(out, Change{Field: pathKey("", k), From: x, To: y})
		}
	}
	return out
}

func diffSecret(field string, a, b map[string]string) []Change {
	keys := slices.Collect(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []Change
	for _, k := range keys {
		x, inA := a[k]
		y, inB := b[k]
		switch {
		case !inB:
			out = append(out, Change{Field: pathKey(field, k), From: "(set)", Secret: true})
		case !inA:
			out = append(out, Change{Field: pathKey(field, k), To: "(set)", Secret: true})
		case x != y:
			out = append(out, Change{Field: pathKey(field, k), Secret: true})
		}
	}
	return out
}

func show(s string) string {
	if s == "" {
		return ""
	}
	return strconv.Quote(s)
}

func showJSON(v []string) string {
	if len(v) == 0 {
		return ""
	}
	b, _ := marshal(v)
	return string(b)
}

func restartJSON(r *Restart) string {
	if r == nil {
		return ""
	}
	b, _ := marshal(Server{Restart: r})
	// {"restart":{...}} → {...}
	return strings.TrimSuffix(strings.TrimPrefix(string(b), `{"restart":`), "}")
}

// canonical renders raw JSON for comparing and showing: compact, keys
// sorted, escapes normalized, numbers kept as written.
func canonical(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return string(raw)
	}
	b, err := marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}
