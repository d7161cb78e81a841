//go:build !windows

package localmodel

import (
	"os/exec"
	"syscall"
	"time"
)

// ownGroup starts cmd in a process group of its own, so stop reaches any
// child it starts.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// stop ends the process: SIGTERM to its group, then SIGKILL after
// StopGrace.
func stop(cmd *exec.Cmd, exited <-chan error) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(StopGrace):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	}
}
