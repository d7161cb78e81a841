package workspace

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
	"unicode/utf8"
)

// Size limits of the file tools.
var (
	// MaxReadBytes bounds the text one read_file returns.
	MaxReadBytes = 256 << 10
	// MaxReadLines is how many lines read_file returns when no toLine is given.
	MaxReadLines = 2000
	// MaxFileBytes bounds what write_file writes and edit_file loads.
	MaxFileBytes = 10 << 20
)

// readBufBytes is the buffer read_file reads lines with; longer lines
// arrive in pieces.
const readBufBytes = 64 << 10

// sniffBytes is how much of a file is checked for being text: git's
// heuristic, a NUL byte in the first 8000 bytes means binary.
const sniffBytes = 8000

// isText reports whether the start of a file looks like UTF-8 text.
// head may end inside a character when it was cut at sniffBytes.
func isText(head []byte, cut bool) error {
	if i := bytes.IndexByte(head, 0); i >= 0 {
		return rule(ErrBinary, "it is binary (a NUL byte at offset %d); the file tools handle text only, so inspect it with execute_shell (file, xxd)", i)
	}
	for k := 0; k <= 3 && k <= len(head); k++ {
		if utf8.Valid(head[:len(head)-k]) {
			return nil
		}
		if !cut {
			break
		}
	}
	return rule(ErrBinary, "it is not UTF-8 text; convert it (iconv) or inspect it with execute_shell")
}

// ReadResult is a range of lines of a text file.
type ReadResult struct {
	Path       string `json:"path" jsonschema:"the file, relative to the workspace root"`
	Content    string `json:"content" jsonschema:"the lines read, with their line endings as in the file"`
	FromLine   int    `json:"fromLine" jsonschema:"the first line read (0 for an empty file)"`
	ToLine     int    `json:"toLine" jsonschema:"the last line read whole, or the line cut at the size limit"`
	TotalLines int    `json:"totalLines" jsonschema:"how many lines the file has"`
	// Truncated: MaxReadBytes was reached before toLine (and, if the first
	// line alone was longer, it was cut).
	Truncated bool  `json:"truncated,omitempty" jsonschema:"the size limit of one read was reached before the range's end (a first line longer than it is cut)"`
	Size      int64 `json:"size" jsonschema:"the file's size in bytes"`
}

// ReadFile returns lines from..to (1-based, inclusive; 0 means the first
// line, and from+MaxReadLines-1 respectively) of a UTF-8 text file, with
// line endings as in the file, at most MaxReadBytes of them.
func (w *Workspace) ReadFile(p string, from, to int) (ReadResult, error) {
	const op = "read_file"
	if err := w.check(); err != nil {
		return ReadResult{}, pathErr(op, p, err)
	}
	if from < 0 || to < 0 || (to > 0 && to < max(from, 1)) {
		return ReadResult{}, pathErr(op, p, invalid("fromLine %d and toLine %d: lines are numbered from 1 and toLine may not be before fromLine", from, to))
	}
	rel, err := w.resolve(p)
	if err != nil {
		return ReadResult{}, pathErr(op, p, err)
	}
	f, fi, err := w.openRegular(rel)
	if err != nil {
		return ReadResult{}, pathErr(op, p, err)
	}
	defer f.Close()
	from = max(from, 1)
	if to == 0 {
		to = from + MaxReadLines - 1
	}
	br := bufio.NewReaderSize(f, readBufBytes)
	head, _ := br.Peek(sniffBytes)
	if err := isText(head, len(head) == sniffBytes); err != nil {
		return ReadResult{}, pathErr(op, p, err)
	}
	res := ReadResult{Path: rel, FromLine: from, Size: fi.Size()}
	var out strings.Builder
	line, lineStart := 0, 0 // lines read; out.Len() when the current line began
	inLine := false         // some of the current line was read
	for {
		chunk, err := br.ReadSlice('\n')
		full := errors.Is(err, bufio.ErrBufferFull) // a long line arrives in pieces
		inLine = inLine || len(chunk) > 0
		// This piece ends a line: at its newline, or at the end of the file
		// after some of the line, which may have come in earlier pieces (a
		// last line without a newline ending exactly at the buffer's end).
		ends := inLine && !full
		if n := line + 1; n >= from && n <= to && !res.Truncated {
			switch {
			case out.Len()+len(chunk) <= MaxReadBytes:
				out.Write(chunk)
			case lineStart == 0: // the first line alone is too long: give its start
				res.Truncated, res.ToLine = true, n
				out.Write(cutUTF8(chunk, MaxReadBytes-out.Len()))
			default: // end with the last whole line
				res.Truncated = true
				kept := out.String()[:lineStart]
				out.Reset()
				out.WriteString(kept)
			}
			if ends && !res.Truncated {
				res.ToLine = n
			}
		}
		if ends {
			line++
			lineStart, inLine = out.Len(), false
		}
		if err != nil && !full {
			if !errors.Is(err, io.EOF) {
				return ReadResult{}, pathErr(op, p, fmt.Errorf("read: %w", err))
			}
			break
		}
	}
	res.TotalLines, res.Content = line, out.String()
	if line == 0 {
		res.FromLine = 0
		return res, nil
	}
	if from > line {
		return ReadResult{}, pathErr(op, p, invalid("fromLine %d is past the end: the file has %d lines", from, line))
	}
	return res, nil
}

