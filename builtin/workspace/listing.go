package workspace

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/switchboard-app/switchboard/builtin/workspace/gitignore"
)

// Listing limits.
var (
	MaxListEntries   = 1000 // entries list_directory returns
	MaxTreeEntries   = 1000 // lines tree prints
	DefaultTreeDepth = 3
	MaxTreeDepth     = 10
	MaxSearchResults = 200     // matches (or names) search_files returns
	MaxSearchEntries = 100_000 // files and directories search_files looks at
	MaxSearchFile    = 4 << 20 // bigger files are not searched for content
	MaxMatchText     = 240     // bytes of a matching line shown
)

// DefaultIgnores are skipped by tree and search_files in every workspace,
// before (so below) the .gitignore files: version control data,
// dependency and cache directories nobody reads, and the marker.
var DefaultIgnores = []string{".git/", ".hg/", ".svn/", "node_modules/", "__pycache__/", ".venv/", ".DS_Store", "/" + MarkerName}

// Entry is one directory entry.
type Entry struct {
	Name string `json:"name" jsonschema:"the entry's name, as it is (any byte but / and NUL)"`
	Type string `json:"type" jsonschema:"file, dir, symlink, fifo (a named pipe), socket, device or other; only files are read and written"`
	Size int64  `json:"size,omitempty" jsonschema:"a file's size in bytes"`
	// Target is what a symbolic link points to.
	Target string `json:"target,omitempty" jsonschema:"what a symbolic link points to, as written in it"`
	// TargetType is what a symbolic link leads to when followed inside the
	// workspace, as read_file and list_directory follow it (the Type of
	// that entry); "" when it cannot be: it leads outside the workspace,
	// nowhere, or round in a loop.
	TargetType string `json:"targetType,omitempty" jsonschema:"for a symbolic link: the type of what it leads to inside the workspace; absent when it leads outside the workspace, nowhere or in a loop, so the file tools cannot follow it"`
	// Ignored: .gitignore (or DefaultIgnores) excludes it; tree and
	// search_files skip it.
	Ignored bool `json:"ignored,omitempty" jsonschema:"excluded by .gitignore (or skipped like .git and node_modules): tree and search_files leave it out"`
}

// Listing is a directory's entries.
type Listing struct {
	Path    string  `json:"path" jsonschema:"the directory, relative to the workspace root"`
	Entries []Entry `json:"entries" jsonschema:"its entries, sorted by name"`
	// More: the directory has more than MaxListEntries entries.
	More bool `json:"more,omitempty" jsonschema:"the directory has more entries than were listed"`
}

// ListDirectory lists the entries of directory p, sorted by name.
func (w *Workspace) ListDirectory(p string) (Listing, error) {
	const op = "list_directory"
	if err := w.check(); err != nil {
		return Listing{}, pathErr(op, p, err)
	}
	rel, err := w.resolve(p)
	if err != nil {
		return Listing{}, pathErr(op, p, err)
	}
	ents, err := w.readDir(rel)
	if err != nil {
		return Listing{}, pathErr(op, p, err)
	}
	m := w.matcherFor(rel)
	res := Listing{Path: rel, Entries: []Entry{}}
	if len(ents) > MaxListEntries {
		ents, res.More = ents[:MaxListEntries], true
	}
	for _, e := range ents {
		full := path.Join(rel, e.Name())
		en := w.entry(full, e)
		en.Ignored = m.Ignored(full, e.IsDir())
		res.Entries = append(res.Entries, en)
	}
	return res, nil
}

// entry describes e, found at full: its size if it is a file, its target
// and what that leads to if it is a symbolic link.
func (w *Workspace) entry(full string, e fs.DirEntry) Entry {
	en := Entry{Name: e.Name(), Type: entryType(e.Type())}
	switch en.Type {
	case "file":
		if fi, err := e.Info(); err == nil {
			en.Size = fi.Size()
		}
	case "symlink":
		en.Target, _ = w.root.Readlink(full)
		if fi, err := w.root.Stat(full); err == nil { // followed as the file tools follow it: inside only
			en.TargetType = entryType(fi.Mode())
		}
	}
	return en
}

// kindNote says, in a text listing, what an entry that the file tools do
// not read is: a special file, or a link they cannot follow ("" for files,
// directories and links they follow).
func kindNote(e Entry) string {
	switch e.Type {
	case "fifo":
		return "(named pipe)"
	case "socket":
		return "(socket)"
	case "device":
		return "(device file)"
	case "other":
		return "(not a regular file)"
	case "symlink":
		if e.TargetType == "" {
			return "(not followed: it leads outside the workspace, nowhere, or in a loop)"
		}
	}
	return ""
}

