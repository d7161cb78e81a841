//go:build linux

package process

import "syscall"

// sysProcAttr puts the child in its own process group and has the kernel
// SIGKILL it when the app dies, even by SIGKILL.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
