package secrets

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// Move is one value that leaves a config for the keyring.
type Move struct {
	Server string `json:"server"`
	Field  string `json:"field"` // env.GITHUB_TOKEN, headers.Authorization, oauth.clientSecret
	Name   string `json:"name"`  // keyring name: server.<id>.<field> (see ServerName)
	Masked string `json:"masked"`
	// Input is the VS Code password input whose value this is: it always
	// goes to the keyring (no opt-out), into every field that uses it.
	Input string `json:"input,omitempty"`
	value string
}

// MoveOf is a move of value from server's field to the keyring entry name.
func MoveOf(server, field, name, value string) Move {
	return Move{Server: server, Field: field, Name: name, Masked: Mask(value), value: value}
}

// Value is the value that moves (never shown: the redactor learns it).
func (m Move) Value() string { return m.value }

// nameIn is the keyring name of s's field: one of its own entries once it
// has an id, else the name Switchboard gave before ids (<server>_<VAR>).
func nameIn(s config.Server, field, legacy string) string {
	if s.ID != "" {
		return ServerName(s.ID, field)
	}
	return NameFor(s.Name, legacy)
}

// Key identifies the value for opting out: "<server>.<field>".
func (m Move) Key() string { return m.Server + "." + m.Field }

// Extract returns s with its secret-looking env and header values replaced
// by references to the server's own keyring entries (server.<id>.env.VAR),
// and the values to store. Fields
// whose Key is in keep stay in plaintext (the user's choice).
func Extract(s config.Server, keep map[string]bool) (config.Server, []Move) {
	out := s.Clone()
	var moves []Move
	// move records value of field as moving to the keyring and returns the
	// reference to put in its place; ok is false for a field in keep.
	// legacy is the name the value had before servers had ids (NameFor).
	move := func(field, legacy, value string) (ref string, ok bool) {
		mv := Move{Server: s.Name, Field: field, Name: nameIn(s, field, legacy), Masked: Mask(value), value: value}
		if keep[mv.Key()] {
			return "", false
		}
		moves = append(moves, mv)
		return "${secret:" + mv.Name + "}", true
	}
	byField := func(field, value string) (string, bool) {
		return move(field, strings.ReplaceAll(field, ".", "_"), value)
	}
	visit := func(kind string, m map[string]string, header bool) {
		for _, k := range slices.Sorted(mapKeys(m)) {
			if !LooksSecret(k, m[k], header) {
				// A URL's own secrets (TAVILY_URL=https://…?tavilyApiKey=…).
				m[k], _ = urlSecretsAt(m[k], kind+"."+k, kind+"."+k, byField)
				continue
			}
			if ref, ok := move(kind+"."+k, k, m[k]); ok {
				m[k] = ref
			}
		}
	}
	visit("env", out.Env, false)
	visit("headers", out.Headers, true)
	out.Args = argSecrets(passwordArgs(out.Command, out.Args, byField), byField)
	out.URL = urlSecrets(out.URL, "url", byField)
	if o := out.OAuth; o != nil && o.ClientSecret != "" && config.Reference(o.ClientSecret) != o.ClientSecret {
		// A client secret is a secret whatever it looks like.
		if ref, ok := move("oauth.clientSecret", "OAUTH_CLIENT_SECRET", o.ClientSecret); ok {
			o.ClientSecret = ref
		}
	}
	return out, moves
}

func mapKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// ExtractFile extracts secrets from every server of f (see Extract).
func ExtractFile(f *config.File, keep map[string]bool) (*config.File, []Move) {
	out := *f
	out.Servers = make([]config.Server, len(f.Servers))
	var all []Move
	for i, s := range f.Servers {
		var moves []Move
		out.Servers[i], moves = Extract(s, keep)
		all = append(all, moves...)
	}
	// Entries carry the servers too (Plan reads them): keep them in step,
	// found by name once (20,000 servers are a map lookup each, not a scan).
	byName := make(map[string]config.Server, len(out.Servers))
	for _, s := range out.Servers {
		byName[s.Name] = s // the last of a repeated name, as the scan kept
	}
	out.Entries = slices.Clone(f.Entries)
	for i, e := range out.Entries {
		if s, ok := byName[e.Server.Name]; ok && e.Valid() {
			out.Entries[i].Server = s
		}
	}
	return &out, all
}

