//go:build !unix

package shell

import (
	"os"
	"syscall"
	"time"
)

func openPTY(rows, cols uint16) (master, tty *os.File, err error) {
	return nil, nil, ErrUnsupported
}

func ptyAttrs() *syscall.SysProcAttr { return nil }

func setSize(master *os.File, rows, cols uint16) error { return ErrUnsupported }

func foreground(master *os.File) (int, error) { return 0, ErrUnsupported }

func signal(pid int, sig syscall.Signal) {}

func interrupt(sid int, master *os.File) {}

var (
	stopSignals []syscall.Signal
	killSignal  syscall.Signal
)

func snapshot(sid int) map[int]bool                                             { return nil }
func killNew(sid int, before map[int]bool, master *os.File, wait time.Duration) {}
func terminate(sid int, master *os.File, grace time.Duration)                   {}
func procName(pid int) string                                                   { return "" }

const canTellExec = false

func commandLine(int) string    { return "" }
func ignoresInterrupt(int) bool { return false }
