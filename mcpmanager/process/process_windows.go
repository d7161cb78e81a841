//go:build windows

package process

import (
	"os/exec"
	"strconv"
	"syscall"
)

func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

func startCmd(cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return lookPathErr(cmd.Path, err)
	}
	return nil
}

// Windows has no SIGTERM: both stages end the whole tree.
func terminateGroup(pid int) { killGroup(pid) }

func killGroup(pid int) {
	_ = exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(pid)).Run()
}