// cutUTF8 returns at most n bytes of b, not splitting a character.
func cutUTF8(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return b[:n]
}

// readText loads a whole text file of at most MaxFileBytes.
func (w *Workspace) readText(rel string) (string, fs.FileInfo, error) {
	f, fi, err := w.openRegular(rel)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	if fi.Size() > int64(MaxFileBytes) {
		return "", nil, rule(ErrTooLarge, "%d bytes, at most %d can be edited; use execute_shell (sed, patch) for big files", fi.Size(), MaxFileBytes)
	}
	b, err := io.ReadAll(io.LimitReader(f, int64(MaxFileBytes)+1))
	if err != nil {
		return "", nil, fmt.Errorf("read: %w", err)
	}
	if len(b) > MaxFileBytes {
		return "", nil, rule(ErrTooLarge, "it grew past %d bytes while being read", MaxFileBytes)
	}
	if err := isText(b, false); err != nil {
		return "", nil, err
	}
	return string(b), fi, nil
}

// checkWritable checks the target of a write: not reserved, not the root,
// and, if it exists, a regular file with one link, not a symbolic link,
// that this process may write (checkCanWrite). It returns the mode to keep
// and whether the file exists.
func (w *Workspace) checkWritable(rel string) (fs.FileMode, bool, error) {
	if err := w.checkReserved(rel); err != nil {
		return 0, false, err
	}
	fi, err := w.root.Lstat(rel)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0o644, false, nil
		}
		return 0, false, fsError(err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, _ := w.root.Readlink(rel)
		return 0, false, rule(ErrSymlink, "it points to %q; write to the file it points to instead (if that is inside the workspace), so the link stays a link", target)
	}
	if err := checkRegular(fi); err != nil {
		return 0, false, err
	}
	if err := checkLinks(fi); err != nil {
		return 0, false, err
	}
	if err := w.checkCanWrite(rel, fi); err != nil {
		return 0, false, err
	}
	return fi.Mode().Perm(), true, nil
}

// checkCanWrite refuses to replace a file this process may not write.
// writeAtomic renames a new file over the old one, which needs only the
// directory's permission, so without this check a file made read-only
// would be replaced all the same.
//
// A file whose owner has no write permission is refused even when
// Switchboard runs as root, whom the mode bits do not stop: like editors
// (vim's "readonly" warning), the mode is taken as the owner's word that
// the file is not to change. Otherwise the file is opened for writing,
// without truncating it, so the system itself answers: group and other
// bits, ACLs, read-only mounts, immutable files.
func (w *Workspace) checkCanWrite(rel string, fi fs.FileInfo) error {
	const todo = "if it is meant to change, make it writable first (chmod u+w %s with execute_shell) or ask the user"
	if fi.Mode().Perm()&0o200 == 0 {
		return rule(ErrReadOnly, "its mode %04o gives its owner no write permission; "+todo, fi.Mode().Perm(), shellWord(rel))
	}
	f, err := w.root.OpenFile(rel, os.O_WRONLY|openFlags, 0)
	if err != nil {
		if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
			return rule(ErrReadOnly, "the user running Switchboard may not write it (%v); "+todo, errors.Unwrap(err), shellWord(rel))
		}
		return fsError(err)
	}
	f.Close()
	return nil
}

// shellWord quotes p for a command line in a message, when it needs it.
func shellWord(p string) string {
	if strings.ContainsFunc(p, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+", r))
	}) {
		return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
	}
	return p
}

