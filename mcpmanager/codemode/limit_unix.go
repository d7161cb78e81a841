//go:build unix

package codemode

import (
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"
)

// prepare sets up the child before it starts (nothing on Unix: the child
// limits itself, before it reads its script).
func prepare(*exec.Cmd) {}

// confine limits the started child (nothing on Unix, see limitSelf).
func confine(*exec.Cmd, Limits) (release func(), err error) { return func() {}, nil }

// limitSelf makes the operating system refuse this process more than mb
// megabytes: its data (heap) on Linux, where the Go runtime's reserved
// but unused address space would make an address-space limit misfire, its
// address space elsewhere.
func limitSelf(mb int) error {
	resource := unix.RLIMIT_AS
	if runtime.GOOS == "linux" {
		resource = unix.RLIMIT_DATA
	}
	n := uint64(mb) << 20
	return unix.Setrlimit(resource, &unix.Rlimit{Cur: n, Max: n})
}
