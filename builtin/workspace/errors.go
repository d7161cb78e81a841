package workspace

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error of the file tools is a *PathError wrapping
// one of them, with a message naming the rule and saying what to do.
var (
	// Confinement: the path may not be used at all.
	ErrEscapes     = errors.New("path escapes the workspace root")
	ErrNULByte     = errors.New("path contains a NUL byte")
	ErrTooLong     = errors.New("path is too long")
	ErrWindowsPath = errors.New("Windows-style path") //nolint:staticcheck // ST1005: "Windows" is a name, capitalised wherever it stands
	ErrNotRegular  = errors.New("not a regular file")
	ErrHardLink    = errors.New("file has more than one hard link")
	ErrSymlink     = errors.New("path is a symbolic link")
	ErrReserved    = errors.New("reserved by Switchboard")

	// The file system said no.
	ErrNotFound = errors.New("no such file or directory")
	ErrExists   = errors.New("already exists")
	ErrIsDir    = errors.New("is a directory")
	ErrNotDir   = errors.New("not a directory")
	ErrNotEmpty = errors.New("directory is not empty")
	ErrReadOnly = errors.New("file is read-only")

	// Content and input.
	ErrBinary    = errors.New("not a text file")
	ErrTooLarge  = errors.New("file is too large")
	ErrNoMatch   = errors.New("old_string was not found")
	ErrAmbiguous = errors.New("old_string is not unique")
	ErrInvalid   = errors.New("invalid input")

	ErrNoPython = errors.New("python3 is not available")
	ErrClosed   = errors.New("the workspace is closed")
)

// PathError is a file tool's failure on one path.
type PathError struct {
	Op   string // the tool: read_file, write_file, ...
	Path string // the path as the caller gave it
	Err  error
}

func (e *PathError) Error() string {
	return fmt.Sprintf("%s %q: %v", e.Op, e.Path, e.Err)
}

func (e *PathError) Unwrap() error { return e.Err }

func pathErr(op, p string, err error) error {
	return &PathError{Op: op, Path: p, Err: err}
}

// rule wraps a sentinel with what happened and what to do.
func rule(sentinel error, format string, args ...any) error {
	return fmt.Errorf("%w: %s", sentinel, fmt.Sprintf(format, args...))
}

func invalid(format string, args ...any) error { return rule(ErrInvalid, format, args...) }