func (w *Workspace) checkReserved(rel string) error {
	switch rel {
	case ".":
		return invalid("that is the workspace root itself; name a file inside it")
	case MarkerName:
		return rule(ErrReserved, "it marks a workspace Switchboard created; leave it in place")
	}
	return nil
}

// beforeRename, when set (by tests), runs between writing a temporary file
// and renaming it over its target.
var beforeRename func()

// writeAtomic replaces rel with data: a temporary file in the same
// directory, synced, then renamed over rel, so readers see the old or the
// new content, never a mix, and a crash leaves no half-written file.
// Renaming replaces the directory entry: it never writes through a link.
//
// The temporary file is made, and removed on failure, through a handle on
// the directory opened once (inside the root), so it goes even when the
// path to the directory changes meanwhile (a directory swapped for a link
// leading out). The rename goes by path through the root, so it is
// confined like every other operation: if the path no longer leads to
// that directory, it fails and the temporary file is removed.
func (w *Workspace) writeAtomic(rel string, data []byte, perm fs.FileMode) error {
	dir := path.Dir(rel)
	if err := w.root.MkdirAll(dir, 0o755); err != nil {
		return fsError(err)
	}
	d, err := w.root.OpenRoot(dir)
	if err != nil {
		return fsError(err)
	}
	defer d.Close()
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmp := ".sb-" + hex.EncodeToString(rnd[:]) + ".tmp"
	f, err := d.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fsError(err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm) // the umask may have narrowed it
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		if beforeRename != nil {
			beforeRename()
		}
		err = w.root.Rename(path.Join(dir, tmp), rel)
	}
	if err != nil {
		_ = d.Remove(tmp)
		return fsError(err)
	}
	if df, err := d.OpenFile(".", os.O_RDONLY|openFlags, 0); err == nil {
		_ = df.Sync() // make the rename itself durable
		df.Close()
	}
	return nil
}

// WriteResult reports a write.
type WriteResult struct {
	Path    string `json:"path"`
	Bytes   int    `json:"bytes"`
	Created bool   `json:"created"`
}

// WriteFile creates or replaces the file p with content, atomically,
// creating missing parent directories.
func (w *Workspace) WriteFile(p, content string) (WriteResult, error) {
	const op = "write_file"
	if err := w.check(); err != nil {
		return WriteResult{}, pathErr(op, p, err)
	}
	rel, err := w.resolve(p)
	if err != nil {
		return WriteResult{}, pathErr(op, p, err)
	}
	if len(content) > MaxFileBytes {
		return WriteResult{}, pathErr(op, p, rule(ErrTooLarge, "%d bytes, at most %d; split the content or generate it with execute_shell", len(content), MaxFileBytes))
	}
	perm, exists, err := w.checkWritable(rel)
	if err != nil {
		return WriteResult{}, pathErr(op, p, err)
	}
	if err := w.writeAtomic(rel, []byte(content), perm); err != nil {
		return WriteResult{}, pathErr(op, p, err)
	}
	return WriteResult{Path: rel, Bytes: len(content), Created: !exists}, nil
}

// EditResult reports an edit.
type EditResult struct {
	Path string `json:"path"`
	// Line is where the replaced text started.
	Line int `json:"line"`
}

// EditFile replaces the one occurrence of oldString in p with newString.
// It fails, changing nothing, when oldString occurs zero or several times.
// In a file with CRLF line ends, "\n" in both strings stands for "\r\n".
func (w *Workspace) EditFile(p, oldString, newString string) (EditResult, error) {
	const op = "edit_file"
	if err := w.check(); err != nil {
		return EditResult{}, pathErr(op, p, err)
	}
	if oldString == "" {
		return EditResult{}, pathErr(op, p, invalid("old_string is empty; copy the exact text to replace from read_file, or use write_file to create a file"))
	}
	if oldString == newString {
		return EditResult{}, pathErr(op, p, invalid("old_string and new_string are the same; nothing would change"))
	}
	rel, err := w.resolve(p)
	if err != nil {
		return EditResult{}, pathErr(op, p, err)
	}
	text, _, err := w.readText(rel)
	if err != nil {
		return EditResult{}, pathErr(op, p, err)
	}
	perm, _, err := w.checkWritable(rel)
	if err != nil {
		return EditResult{}, pathErr(op, p, err)
	}
	n := strings.Count(text, oldString)
	if n == 0 && strings.Contains(text, "\r\n") && strings.Contains(oldString, "\n") && !strings.Contains(oldString, "\r\n") {
		oldString = strings.ReplaceAll(oldString, "\n", "\r\n")
		newString = strings.ReplaceAll(newString, "\n", "\r\n")
		n = strings.Count(text, oldString)
	}
	switch {
	case n == 0:
		return EditResult{}, pathErr(op, p, rule(ErrNoMatch, "no text in the file equals old_string; read the file again and copy the text exactly, including whitespace and indentation"))
	case n > 1:
		return EditResult{}, pathErr(op, p, rule(ErrAmbiguous, "it matches %d places; include more of the surrounding lines in old_string so that it matches exactly one", n))
	}
	i := strings.Index(text, oldString)
	edited := text[:i] + newString + text[i+len(oldString):]
	if len(edited) > MaxFileBytes {
		return EditResult{}, pathErr(op, p, rule(ErrTooLarge, "the edited file would have %d bytes, at most %d", len(edited), MaxFileBytes))
	}
	if err := w.writeAtomic(rel, []byte(edited), perm); err != nil {
		return EditResult{}, pathErr(op, p, err)
	}
	return EditResult{Path: rel, Line: strings.Count(text[:i], "\n") + 1}, nil
}

