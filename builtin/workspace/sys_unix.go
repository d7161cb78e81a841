//go:build unix

package workspace

import (
	"io/fs"
	"os/exec"
	"syscall"
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
