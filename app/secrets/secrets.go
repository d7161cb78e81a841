package secrets

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/zalando/go-keyring"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// Service is the keyring service name every secret is stored under.
const Service = "switchboard"

// Sentinel errors.
var (
	// ErrUnavailable: no Secret Service / keychain could be reached.
	ErrUnavailable = errors.New("no keyring is reachable: install and unlock gnome-keyring (or turn on KeePassXC's Secret Service integration) and restart Switchboard; ${env:NAME} values keep working meanwhile")
	// ErrNotFound: the keyring has no secret of that name.
	ErrNotFound = errors.New("secret not found in the keyring")
	// ErrBadName: a secret name must be 1-128 characters of letters, digits, _ . -
	ErrBadName = errors.New("a secret name may use letters, digits, _ . and - (1 to 128 characters)")
	// ErrUnset: an ${env:NAME} variable is not set.
	ErrUnset = errors.New("environment variable is not set")
)

var validName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)

// Store reads and writes secrets in the OS keyring. Safe for concurrent use.
type Store struct {
	service string
	scope   atomic.Pointer[string]
}

// NewStore returns the keyring store of service "switchboard", unscoped
// until SetScope (the names as Switchboard kept them before scopes).
func NewStore() *Store { return &Store{service: Service} }

// SetScope makes every name this store reads and writes one of the data
// directory scope's own: the keyring entry is "<scope>/<name>", so two
// data directories on one account never overwrite each other's secrets.
func (s *Store) SetScope(scope string) { s.scope.Store(&scope) }

// Scope is the scope SetScope gave ("" when unscoped).
func (s *Store) Scope() string {
	if p := s.scope.Load(); p != nil {
		return *p
	}
	return ""
}

// account is the keyring entry of name in this store's scope.
func (s *Store) account(name string) string {
	if sc := s.Scope(); sc != "" {
		return sc + "/" + name
	}
	return name
}

// classify maps keyring errors to ours.
func classify(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, keyring.ErrNotFound):
		return ErrNotFound
	default:
		return fmt.Errorf("%w (%v)", ErrUnavailable, err)
	}
}

// BusCheck says why no session bus is reachable (nil: one is). It runs
// before every keyring call, so a machine without a bus never gets one
// autolaunched; tests on go-keyring's in-memory keyring (no bus needed) set
// it to nil, through secretstest.UseMockKeyring.
var BusCheck = sessionBus

// reachable is checked before every keyring call: on a machine without a
// session bus the D-Bus library would launch one (see sessionBus).
func reachable() error {
	if BusCheck == nil {
		return nil
	}
	if err := BusCheck(); err != nil {
		return fmt.Errorf("%w (%v)", ErrUnavailable, err)
	}
	return nil
}

// Available reports whether the keyring can be used, as one sentence on what to do when not.
func (s *Store) Available() error {
	if err := reachable(); err != nil {
		return err
	}
	_, err := kget(s.service, "switchboard-probe")
	if err = classify(err); errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

// Set stores value under name.
func (s *Store) Set(name, value string) error {
	if !validName.MatchString(name) {
		return fmt.Errorf("secret %q: %w", name, ErrBadName)
	}
	if value == "" {
		return fmt.Errorf("secret %q: the value is empty", name)
	}
	if err := reachable(); err != nil {
		return fmt.Errorf("store secret %q: %w", name, err)
	}
	if err := classify(kset(s.service, s.account(name), value)); err != nil {
		return fmt.Errorf("store secret %q: %w", name, err)
	}
	return nil
}

// Get returns the value stored under name.
func (s *Store) Get(name string) (string, error) {
	if err := reachable(); err != nil {
		return "", fmt.Errorf("secret %q: %w", name, err)
	}
	v, err := kget(s.service, s.account(name))
	if err := classify(err); err != nil {
		return "", fmt.Errorf("secret %q: %w", name, err)
	}
	return v, nil
}

// Delete removes name; deleting a missing secret is not an error.
func (s *Store) Delete(name string) error {
	if err := reachable(); err != nil {
		return fmt.Errorf("delete secret %q: %w", name, err)
	}
	err := classify(kdelete(s.service, s.account(name)))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("delete secret %q: %w", name, err)
	}
	return nil
}

