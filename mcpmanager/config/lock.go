package config

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/filelock"
)

// Lock timing. Variables so tests can shorten them.
var (
	// LockTimeout bounds how long Edit and Save wait while another process
	// holds config.json's lock.
	LockTimeout = 30 * time.Second
	// LockPoll is the longest pause between two tries to take the lock; the
	// first retries come sooner, so a short edit by another process costs
	// little.
	LockPoll = 20 * time.Millisecond
)

// LockSuffix names the file next to config.json whose OS lock serialises
// every read-modify-write of it. The file is never removed: removing a lock
// file lets two processes lock two different files.
const LockSuffix = ".lock"

// LockError says config.json could not be locked for an edit.
type LockError struct {
	Op   string // "lock"
	Path string // the lock file
	Err  error  // ErrLocked, a context error, or the OS error
}

func (e *LockError) Error() string {
	if e.Err == ErrLocked {
		return fmt.Sprintf("%s %s: %v for %s; try again, or quit the other Switchboard (window or command) that is changing it",
			e.Op, e.Path, e.Err, LockTimeout)
	}
	return fmt.Sprintf("%s %s: %v", e.Op, e.Path, e.Err)
}

func (e *LockError) Unwrap() error { return e.Err }

// lockConfig takes the exclusive lock of the config at path, waiting up to
// LockTimeout, and returns the function that releases it.
func lockConfig(ctx context.Context, path string) (unlock func(), err error) {
	lockPath := path + LockSuffix
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, &LockError{Op: "lock", Path: lockPath, Err: err}
	}
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, &LockError{Op: "lock", Path: lockPath, Err: err}
	}
	deadline := time.Now().Add(LockTimeout)
	pause := time.Millisecond
	for {
		ok, err := filelock.TryLock(f)
		if err != nil {
			f.Close()
			return nil, &LockError{Op: "lock", Path: lockPath, Err: err}
		}
		if ok {
			return func() {
				filelock.Unlock(f)
				f.Close()
			}, nil
		}
		if !time.Now().Before(deadline) {
			f.Close()
			return nil, &LockError{Op: "lock", Path: lockPath, Err: ErrLocked}
		}
		t := time.NewTimer(min(pause, time.Until(deadline)))
		select {
		case <-ctx.Done():
			t.Stop()
			f.Close()
			return nil, &LockError{Op: "lock", Path: lockPath, Err: ctx.Err()}
		case <-t.C:
		}
		pause = min(2*pause, LockPoll)
	}
}

// tryLockConfig takes the lock only if it is free at once; ok is false when
// another process holds it.
func tryLockConfig(path string) (unlock func(), ok bool) {
	f, err := os.OpenFile(path+LockSuffix, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false
	}
	if ok, err := filelock.TryLock(f); !ok || err != nil {
		f.Close()
		return nil, false
	}
	return func() {
		filelock.Unlock(f)
		f.Close()
	}, true
}