// readDir reads a directory's entries sorted by name.
func (w *Workspace) readDir(rel string) ([]fs.DirEntry, error) {
	d, err := w.openDir(rel)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	ents, err := d.ReadDir(-1)
	if err != nil {
		return nil, fsError(err)
	}
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, nil
}

// ignoreFile reads dir's .gitignore (nothing if it has none or it is not a
// small regular file).
func (w *Workspace) ignoreFile(dir string) []gitignore.Pattern {
	f, _, err := w.openRegular(path.Join(dir, ".gitignore"))
	if err != nil {
		return nil
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return nil
	}
	return gitignore.Parse(dir, b)
}

// matcherFor returns the ignore rules in effect in directory rel:
// DefaultIgnores, then the .gitignore of the root and of each directory
// down to rel.
func (w *Workspace) matcherFor(rel string) gitignore.Matcher {
	m := gitignore.Matcher{}.With(gitignore.Parse("", []byte(strings.Join(DefaultIgnores, "\n"))))
	m = m.With(w.ignoreFile("."))
	if rel == "." {
		return m
	}
	dir := ""
	for seg := range strings.SplitSeq(rel, "/") {
		dir = path.Join(dir, seg)
		m = m.With(w.ignoreFile(dir))
	}
	return m
}

// shown is a name or path as text listings show it: as it is, unless it
// could be misread there: it holds a character that is not printable (a
// newline, a BEL, an escape sequence, a bidi override) or bytes that are
// not UTF-8, starts or ends with white space (which would read as
// indentation, or not be seen), holds " -> " (a link's arrow) or two
// spaces in a row (what separates a listing's notes), or starts with a
// quote or "[" (a listing's own notes). Then it is quoted and escaped as
// a Go string. A name thus cannot fake entries, links or lines of a
// listing. Structured content keeps names as they are (JSON escapes them).
func shown(name string) string {
	if !utf8.ValidString(name) || strings.HasPrefix(name, `"`) || strings.HasPrefix(name, "[") ||
		strings.Contains(name, " -> ") || strings.Contains(name, "  ") ||
		strings.TrimSpace(name) != name ||
		strings.ContainsFunc(name, func(r rune) bool { return !strconv.IsPrint(r) }) {
		return strconv.Quote(name)
	}
	return name
}

// TreeEntry is one entry of a tree.
type TreeEntry struct {
	Entry
	// Path is the entry's path from the workspace root.
	Path string `json:"path" jsonschema:"the entry's path from the workspace root, for the other tools"`
	// Depth is its level below the directory listed, from 1.
	Depth int `json:"depth" jsonschema:"its level below the directory listed: 1 for that directory's own entries"`
	// Unlisted: a directory whose entries are not in the tree (it is at
	// the depth limit, or could not be read); list it to see them.
	Unlisted bool `json:"unlisted,omitempty" jsonschema:"a directory whose entries are not listed here (depth limit, or unreadable): list it with list_directory or tree"`
}

// TreeResult is a directory tree: its entries in the order of an indented
// listing (each directory followed by what it holds), and that listing as
// text.
type TreeResult struct {
	Path    string      `json:"path" jsonschema:"the directory listed, relative to the workspace root"`
	Entries []TreeEntry `json:"entries" jsonschema:"the entries, depth first, sorted by name within each directory; ignored ones left out"`
	// Text is the indented listing given to a model.
	Text string `json:"-"`
	// Ignored counts entries left out by .gitignore and DefaultIgnores.
	Ignored int `json:"ignored,omitempty" jsonschema:"how many entries .gitignore files (or the default ignores, .git, node_modules and such) left out"`
	// DepthLimited: some directories at the depth limit were not opened.
	DepthLimited bool `json:"depthLimited,omitempty" jsonschema:"some directories were not opened at the depth limit (their entries are marked unlisted)"`
	// Truncated: MaxTreeEntries was reached.
	Truncated bool `json:"truncated,omitempty" jsonschema:"the entry limit was reached: more entries exist than are listed"`
}