// MoveResult reports a move.
type MoveResult struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Move renames a file or directory; it refuses to replace an existing
// destination and creates the destination's missing parent directories.
func (w *Workspace) Move(p, destination string) (MoveResult, error) {
	const op = "move_file"
	if err := w.check(); err != nil {
		return MoveResult{}, pathErr(op, p, err)
	}
	from, err := w.resolve(p)
	if err != nil {
		return MoveResult{}, pathErr(op, p, err)
	}
	to, err := w.resolve(destination)
	if err != nil {
		return MoveResult{}, pathErr(op, destination, err)
	}
	for _, r := range []struct{ rel, given string }{{from, p}, {to, destination}} {
		if err := w.checkReserved(r.rel); err != nil {
			return MoveResult{}, pathErr(op, r.given, err)
		}
	}
	if _, err := w.root.Lstat(from); err != nil {
		return MoveResult{}, pathErr(op, p, fsError(err))
	}
	if _, err := w.root.Lstat(to); err == nil {
		return MoveResult{}, pathErr(op, destination, rule(ErrExists, "the destination exists; delete it first or choose another name"))
	} else if !errors.Is(err, fs.ErrNotExist) {
		return MoveResult{}, pathErr(op, destination, fsError(err))
	}
	if from == to || strings.HasPrefix(to, from+"/") {
		return MoveResult{}, pathErr(op, destination, invalid("a directory cannot be moved into itself"))
	}
	if err := w.root.MkdirAll(path.Dir(to), 0o755); err != nil {
		return MoveResult{}, pathErr(op, destination, fsError(err))
	}
	if err := w.root.Rename(from, to); err != nil {
		return MoveResult{}, pathErr(op, p, fsError(err))
	}
	return MoveResult{From: from, To: to}, nil
}

// DeleteResult reports a deletion.
type DeleteResult struct {
	Path string `json:"path"`
	Type string `json:"type"` // see entryType
}

// Delete removes a file, a symbolic link (not what it points to) or an
// empty directory.
func (w *Workspace) Delete(p string) (DeleteResult, error) {
	const op = "delete_file"
	if err := w.check(); err != nil {
		return DeleteResult{}, pathErr(op, p, err)
	}
	rel, err := w.resolve(p)
	if err != nil {
		return DeleteResult{}, pathErr(op, p, err)
	}
	if rel == "." {
		return DeleteResult{}, pathErr(op, p, invalid("the workspace root cannot be deleted"))
	}
	if err := w.checkReserved(rel); err != nil {
		return DeleteResult{}, pathErr(op, p, err)
	}
	fi, err := w.root.Lstat(rel)
	if err != nil {
		return DeleteResult{}, pathErr(op, p, fsError(err))
	}
	if err := w.root.Remove(rel); err != nil {
		err = fsError(err)
		if errors.Is(err, ErrNotEmpty) {
			err = rule(ErrNotEmpty, "delete the files in it first (or, with the user's consent, run rm -r with execute_shell)")
		}
		return DeleteResult{}, pathErr(op, p, err)
	}
	return DeleteResult{Path: rel, Type: entryType(fi.Mode())}, nil
}

// entryType names a file's type as listings and results give it: file,
// dir, symlink, fifo, socket, device or other.
func entryType(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "file"
	case m.IsDir():
		return "dir"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m&fs.ModeNamedPipe != 0:
		return "fifo"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "other"
}
