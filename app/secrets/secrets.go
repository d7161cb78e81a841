package secrets

import (
	"errors"
	"fmt"
	"os"
	"regexp"
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
	// ErrLocked: the keyring is there but locked, and unlocking it was
	// declined or could not be asked for (no prompt on a headless
	// session). errors.Is(err, ErrUnavailable) holds for it too: nothing
	// can be read or written meanwhile.
	ErrLocked = errors.New("the keyring is locked: unlock your keyring (the login keyring) and try again")
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
// data directories on one account never overwrite each other's secrets
// (a config.json copied to another one gets a scope of its own when it is
// opened there: see Keyring).
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
	case locked(err):
		return &lockedError{cause: err}
	default:
		return fmt.Errorf("%w (%v)", ErrUnavailable, err)
	}
}

// lockedMarks are how a locked keyring answers: go-keyring's Secret
// Service client when the unlock prompt was dismissed or could not be
// shown, the Secret Service's own IsLocked error, and macOS's keychain
// when it may not ask.
var lockedMarks = []string{"failed to unlock", "org.freedesktop.Secret.Error.IsLocked", "is locked", "interaction is not allowed"}

// locked reports whether err says the keyring is locked (it is reachable:
// installing anything or setting the secret again would not help).
func locked(err error) bool {
	msg := err.Error()
	for _, m := range lockedMarks {
		if strings.Contains(strings.ToLower(msg), strings.ToLower(m)) {
			return true
		}
	}
	return false
}

// lockedError is ErrLocked with the keyring's own words; it is
// ErrUnavailable too, for the callers that only ask whether the keyring
// can be used.
type lockedError struct{ cause error }

func (e *lockedError) Error() string { return fmt.Sprintf("%v (%v)", ErrLocked, e.cause) }
func (e *lockedError) Unwrap() error { return ErrLocked }
func (e *lockedError) Is(target error) bool {
	return target == ErrUnavailable //nolint:errorlint // a sentinel compared as errors.Is does
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
