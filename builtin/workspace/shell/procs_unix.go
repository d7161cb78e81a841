//go:build unix && !linux

package shell

import (
	"os"
	"syscall"
	"time"
)

// Without /proc only process groups are known: the shell's and the
// terminal's foreground job. Background jobs a timed-out command started
// are left running; Close still hangs them up through the shell.

var pollInterval = 5 * time.Millisecond

func snapshot(sid int) map[int]bool { return nil }

func killNew(sid int, _ map[int]bool, master *os.File, wait time.Duration) {
	if fg, err := foreground(master); err == nil && fg > 0 && fg != sid {
		signal(-fg, killSignal)
	}
}

func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

func terminate(sid int, master *os.File, grace time.Duration) {
	groups := []int{sid}
	if fg, err := foreground(master); err == nil && fg > 0 && fg != sid {
		groups = append(groups, fg)
	}
	for _, sigs := range [][]syscall.Signal{stopSignals, {killSignal}} {
		for _, g := range groups {
			for _, sig := range sigs {
				signal(-g, sig)
			}
		}
		deadline := time.Now().Add(grace)
		for alive(sid) && time.Now().Before(deadline) {
			time.Sleep(pollInterval)
		}
		if !alive(sid) {
			return
		}
	}
}

func procName(pid int) string { return "" }

// Without /proc a shell replaced by exec, or ignoring SIGINT, is not told
// apart: such a command times out and the shell is replaced if it does
// not answer.
const canTellExec = false

func commandLine(int) string { return "" }

func ignoresInterrupt(int) bool { return false }