// StoreMoves writes every move to the keyring and returns the names it
// stored; it stops at the first failure so the caller saves nothing (the
// config must not reference missing secrets).
func (s *Store) StoreMoves(moves []Move) ([]string, error) {
	names := make([]string, 0, len(moves))
	for _, m := range moves {
		if err := s.Set(m.Name, m.value); err != nil {
			return nil, fmt.Errorf("%s %s: %w", m.Server, m.Field, err)
		}
		names = append(names, m.Name)
	}
	return names, nil
}

// Index adds (add) or removes names in cfg's index of secrets.
func Index(cfg *config.Config, add bool, names ...string) error {
	raw, err := WithNames(cfg.Settings, add, names...)
	if err != nil {
		return err
	}
	cfg.Settings = raw
	return nil
}

// namesSection is the part of config.json's "settings" this package
// owns: the names of the keyring's secrets the config uses.
var namesSection = config.Section[[]string]{Key: "secrets"}

// Names returns the secret names indexed in the config's settings (none
// when the index is malformed: WithNames then says why).
func Names(raw json.RawMessage) []string {
	names, _ := namesSection.From(raw)
	return names
}

// WithNames returns settings with names added to (add) or removed from the index.
func WithNames(raw json.RawMessage, add bool, names ...string) (json.RawMessage, error) {
	cfg := config.Config{Settings: raw}
	err := namesSection.Edit(&cfg, func(cur *[]string) error {
		for _, n := range names {
			i := slices.Index(*cur, n)
			switch {
			case add && i < 0:
				*cur = append(*cur, n)
			case !add && i >= 0:
				*cur = slices.Delete(*cur, i, i+1)
			}
		}
		slices.Sort(*cur)
		return nil
	})
	return cfg.Settings, err
}

// SecretInfo is one indexed secret.
type SecretInfo struct {
	Name string `json:"name"`
	// Masked is ••••last4, "(missing)" when the keyring lacks it, or
	// MaskedLocked or MaskedUnavailable when it cannot be read.
	Masked string   `json:"masked"`
	UsedBy []string `json:"usedBy"`
}

// What SecretInfo.Masked says of a value that cannot be read: the keyring
// is locked (ErrLocked: unlocking it shows the value), or there is none.
const (
	MaskedLocked      = "(keyring locked: unlock it)"
	MaskedUnavailable = "(keyring unavailable)"
)

