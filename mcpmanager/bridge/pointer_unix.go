//go:build !windows

package bridge

import (
	"fmt"
	"os"
	"syscall"
)

// private refuses path (a directory when dir) unless it is this user's
// own, no symbolic link, and no one else may write to it (a file) or
// enter it (a directory): see readPointer. Unlike privateDir it changes
// nothing: it checks what another process made.
func private(path string, dir bool) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return &Error{Op: "check", Path: path, Err: err}
	}
	switch {
	case dir && !fi.IsDir(), !dir && !fi.Mode().IsRegular():
		return &Error{Op: "check", Path: path, Err: fmt.Errorf("not a plain %s (a link?); delete it and start Switchboard again", map[bool]string{true: "directory", false: "file"}[dir])}
	case dir && fi.Mode().Perm()&0o077 != 0:
		return &Error{Op: "check", Path: path, Err: fmt.Errorf("others may enter it (mode %o); delete it and start Switchboard again", fi.Mode().Perm())}
	case !dir && fi.Mode().Perm()&0o022 != 0:
		return &Error{Op: "check", Path: path, Err: fmt.Errorf("others may write to it (mode %o); delete it and start Switchboard again", fi.Mode().Perm())}
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return &Error{Op: "check", Path: path, Err: fmt.Errorf("owned by user %d, not by you (%d); delete it and start Switchboard again", st.Uid, os.Getuid())}
	}
	return nil
}