// Tree lists directory p down to depth levels (0: DefaultTreeDepth; at
// most MaxTreeDepth), skipping what .gitignore files (nested ones
// included) and DefaultIgnores exclude. Symbolic links are shown, not
// followed.
func (w *Workspace) Tree(ctx context.Context, p string, depth int) (TreeResult, error) {
	const op = "tree"
	if err := w.check(); err != nil {
		return TreeResult{}, pathErr(op, p, err)
	}
	if depth < 0 {
		return TreeResult{}, pathErr(op, p, invalid("depth %d: give a number of levels from 1 to %d", depth, MaxTreeDepth))
	}
	if depth == 0 {
		depth = DefaultTreeDepth
	}
	depth = min(depth, MaxTreeDepth)
	rel, err := w.resolve(p)
	if err != nil {
		return TreeResult{}, pathErr(op, p, err)
	}
	ents, err := w.readDir(rel)
	if err != nil {
		return TreeResult{}, pathErr(op, p, err)
	}
	res := TreeResult{Path: rel, Entries: []TreeEntry{}}
	var b strings.Builder
	b.WriteString(shown(rel) + "/\n")
	var walk func(dir string, ents []fs.DirEntry, m gitignore.Matcher, level int)
	walk = func(dir string, ents []fs.DirEntry, m gitignore.Matcher, level int) {
		for _, e := range ents {
			if res.Truncated || ctx.Err() != nil {
				return
			}
			full := path.Join(dir, e.Name())
			if m.Ignored(full, e.IsDir()) {
				res.Ignored++
				continue
			}
			if len(res.Entries) == MaxTreeEntries {
				res.Truncated = true
				return
			}
			te := TreeEntry{Entry: w.entry(full, e), Path: full, Depth: level}
			res.Entries = append(res.Entries, te)
			i := len(res.Entries) - 1
			b.WriteString(strings.Repeat("  ", level))
			b.WriteString(shown(e.Name()))
			var sub []fs.DirEntry
			var err error
			switch {
			case e.IsDir() && level >= depth:
				res.DepthLimited, res.Entries[i].Unlisted = true, true
				b.WriteString("/")
			case e.IsDir():
				b.WriteString("/")
				if sub, err = w.readDir(full); err != nil {
					res.Entries[i].Unlisted = true
					b.WriteString("  (could not be read)")
				}
			case te.Type == "symlink":
				b.WriteString(" -> " + shown(te.Target))
			}
			if note := kindNote(te.Entry); note != "" {
				b.WriteString("  " + note)
			}
			b.WriteString("\n")
			if sub != nil {
				walk(full, sub, m.With(w.ignoreFile(full)), level+1)
			}
		}
	}
	walk(rel, ents, w.matcherFor(rel), 1)
	if err := ctx.Err(); err != nil {
		return TreeResult{}, pathErr(op, p, err)
	}
	res.Text = b.String()
	return res, nil
}

// Match is a line that matched a content search.
type Match struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// SearchResult is what search_files found.
type SearchResult struct {
	// Files are the paths matching the pattern (only when no content was
	// searched for); directories end with "/".
	Files []string `json:"files,omitempty"`
	// Matches are the lines matching content.
	Matches []Match `json:"matches,omitempty"`
	// Literal: content was not a valid regular expression and was
	// searched for as plain text.
	Literal bool `json:"literal,omitempty"`
	// Truncated: MaxSearchResults or MaxSearchEntries was reached.
	Truncated bool `json:"truncated,omitempty"`
	// Skipped counts files not searched for content: binary, larger than
	// MaxSearchFile, hard-linked, or unreadable.
	Skipped int `json:"skipped,omitempty"`
}

