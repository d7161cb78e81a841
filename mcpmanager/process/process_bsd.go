//go:build unix && !linux

package process

import "syscall"

// sysProcAttr puts the child in its own process group (no Pdeathsig here).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