// Lookup resolves one reference for Expand: kind is "secret" or "env".
func (s *Store) Lookup(kind, name string) (string, error) {
	switch kind {
	case "secret":
		return s.Get(name)
	case "env":
		// ${env:NAME:-default}, Claude Code's ${NAME:-default}: the
		// default when NAME is unset or empty, as in a shell.
		key, def, hasDefault := strings.Cut(name, ":-")
		v, ok := os.LookupEnv(key)
		if hasDefault && v == "" {
			return def, nil
		}
		if !ok {
			return "", fmt.Errorf("${env:%s}: %w", name, ErrUnset)
		}
		return v, nil
	}
	return "", fmt.Errorf("unknown reference kind %q", kind)
}

// ref is what Expand resolves; config checks documents from outside
// (registries, bundles) for the same pattern, so it is defined there.
var ref = config.ReferencePattern

// Refs lists the ${secret:NAME} names used in s.
func Refs(s string) []string {
	var out []string
	for _, m := range ref.FindAllStringSubmatch(s, -1) {
		if m[1] == "secret" {
			out = append(out, m[2])
		}
	}
	return out
}

// Expand replaces every ${secret:NAME} and ${env:NAME} in s using lookup.
// The first failure is returned, naming the reference.
func Expand(s string, lookup func(kind, name string) (string, error)) (string, error) {
	var firstErr error
	out := ref.ReplaceAllStringFunc(s, func(m string) string {
		sub := ref.FindStringSubmatch(m)
		v, err := lookup(sub[1], sub[2])
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			return m
		}
		return v
	})
	return out, firstErr
}

// Mask shows a secret as ••••last4 (or only dots when it is short).
func Mask(v string) string {
	r := []rune(v)
	if len(r) < 12 {
		return "••••"
	}
	return "••••" + string(r[len(r)-4:])
}

// Redactor masks every known secret value in text. Safe for concurrent use.
type Redactor struct {
	mu     sync.RWMutex
	values []string // longest first, so a value containing another is masked whole
}

// NewRedactor returns an empty redactor.
func NewRedactor() *Redactor { return &Redactor{} }

// minRedact is the shortest value masked: shorter ones would mask ordinary words.
const minRedact = 6

// Add registers values to mask.
func (r *Redactor) Add(values ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, v := range values {
		if len(v) < minRedact {
			continue
		}
		dup := false
		for _, have := range r.values {
			dup = dup || have == v
		}
		if !dup {
			r.values = append(r.values, v)
		}
	}
	sort.Slice(r.values, func(i, j int) bool { return len(r.values[i]) > len(r.values[j]) })
}

// Redact returns s with every registered value masked.
func (r *Redactor) Redact(s string) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, v := range r.values {
		if strings.Contains(s, v) {
			s = strings.ReplaceAll(s, v, Mask(v))
		}
	}
	return s
}

// Keeper keeps the secret values of one server: each goes to the keyring
// as one of the server's own entries (ServerName of its ID and the
// parameter or field) and the config gets the ${secret:...} reference
// instead (library.Options.Secret, the server form's secret fields).
type Keeper struct {
	Store *Store
	// ID is the server's stable id; the first Keep makes one when "" (the
	// caller then writes it into the entry).
	ID string
	// Names are the secrets kept so far, for Index.
	Names []string
	// Values are the values kept so far, for the redactor.
	Values []string
}

// Keep stores value and returns the reference to write in its place.
func (k *Keeper) Keep(param, value string) (string, error) {
	if k.ID == "" {
		k.ID = NewID()
	}
	name := ServerName(k.ID, param)
	if err := k.Store.Set(name, value); err != nil {
		return "", fmt.Errorf("the value could not be kept in the keyring: %w", err)
	}
	k.Names = append(k.Names, name)
	k.Values = append(k.Values, value)
	return "${secret:" + name + "}", nil
}

// keyringMu serialises keyring calls: each is a round trip to one daemon
// anyway, and go-keyring's in-memory keyring (tests) is not safe for
// concurrent use.
var keyringMu sync.Mutex

func kget(service, name string) (string, error) {
	keyringMu.Lock()
	defer keyringMu.Unlock()
	return keyring.Get(service, name)
}

func kset(service, name, value string) error {
	keyringMu.Lock()
	defer keyringMu.Unlock()
	return keyring.Set(service, name, value)
}

func kdelete(service, name string) error {
	keyringMu.Lock()
	defer keyringMu.Unlock()
	return keyring.Delete(service, name)
}
