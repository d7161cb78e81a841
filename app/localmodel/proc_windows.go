//go:build windows

package localmodel

import "os/exec"

// ownGroup does nothing on Windows: the server starts no children.
func ownGroup(*exec.Cmd) {}

// stop ends the process; Windows has no SIGTERM for a console-less child.
func stop(cmd *exec.Cmd, exited <-chan error) {
	_ = cmd.Process.Kill()
	<-exited
}
