//go:build !windows

package bridge

import (
	"context"
	"fmt"
	"net"
	"os"
	"syscall"
)

func dial(ctx context.Context, socket string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, "unix", socket)
}

func listen(socket string) (net.Listener, error) {
	_ = os.Remove(socket) // stale: Listen checked nobody answers there
	l, err := net.Listen("unix", socket)
	if err != nil {
		return nil, err
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false) // cleanup removes it, only if still ours
	if err := os.Chmod(socket, 0o600); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

func cleanup(socket string) { _ = os.Remove(socket) }

// privateDir makes dir (0700) and refuses one that another user owns, that
// is a symbolic link, or that others can enter and this user cannot fix.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return &Error{Op: "make the socket directory", Path: dir, Err: err}
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return &Error{Op: "check the socket directory", Path: dir, Err: err}
	}
	if !fi.IsDir() {
		return &Error{Op: "check the socket directory", Path: dir, Err: fmt.Errorf("not a directory (a link?); remove it and start Switchboard again")}
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return &Error{Op: "check the socket directory", Path: dir, Err: fmt.Errorf("owned by user %d, not by you (%d); remove it and start Switchboard again", st.Uid, os.Getuid())}
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return &Error{Op: "make the socket directory private", Path: dir, Err: err}
		}
	}
	return nil
}
