//go:build unix

package shell

import (
	"fmt"
	"os"
	"syscall"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal whose master is non-blocking, so it is
// served by Go's poller: Close then interrupts a Read blocked on it.
// (creack/pty leaves the master in blocking mode, where a Read blocked
// until the shell writes again would outlive Close.)
func openPTY(rows, cols uint16) (master, tty *os.File, err error) {
	m, t, err := pty.Open()
	if err != nil {
		return nil, nil, err
	}
	fd, err := unix.FcntlInt(m.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	m.Close()
	if err != nil {
		t.Close()
		return nil, nil, fmt.Errorf("duplicate the pty master: %w", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		t.Close()
		return nil, nil, fmt.Errorf("make the pty master non-blocking: %w", err)
	}
	master = os.NewFile(uintptr(fd), "/dev/ptmx")
	if err := setSize(master, rows, cols); err != nil {
		master.Close()
		t.Close()
		return nil, nil, err
	}
	return master, t, nil
}

// ptyAttrs makes the shell a session leader with the pty as its
// controlling terminal, so job control and ^C work as in a terminal.
func ptyAttrs() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
}

// control runs fn on master's descriptor without switching it to blocking
// mode (which (*os.File).Fd would).
func control(master *os.File, fn func(fd int) error) error {
	rc, err := master.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = fn(int(fd)) }); err != nil {
		return err
	}
	return ferr
}

func setSize(master *os.File, rows, cols uint16) error {
	return control(master, func(fd int) error {
		return unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, &unix.Winsize{Row: rows, Col: cols})
	})
}

// foreground returns the terminal's foreground process group: the shell's
// own while it waits at its prompt or runs a builtin, a job's while one runs.
func foreground(master *os.File) (int, error) {
	var pgrp int
	err := control(master, func(fd int) error {
		var err error
		pgrp, err = unix.IoctlGetInt(fd, unix.TIOCGPGRP)
		return err
	})
	return pgrp, err
}

func signal(pid int, sig syscall.Signal) { _ = syscall.Kill(pid, sig) }

// interrupt sends SIGINT to the shell sid and to the terminal's foreground
// job: what ^C does, but also when the job put the terminal in raw mode
// (where ^C is just a key) and, the shell being signalled itself, whether
// or not the job dies of it.
func interrupt(sid int, master *os.File) {
	signal(sid, syscall.SIGINT)
	if fg, err := foreground(master); err == nil && fg > 0 && fg != sid {
		signal(-fg, syscall.SIGINT)
	}
}

// Signals of the staged stop: hang up (the shell passes it to its jobs),
// terminate (what ignores a hangup), continue (so stopped jobs receive
// them), then kill.
var (
	stopSignals = []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM, syscall.SIGCONT}
	killSignal  = syscall.SIGKILL
)
