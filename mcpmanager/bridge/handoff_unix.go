//go:build unix

package bridge

import (
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
)

// handoffSupported: on Unix a process can pass its open files to another
// over a Unix socket (SCM_RIGHTS).
const handoffSupported = true

// handsOff reports whether f can be handed to the running Switchboard:
// a pipe or a socket (what an app gives the 'serve' it starts), not a
// terminal or a regular file, which stay with the relay.
func handsOff(f *os.File) bool {
	if f == nil {
		return false
	}
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	m := fi.Mode()
	return m&os.ModeNamedPipe != 0 || m&os.ModeSocket != 0
}

// sendFiles passes in and out over c in one message (SCM_RIGHTS); this
// process keeps its own descriptors of them.
func sendFiles(c net.Conn, in, out *os.File) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return errors.New("not a Unix socket")
	}
	var fds []int
	for _, f := range []*os.File{in, out} {
		raw, err := f.SyscallConn() // not Fd, which would change how this process reads f
		if err != nil {
			return err
		}
		if err := raw.Control(func(fd uintptr) { fds = append(fds, int(fd)) }); err != nil {
			return err
		}
	}
	// The descriptors are duplicated into the message now: f may be
	// closed after this returns.
	_, _, err := uc.WriteMsgUnix([]byte{'H'}, syscall.UnixRights(fds...), nil)
	return err
}

// receiveFiles reads the message sendFiles wrote: exactly two files, each
// a pipe or a socket, set non-blocking so that closing them ends a read
// in progress. The received descriptors are close-on-exec (the net
// package asks the kernel for that), so no server this process starts
// holds the app's stdio open.
func receiveFiles(c net.Conn) (in, out *os.File, err error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return nil, nil, errors.New("not a Unix socket")
	}
	b := make([]byte, 1)
	oob := make([]byte, syscall.CmsgSpace(4*4))
	n, oobn, _, _, err := uc.ReadMsgUnix(b, oob)
	if err != nil {
		return nil, nil, err
	}
	var fds []int
	if msgs, perr := syscall.ParseSocketControlMessage(oob[:oobn]); perr == nil {
		for _, m := range msgs {
			if got, err := syscall.ParseUnixRights(&m); err == nil {
				fds = append(fds, got...)
			}
		}
	}
	closeAll := func() {
		for _, fd := range fds {
			_ = syscall.Close(fd)
		}
	}
	if n != 1 || b[0] != 'H' || len(fds) != 2 {
		closeAll()
		return nil, nil, fmt.Errorf("expected the app's stdin and stdout, got %d bytes and %d descriptors", n, len(fds))
	}
	for _, fd := range fds {
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil || (st.Mode&syscall.S_IFMT != syscall.S_IFIFO && st.Mode&syscall.S_IFMT != syscall.S_IFSOCK) {
			closeAll()
			return nil, nil, errors.New("the app's stdio is not a pipe or a socket")
		}
	}
	for _, fd := range fds {
		if err := syscall.SetNonblock(fd, true); err != nil {
			closeAll()
			return nil, nil, err
		}
	}
	return os.NewFile(uintptr(fds[0]), "app stdin"), os.NewFile(uintptr(fds[1]), "app stdout"), nil
}

// takeBack makes f blocking again, as this process opened it: the running
// Switchboard set the open file non-blocking while it served it.
func takeBack(f *os.File) {
	if raw, err := f.SyscallConn(); err == nil {
		_ = raw.Control(func(fd uintptr) { _ = syscall.SetNonblock(int(fd), false) })
	}
}
