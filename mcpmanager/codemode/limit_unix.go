//go:build unix

package codemode

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// prepare sets up the child before it starts (nothing on Unix: the child
// limits itself, before it reads its script).
func prepare(*exec.Cmd) {}

// confine limits the started child (nothing on Unix, see limitSelf).
func confine(*exec.Cmd, Limits) (release func(), err error) { return func() {}, nil }

// limitSelf makes the operating system refuse this process more than mb
// megabytes beyond what it holds at start-up: its data (heap) on Linux,
// where the Go runtime's reserved but unused address space would make an
// address-space limit misfire, its address space elsewhere. Counting from
// start-up keeps the script's budget the same whatever the binary maps
// before the script runs (a build with the race detector starts with
// about 300 MB of data, a plain one with about 40).
func limitSelf(mb int) error {
	resource := unix.RLIMIT_AS
	if runtime.GOOS == "linux" {
		resource = unix.RLIMIT_DATA
	}
	n := uint64(mb*raceScale)<<20 + startSize(runtime.GOOS == "linux")
	return unix.Setrlimit(resource, &unix.Rlimit{Cur: n, Max: n})
}

// startSize is this process's data size (VmData) or, when data is false,
// its address space (VmSize), from /proc/self/status; 0 where there is no
// /proc, so the limit is then the script's budget alone.
func startSize(data bool) uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	key := "VmSize:"
	if data {
		key = "VmData:"
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, key); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