// Search walks directory p (default: the root) skipping ignored files and
// not following symbolic links. With pattern only, it returns the paths
// whose name matches pattern (a glob with .gitignore rules: "*.go" at any
// depth, "cmd/*/main.go" from p, "**" for any directories). With content,
// it returns the lines of matching files (every file when pattern is
// empty) that match content, a regular expression (RE2).
func (w *Workspace) Search(ctx context.Context, pattern, p, content string) (SearchResult, error) {
	const op = "search_files"
	if p == "" {
		p = "."
	}
	if err := w.check(); err != nil {
		return SearchResult{}, pathErr(op, p, err)
	}
	if pattern == "" && content == "" {
		return SearchResult{}, pathErr(op, p, invalid("give a pattern (file names, e.g. *.go) and/or content (text to find)"))
	}
	if strings.IndexByte(pattern, 0) >= 0 {
		return SearchResult{}, pathErr(op, p, invalid("pattern contains a NUL byte"))
	}
	rel, err := w.resolve(p)
	if err != nil {
		return SearchResult{}, pathErr(op, p, err)
	}
	var res SearchResult
	var g grepper
	defer g.release()
	if content != "" {
		if g.re, err = regexp.Compile(content); err != nil {
			g.re, res.Literal = regexp.MustCompile(regexp.QuoteMeta(content)), true
		}
	}
	ents, err := w.readDir(rel)
	if err != nil {
		return SearchResult{}, pathErr(op, p, err)
	}
	seen := 0
	full := func() bool { return len(res.Files)+len(res.Matches) >= MaxSearchResults }
	var walk func(dir string, ents []fs.DirEntry, m gitignore.Matcher)
	walk = func(dir string, ents []fs.DirEntry, m gitignore.Matcher) {
		for _, e := range ents {
			if res.Truncated || ctx.Err() != nil {
				return
			}
			if seen++; seen > MaxSearchEntries {
				res.Truncated = true
				return
			}
			name := path.Join(dir, e.Name())
			isDir := e.IsDir()
			if e.Type()&fs.ModeSymlink != 0 || m.Ignored(name, isDir) {
				continue
			}
			below := strings.TrimPrefix(strings.TrimPrefix(name, rel), "/")
			if rel == "." {
				below = name
			}
			matches := pattern == "" || gitignore.Match(pattern, below, isDir)
			switch {
			case g.re == nil && matches:
				if full() {
					res.Truncated = true
					return
				}
				if isDir {
					res.Files = append(res.Files, name+"/")
				} else {
					res.Files = append(res.Files, name)
				}
			case g.re != nil && matches && e.Type().IsRegular():
				g.grep(w, dir, e.Name(), &res, full)
			}
			if isDir {
				g.release() // one directory open at a time, however deep the tree
				if sub, err := w.readDir(name); err == nil {
					walk(name, sub, m.With(w.ignoreFile(name)))
				}
			}
		}
	}
	walk(rel, ents, w.matcherFor(rel))
	if err := ctx.Err(); err != nil {
		return SearchResult{}, pathErr(op, p, err)
	}
	return res, nil
}

// grepper searches the content of files for one search. Files (at most
// MaxSearchFile) are read whole into one buffer it keeps, and split into
// lines in place; they are opened by name in their directory, which it
// keeps open while the walk stays there (openIn). Searching many small
// files thus costs an open, a stat and a read each, not buffers allocated
// and cleared nor each path resolved again from the root.
type grepper struct {
	re     *regexp.Regexp
	buf    []byte
	dir    *os.File // the directory files are opened in, or nil
	dirRel string
}

// release closes the directory g keeps open.
func (g *grepper) release() {
	if g.dir != nil {
		g.dir.Close()
		g.dir = nil
	}
}

// grep adds the lines of file name in directory dir matching g.re.
func (g *grepper) grep(w *Workspace, dir, name string, res *SearchResult, full func() bool) {
	rel := path.Join(dir, name)
	data, err := g.load(w, dir, name)
	if err != nil || isText(data[:min(len(data), sniffBytes)], len(data) > sniffBytes) != nil {
		res.Skipped++
		return
	}
	for n := 1; len(data) > 0; n++ {
		var line []byte
		line, data, _ = bytes.Cut(data, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if !g.re.Match(line) {
			continue
		}
		if full() {
			res.Truncated = true
			return
		}
		text := string(cutUTF8(line, MaxMatchText))
		if len(line) > MaxMatchText {
			text += "…"
		}
		res.Matches = append(res.Matches, Match{Path: rel, Line: n, Text: text})
	}
}

// load reads the regular file name of directory dir into g's buffer.
// Where openIn is not available, the file is opened through the root as
// read_file opens it.
func (g *grepper) load(w *Workspace, dir, name string) ([]byte, error) {
	if g.dir == nil || g.dirRel != dir {
		g.release()
		d, err := w.openDir(dir)
		if err != nil {
			return nil, err
		}
		g.dir, g.dirRel = d, dir
	}
	r, size, err := openIn(g.dir, name)
	if errors.Is(err, errors.ErrUnsupported) {
		var fi fs.FileInfo
		if r, fi, err = w.openRegular(path.Join(dir, name)); err == nil {
			size = fi.Size()
		}
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return g.read(r, size)
}

// errTooBig: a file to search is larger than MaxSearchFile.
var errTooBig = errors.New("larger than MaxSearchFile")

// read reads f, of about size bytes, into g's buffer, growing it for a
// file larger than any before (or one growing while it is read).
func (g *grepper) read(f io.Reader, size int64) ([]byte, error) {
	if size > int64(MaxSearchFile) {
		return nil, errTooBig
	}
	buf := slices.Grow(g.buf[:0], int(size)+1) // +1: EOF comes without growing
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, len(buf))
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		g.buf = buf[:0]
		switch {
		case len(buf) > MaxSearchFile:
			return nil, errTooBig
		case errors.Is(err, io.EOF):
			return buf, nil
		case err != nil:
			return nil, err
		}
	}
}
