package clients

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// BackupSuffix is added to an app's file name for the copy kept before
// Switchboard changes it ("claude_desktop_config.json.switchboard.bak"):
// the file as it was before the latest change.
const BackupSuffix = ".switchboard.bak"

// OriginalSuffix is added to an app's file name for the copy kept before
// Switchboard first changed it: written once, never replaced, so the
// file as the user had it can be had back after any number of changes.
const OriginalSuffix = ".switchboard.orig"

// WriteFile replaces path with data atomically (a temporary file in the
// same folder, synced, renamed over it), keeping the file's mode. A path
// that is a symbolic link (a dotfiles folder, stow, home-manager) keeps
// being one: the file it points to is the one replaced. A read-only file
// is not written (ErrReadOnly). When backup is not nil it is written
// first to path+BackupSuffix, and to path+OriginalSuffix when there is
// none yet, both private to the user (0600): the file as it was, with any
// secret that moved to the keyring already taken out by the caller.
func WriteFile(path string, data, backup []byte) error {
	target := path
	mode := fs.FileMode(0o600)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
		if mode&0o200 == 0 {
			return &FileError{Op: "write", Path: path, Err: fmt.Errorf("%w: make it writable (chmod u+w) to let Switchboard change it, or add Switchboard to it yourself", ErrReadOnly)}
		}
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return &FileError{Op: "read", Path: path, Err: err}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return &FileError{Op: "read", Path: path, Err: err}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return &FileError{Op: "write", Path: path, Err: err}
	}
	if backup != nil {
		if err := keepOriginal(path+OriginalSuffix, backup); err != nil {
			return &FileError{Op: "back up", Path: path, Err: err}
		}
		if err := atomicWrite(path+BackupSuffix, backup, 0o600); err != nil {
			return &FileError{Op: "back up", Path: path, Err: err}
		}
	}
	if err := atomicWrite(target, data, mode); err != nil {
		return &FileError{Op: "write", Path: path, Err: err}
	}
	return nil
}

// keepOriginal writes data to path unless a file is there already: a
// complete temporary file linked into place, so a crash leaves either no
// copy or the whole of it, and a copy made meanwhile is never replaced.
func keepOriginal(path string, data []byte) error {
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		return err // kept already (nil), or it cannot be told
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(0o600)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

// ScrubOriginal rewrites path's original copy (OriginalSuffix), when
// there is one, with scrub applied: the secrets that moved to the keyring
// after the copy was kept leave it too, each replaced by its reference.
func ScrubOriginal(path string, scrub func([]byte) []byte) error {
	orig := path + OriginalSuffix
	data, err := os.ReadFile(orig)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &FileError{Op: "back up", Path: path, Err: err}
	}
	if out := scrub(data); !bytes.Equal(out, data) {
		if err := atomicWrite(orig, out, 0o600); err != nil {
			return &FileError{Op: "back up", Path: path, Err: err}
		}
	}
	return nil
}

func atomicWrite(path string, data []byte, mode fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // gone after the rename; else cleaned up
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// ReadFile reads an app's file: nil with no error when it does not exist.
func ReadFile(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &FileError{Op: "read", Path: path, Err: err}
	}
	return b, nil
}
