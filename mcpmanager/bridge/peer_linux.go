package bridge

import (
	"fmt"
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// peerCheck refuses a connection from another user's process (SO_PEERCRED),
// on top of the socket directory's 0700 and the token.
func peerCheck(c net.Conn) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return nil
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return err
	}
	var cred *unix.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return err
	}
	if cerr != nil {
		return cerr
	}
	if int(cred.Uid) != os.Getuid() {
		return fmt.Errorf("%w: a process of user %d (pid %d) connected; only your own may", ErrRefused, cred.Uid, cred.Pid)
	}
	return nil
}
