//go:build unix

package process

import (
	"os/exec"
	"syscall"
)

func startCmd(cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return lookPathErr(cmd.Path, err)
	}
	return nil
}

func terminateGroup(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGTERM) }
func killGroup(pgid int)      { _ = syscall.Kill(-pgid, syscall.SIGKILL) }
