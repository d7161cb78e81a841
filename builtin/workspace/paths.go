package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
)

// Path limits. A path longer than MaxPathBytes, or with an element longer
// than MaxNameBytes, is refused before it reaches the file system.
var (
	MaxPathBytes = 4096
	MaxNameBytes = 255
)

// resolve checks a path given to a tool against the rules that need no
// file system and returns it relative to the root ("." for the root).
//
// Rules, in order: no NUL byte; not too long; no backslash and no drive
// letter (Windows-style paths are refused rather than guessed at); an
// absolute path is accepted only if it lies lexically inside the root (as
// given, or with symlinks resolved), because the shell's pwd shows such
// paths, and is refused otherwise; after cleaning, a relative path may not
// start with "..". Symbolic links are left to os.Root.
func (w *Workspace) resolve(p string) (string, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return "", rule(ErrNULByte, "remove it; no file name can contain one")
	}
	if len(p) > MaxPathBytes {
		return "", rule(ErrTooLong, "%d bytes, at most %d are allowed", len(p), MaxPathBytes)
	}
	if strings.Contains(p, `\`) || hasDriveLetter(p) {
		return "", rule(ErrWindowsPath, "use forward slashes and a path relative to the workspace root, e.g. src/main.go")
	}
	var rel string
	if path.IsAbs(p) {
		c := path.Clean(p)
		for _, base := range w.bases {
			if c+"/" == base {
				rel = "."
				break
			}
			if strings.HasPrefix(c, base) {
				rel = c[len(base):]
				break
			}
		}
		if rel == "" {
			return "", rule(ErrEscapes, "it is an absolute path outside the workspace (whose root is %s); use a path relative to the root", w.dir)
		}
	} else {
		rel = path.Clean(p)
		if rel == ".." || strings.HasPrefix(rel, "../") {
			return "", rule(ErrEscapes, `".." leads out of the root; use a path inside the workspace, relative to its root`)
		}
	}
	for seg := range strings.SplitSeq(rel, "/") {
		if len(seg) > MaxNameBytes {
			return "", rule(ErrTooLong, "an element of it is %d bytes long, at most %d are allowed", len(seg), MaxNameBytes)
		}
	}
	return rel, nil
}

func hasDriveLetter(p string) bool {
	return len(p) >= 2 && p[1] == ':' && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z')
}

// errPathEscapes is the text of os.Root's (unexported) error for a path
// that leaves the root, through ".." or a symbolic link.
const errPathEscapes = "path escapes from parent"

// fsError turns an error of an os.Root operation into one of ours.
func fsError(err error) error {
	inner := err
	var pe *os.PathError
	var le *os.LinkError
	if errors.As(err, &pe) {
		inner = pe.Err
	} else if errors.As(err, &le) {
		inner = le.Err
	}
	switch {
	case inner.Error() == errPathEscapes:
		return rule(ErrEscapes, "a symbolic link in it points outside the workspace (or is absolute); the file tools only follow links that stay inside")
	case errors.Is(inner, fs.ErrNotExist):
		return rule(ErrNotFound, "check the path with list_directory or search_files")
	case errors.Is(inner, syscall.ENOTDIR):
		return rule(ErrNotDir, "a part of the path is a file, not a directory")
	case errors.Is(inner, syscall.EISDIR):
		return rule(ErrIsDir, "use list_directory or tree for directories")
	case errors.Is(inner, syscall.ENOTEMPTY), errors.Is(inner, syscall.EEXIST):
		return rule(ErrNotEmpty, "delete what it holds first")
	case errors.Is(inner, syscall.ENAMETOOLONG):
		return rule(ErrTooLong, "the file system refused the name")
	case errors.Is(inner, syscall.ELOOP):
		return rule(ErrSymlink, "too many levels of symbolic links")
	case errors.Is(inner, fs.ErrPermission):
		return rule(fs.ErrPermission, "the user running Switchboard may not access it")
	}
	return err
}

// checkRegular refuses what is not a regular file, naming what it is.
func checkRegular(fi fs.FileInfo) error {
	m := fi.Mode()
	const only = "the file tools read and write regular files only"
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return rule(ErrIsDir, "use list_directory or tree for directories")
	case m&fs.ModeNamedPipe != 0:
		return rule(ErrNotRegular, "it is a named pipe (FIFO); %s", only)
	case m&fs.ModeSocket != 0:
		return rule(ErrNotRegular, "it is a socket; %s", only)
	case m&fs.ModeDevice != 0:
		return rule(ErrNotRegular, "it is a device file; %s", only)
	case m&fs.ModeSymlink != 0:
		return rule(ErrSymlink, "%s", only)
	}
	return rule(ErrNotRegular, "it is a %s; %s", m.Type(), only)
}

// checkLinks refuses a file with several hard links: one of them may be
// outside the workspace, and os.Root cannot tell (a hard link is the file
// itself, not a path to it).
func checkLinks(fi fs.FileInfo) error {
	if n := linkCount(fi); n > 1 {
		return rule(ErrHardLink, "it has %d, and another one may be outside the workspace, so the file tools neither read nor change it; ask the user, or copy it with execute_shell first", n)
	}
	return nil
}

// openRegular opens a regular file for reading. The path is checked with
// Stat first (no side effects of opening a device), then opened without
// blocking and without becoming a controlling terminal, in case something
// else was swapped in meanwhile, and the open file checked again.
func (w *Workspace) openRegular(rel string) (*os.File, fs.FileInfo, error) {
	fi, err := w.root.Stat(rel)
	if err != nil {
		return nil, nil, fsError(err)
	}
	if err := checkRegular(fi); err != nil {
		return nil, nil, err
	}
	f, err := w.root.OpenFile(rel, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, nil, fsError(err)
	}
	if fi, err = f.Stat(); err == nil {
		if err = checkRegular(fi); err == nil {
			err = checkLinks(fi)
		}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// openDir opens a directory for listing, with the same care.
func (w *Workspace) openDir(rel string) (*os.File, error) {
	fi, err := w.root.Stat(rel)
	if err != nil {
		return nil, fsError(err)
	}
	if !fi.IsDir() {
		return nil, rule(ErrNotDir, "it is a file; use read_file to read it")
	}
	f, err := w.root.OpenFile(rel, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, fsError(err)
	}
	if fi, err := f.Stat(); err != nil || !fi.IsDir() {
		f.Close()
		return nil, rule(ErrNotDir, "it changed while being opened")
	}
	return f, nil
}
