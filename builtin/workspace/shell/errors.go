package shell

import (
	"errors"
	"fmt"
)

// Sentinel errors. Errors from this package wrap one of them, with a
// message that says what to do.
var (
	ErrClosed          = errors.New("the shell session is closed")
	ErrEmptyCommand    = errors.New("the command is empty")
	ErrBadName         = errors.New("invalid session name")
	ErrTooManySessions = errors.New("too many shell sessions")
	ErrNoShell         = errors.New("no shell found")
	ErrBusy            = errors.New("the shell session is busy")
	ErrUnsupported     = errors.New("shell sessions are not supported on this system")
)

// StartError is a shell that could not be started.
type StartError struct {
	Op   string // what failed: "find shell", "prepare", "start"
	Path string // the shell (or, for "prepare", its private directory)
	Err  error
}

func (e *StartError) Error() string {
	switch e.Op {
	case "find shell":
		return e.Err.Error() // it names the PATH searched
	case "prepare":
		return fmt.Sprintf("prepare the shell's files in %s: %v", e.Path, e.Err)
	}
	return fmt.Sprintf("start the shell %s: %v", e.Path, e.Err)
}

func (e *StartError) Unwrap() error { return e.Err }

// BusyError is a session whose terminal is running a program someone
// started there (a pager, an editor, a server in the foreground), so a
// command typed now would go to that program instead of the shell.
type BusyError struct {
	Session string
	PID     int
	Program string
}

func (e *BusyError) Error() string {
	prog := e.Program
	if prog == "" {
		prog = "a program"
	}
	return fmt.Sprintf("shell session %q is running %s (pid %d) in the foreground of its terminal; wait for it to finish, stop it in the terminal, or use another session name", e.Session, prog, e.PID)
}

func (e *BusyError) Unwrap() error { return ErrBusy }
