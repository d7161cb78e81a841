package clients

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// BackupSuffix is added to an app's file name for the copy kept before
// Switchboard changes it ("claude_desktop_config.json.switchboard.bak").
const BackupSuffix = ".switchboard.bak"

// WriteFile replaces path with data atomically (a temporary file in the
// same folder, synced, renamed over it), keeping the file's mode. A path
// that is a symbolic link (a dotfiles folder, stow, home-manager) keeps
// being one: the file it points to is the one replaced. A read-only file
// is not written (ErrReadOnly). When backup is not nil it is written
// first to path+BackupSuffix, private to the user: the file as it was,
// with any secret that moved to the keyring already taken out by the
// caller.
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
		if err := atomicWrite(path+BackupSuffix, backup, 0o600); err != nil {
			return &FileError{Op: "back up", Path: path, Err: err}
		}
	}
	if err := atomicWrite(target, data, mode); err != nil {
		return &FileError{Op: "write", Path: path, Err: err}
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