// List joins the config's index with the keyring, masked.
func List(cfg *config.Config, st *Store) []SecretInfo {
	used := map[string][]string{}
	for _, s := range cfg.Servers {
		vals := slices.Concat(s.Args, []string{s.URL, s.Command})
		for _, v := range s.Env {
			vals = append(vals, v)
		}
		for _, v := range s.Headers {
			vals = append(vals, v)
		}
		if s.OAuth != nil {
			vals = append(vals, s.OAuth.ClientSecret)
		}
		for _, v := range vals {
			for _, n := range Refs(v) {
				if !slices.Contains(used[n], s.Name) {
					used[n] = append(used[n], s.Name)
				}
			}
		}
	}
	names := Names(cfg.Settings)
	for n := range used {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	out := make([]SecretInfo, 0, len(names))
	for _, n := range names {
		info := SecretInfo{Name: n, UsedBy: used[n], Masked: "(missing)"}
		if info.UsedBy == nil {
			info.UsedBy = []string{}
		}
		if v, err := st.Get(n); err == nil {
			info.Masked = Mask(v)
		} else if errors.Is(err, ErrLocked) { // before ErrUnavailable, which it is too
			info.Masked = MaskedLocked
		} else if errors.Is(err, ErrUnavailable) {
			info.Masked = MaskedUnavailable
		}
		out = append(out, info)
	}
	return out
}

// ForPlan keeps the moves of servers the plan will import with the given
// resolutions (a kept, unchanged or invalid server moves nothing).
func ForPlan(plan config.ImportPlan, res map[string]config.Resolution, moves []Move) []Move {
	in := map[string]bool{}
	for _, it := range plan.Items {
		in[it.Name] = it.Imports(res)
	}
	var out []Move
	for _, m := range moves {
		if in[m.Server] {
			out = append(out, m)
		}
	}
	return out
}

// grantsSection is the part of config.json's "settings" that says which
// keyring entries a server may use besides its own, by server id: the
// references the user typed or granted ('secrets grant'). An imported
// entry never brings grants: settings are not imported.
var grantsSection = config.Section[map[string][]string]{Key: "secretGrants"}

// Grants returns the grants of the config's settings (none when malformed).
func Grants(raw json.RawMessage) map[string][]string {
	g, _ := grantsSection.From(raw)
	return g
}

// Grant lets the server id use names (add), or takes that back.
func Grant(cfg *config.Config, id string, add bool, names ...string) error {
	return grantsSection.Edit(cfg, func(g *map[string][]string) error {
		if *g == nil {
			*g = map[string][]string{}
		}
		cur := (*g)[id]
		for _, n := range names {
			i := slices.Index(cur, n)
			switch {
			case add && i < 0:
				cur = append(cur, n)
			case !add && i >= 0:
				cur = slices.Delete(cur, i, i+1)
			}
		}
		slices.Sort(cur)
		if len(cur) == 0 {
			delete(*g, id)
		} else {
			(*g)[id] = cur
		}
		return nil
	})
}

// Forget drops every grant of the server id (it was removed).
func Forget(cfg *config.Config, id string) error {
	return grantsSection.Edit(cfg, func(g *map[string][]string) error {
		delete(*g, id)
		return nil
	})
}

// keyringSection holds the data directory's keyring scope (see
// Store.SetScope and Keyring); its presence also says the entries of
// older versions were carried over.
var keyringSection = config.Section[Keyring]{Key: "keyring"}

// ScopeOf returns the scope config.json's settings name ("" when none).
func ScopeOf(raw json.RawMessage) string { return KeyringOf(raw).Scope }

// SetScopeIn writes scope into cfg's settings.
func SetScopeIn(cfg *config.Config, scope string) error {
	return keyringSection.Edit(cfg, func(k *Keyring) error {
		k.Scope = scope
		return nil
	})
}

// ServerRefs lists the ${secret:NAME} names s uses, sorted and unique.
func ServerRefs(s config.Server) []string { return serverRefs(s, "secret") }

// EnvRefs lists the ${env:NAME} variables s uses (a default's ":-…" cut
// off), sorted. One its environment lacks is read from the keyring's
// secret of that name (package host), under the same grants.
func EnvRefs(s config.Server) []string { return serverRefs(s, "env") }

// serverRefs lists the names of kind s's values refer to, sorted.
func serverRefs(s config.Server, kind string) []string {
	vals := slices.Concat(s.Args, []string{s.URL, s.Command, s.Cwd})
	for _, v := range s.Env {
		vals = append(vals, v)
	}
	for _, v := range s.Headers {
		vals = append(vals, v)
	}
	if s.OAuth != nil {
		vals = append(vals, s.OAuth.ClientSecret)
	}
	var out []string
	for _, v := range vals {
		for _, m := range ref.FindAllStringSubmatch(v, -1) {
			n, _, _ := strings.Cut(m[2], ":-")
			if m[1] == kind && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	slices.Sort(out)
	return out
}
