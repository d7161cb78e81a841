//go:build unix

package workspace

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// openFlags: a FIFO opened for reading would block until a writer comes,
// and a terminal could become our controlling terminal.
const openFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY

func linkCount(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// inGroup runs cmd in a process group of its own, so a timeout can kill
// everything it started.
func inGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// killGroup kills what is left of the process group pgid, once its leader
// exited, and reports whether anything was. The group's id cannot be
// reused for another group while a member is alive.
func killGroup(pgid int) bool {
	return syscall.Kill(-pgid, syscall.SIGKILL) == nil
}

// openIn opens the file name (one path element, as read from dir) of the
// directory dir for reading, if it is a regular file with one link, and
// returns it with its size. dir was opened through the root and name is
// opened relative to it without following a symbolic link, so nothing
// outside the workspace is reached, even when a link is swapped in.
//
// It is search_files' way to open many files: a raw descriptor, not an
// *os.File, which on Linux would try (and fail) to register every regular
// file with the poller, and no walk from the root per file.
func openIn(dir *os.File, name string) (io.ReadCloser, int64, error) {
	rc, err := dir.SyscallConn()
	if err != nil {
		return nil, 0, err
	}
	fd, oerr := -1, error(nil)
	err = rc.Control(func(dfd uintptr) {
		fd, oerr = unix.Openat(int(dfd), name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	})
	if err = errors.Join(err, oerr); err != nil {
		return nil, 0, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, 0, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG || uint64(st.Nlink) > 1 {
		unix.Close(fd)
		return nil, 0, ErrNotRegular // a FIFO, device or hard link swapped in: skipped like the others
	}
	return rawFile(fd), st.Size, nil
}

// rawFile is an open descriptor read with plain system calls.
type rawFile int

func (f rawFile) Read(p []byte) (int, error) {
	for {
		n, err := unix.Read(int(f), p)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f rawFile) Close() error { return unix.Close(int(f)) }
