package contentstore

import (
	"errors"
	"fmt"
)

// Sentinel errors. Errors returned by Stores wrap one of them (or an
// extract error for files), with a message that says what to do.
var (
	ErrUnknownStore   = errors.New("no such store")
	ErrStoreExists    = errors.New("a store with that name already exists")
	ErrUnknownContent = errors.New("no such content")
	ErrEmptyQuery     = errors.New("the query is empty")
	ErrStoreLocked    = errors.New("the store is in use by another process")
	// ErrStoreDamaged is a store whose files cannot be read (store.json, or
	// its index). It is listed with the reason, searches of every store
	// report it as unavailable, and DeleteStore removes it; nothing deletes
	// it by itself.
	ErrStoreDamaged = errors.New("the store is damaged")
	ErrInvalid      = errors.New("invalid input")
	ErrClosed       = errors.New("the content stores are closed")
	ErrNothingAdded = errors.New("nothing to add")
)

// OpenError is a store whose index could not be opened.
type OpenError struct {
	Store string
	Path  string
	Err   error
	// Holder names the process that has the store (ErrStoreLocked), when
	// it said so: "process 4242 (switchboard daemon, since 14:02:05)".
	Holder string
}

func (e *OpenError) Error() string {
	if errors.Is(e.Err, ErrStoreLocked) {
		who := "another process (another Switchboard, or 'switchboard builtin content-store')"
		if e.Holder != "" {
			who = e.Holder
		}
		return fmt.Sprintf("store %q is in use by %s; a Switchboard lets go of a store a second after its last use, "+
			"so try again in a moment (if it is adding files, once that is done; or close that process)", e.Store, who)
	}
	if errors.Is(e.Err, ErrStoreDamaged) {
		return fmt.Sprintf("store %q cannot be opened: its index at %s is damaged (%v); its documents cannot be read back, "+
			"so delete the store with deleteStore and add them again (or restore the folder from a backup)", e.Store, e.Path, e.Err)
	}
	return fmt.Sprintf("store %q: open the index at %s: %v", e.Store, e.Path, e.Err)
}

func (e *OpenError) Unwrap() error { return e.Err }

// damage is what is wrong with a store's files; errors.Is(d,
// ErrStoreDamaged) holds, and its message is the reason alone.
type damage struct{ reason string }

func (d *damage) Error() string { return d.reason }

func (d *damage) Is(target error) bool { return target == ErrStoreDamaged }

func damaged(format string, args ...any) error { return &damage{fmt.Sprintf(format, args...)} }

func unknownStore(id string) error {
	return fmt.Errorf("%w %q; call listStores to see the store ids", ErrUnknownStore, id)
}

func unknownContent(id string) error {
	return fmt.Errorf("%w %q; use a contentId returned by addContent or search", ErrUnknownContent, id)
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}
