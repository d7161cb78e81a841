// Package extract turns files and pasted text into the plain text a content
// store indexes: it detects the format from the name and the bytes, reads
// text in UTF-8, UTF-16 or UTF-32 with a byte order mark, or Latin-1,
// refuses binaries, office documents, files of pseudo filesystems (/proc,
// /sys) and oversize files with a clear error, strips HTML tags,
// pretty-prints one-line JSON, reads the text layer of PDFs and normalizes
// line endings, so line numbers of the stored text are stable. A file's
// read ends with its context, or when it stalls for ReadStall.
//
//	doc, err := extract.File(ctx, "/notes/setup.md", 10<<20)
//	if errors.Is(err, extract.ErrBinary) { ... }
//	fmt.Println(doc.Format, doc.Title, len(doc.Text))
//
// PDF text is rebuilt from glyph positions (lines from baselines, spaces
// from gaps), page after page with a blank line between pages; encrypted,
// damaged and image-only PDFs are errors that say what to do (ErrEncrypted,
// ErrUnreadable, ErrEmpty).
package extract

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// Sentinel errors; a FileError wraps one of them (or an fs error).
var (
	ErrBinary      = errors.New("binary file")
	ErrTooLarge    = errors.New("file is over the size limit")
	ErrUnsupported = errors.New("unsupported file type")
	ErrIsDir       = errors.New("is a folder")
	// ErrNotRegular is a path that is neither a file nor a folder: a named
	// pipe, a socket or a device, whose reading could block forever or never
	// end.
	ErrNotRegular = errors.New("not a regular file")
	// ErrPseudoFile is a file of a pseudo filesystem (/proc, /sys): the
	// kernel's live state, not a document; reading some never ends.
	ErrPseudoFile = errors.New("not a document")
	ErrEmpty      = errors.New("no text")
	ErrEncrypted  = errors.New("encrypted PDF")
	ErrUnreadable = errors.New("unreadable PDF")
)

// Format names what kind of text a document is.
type Format string

// Formats.
const (
	Text     Format = "txt"
	Markdown Format = "md"
	HTML     Format = "html"
	JSON     Format = "json"
	CSV      Format = "csv"
	Code     Format = "code"
	// PDF is text extracted from a PDF file (files only: pasted text is
	// never PDF).
	PDF Format = "pdf"
)

// Formats lists the formats pasted text can have, for validating a
// caller's choice (files may also be PDF).
var Formats = []Format{Text, Markdown, HTML, JSON, CSV, Code}

// Doc is extracted text.
type Doc struct {
	Format Format
	// Title is the first heading (Markdown), <title> (HTML), the document
	// title (PDF) or the file name.
	Title string
	// Text is UTF-8 with "\n" line endings; what the store keeps and what
	// line numbers refer to (for HTML: the text with the tags removed).
	Text string
}

// FileError is a file that could not be extracted.
type FileError struct {
	Path   string
	Err    error  // a sentinel of this package or an fs error
	Detail string // what to do, or the measured size
}

func (e *FileError) Error() string {
	s := fmt.Sprintf("%s: %v", e.Path, e.Err)
	if e.Detail != "" {
		s += " (" + e.Detail + ")"
	}
	return s
}

func (e *FileError) Unwrap() error { return e.Err }

// ReadStall bounds how long reading one file may go without progress
// before File gives up on it (a network or FUSE file that stopped
// answering); a variable so tests can shorten it.
var ReadStall = 30 * time.Second

// File reads and extracts the file at path, refusing files over maxBytes
// (0: no limit) and, without opening them, paths that are not regular files
// once links are followed (ErrNotRegular), files of pseudo filesystems such
// as /proc and /sys (ErrPseudoFile) and office documents (ErrUnsupported).
// The read ends when ctx does, or when it makes no progress for ReadStall.
func File(ctx context.Context, path string, maxBytes int64) (Doc, error) {
	fi, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Doc{}, &FileError{Path: path, Err: fs.ErrNotExist, Detail: "check the path; it must be absolute or relative to the server's working directory"}
		}
		return Doc{}, &FileError{Path: path, Err: err}
	}
	if fi.IsDir() {
		return Doc{}, &FileError{Path: path, Err: ErrIsDir}
	}
	// Checked before opening: opening a named pipe blocks until a writer
	// comes, and holds the store's write lock while it waits.
	if !fi.Mode().IsRegular() {
		return Doc{}, &FileError{Path: path, Err: ErrNotRegular, Detail: fmt.Sprintf("it is a %s; only files and folders can be added", kindOf(fi.Mode()))}
	}
	if name := PseudoFS(path); name != "" {
		return Doc{}, &FileError{Path: path, Err: ErrPseudoFile, Detail: PseudoDetail(name)}
	}
	if err := refuseByName(path); err != nil {
		return Doc{}, err
	}
	if maxBytes > 0 && fi.Size() > maxBytes {
		return Doc{}, &FileError{Path: path, Err: ErrTooLarge, Detail: SizeOver(fi.Size(), maxBytes) + "; " + splitHint}
	}
	if fi.Size() == 0 {
		return Doc{}, &FileError{Path: path, Err: ErrEmpty, Detail: "the file is empty"}
	}
	f, err := os.Open(path)
	if err != nil {
		return Doc{}, &FileError{Path: path, Err: err}
	}
	defer f.Close()
	limit := int64(0)
	if maxBytes > 0 {
		limit = maxBytes + 1 // the file may have grown since Stat
	}
	data, err := readAll(ctx, f, limit)
	if err != nil {
		return Doc{}, &FileError{Path: path, Err: err}
	}
	if maxBytes > 0 && int64(len(data)) > maxBytes {
		return Doc{}, &FileError{Path: path, Err: ErrTooLarge, Detail: fmt.Sprintf("it grew past %s while it was read; %s", HumanBytes(maxBytes), splitHint)}
	}
	doc, err := Bytes(filepath.Base(path), data)
	if err != nil {
		var fe *FileError
		if errors.As(err, &fe) {
			fe.Path = path
		}
		return Doc{}, err
	}
	return doc, nil
}

// splitHint is what to do with a file over the size limit.
const splitHint = "split it into smaller files and add those"

// PseudoDetail says why a file of the pseudo filesystem name is refused.
func PseudoDetail(name string) string {
	return fmt.Sprintf("it is on %s, a pseudo filesystem: the system's live state, not a document, and reading some of its files never ends; "+
		"copy what you need into a file (e.g. cat FILE > ~/copy.txt) and add that", name)
}

// errStalled is a read that made no progress for ReadStall.
var errStalled = errors.New("reading the file stalled")

// readAll reads f (at most limit bytes when limit > 0) until its end, ctx's
// end, or a stall. A read blocked in the system cannot be interrupted: it
// is left to its goroutine (closing f makes most end), and its result is
// dropped.
func readAll(ctx context.Context, f *os.File, limit int64) ([]byte, error) {
	var got atomic.Int64
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		r := io.Reader(f)
		if limit > 0 {
			r = io.LimitReader(f, limit)
		}
		data, err := io.ReadAll(countingReader{r, &got})
		done <- result{data, err}
	}()
	tick := time.NewTicker(ReadStall)
	defer tick.Stop()
	last := int64(-1)
	for {
		select {
		case r := <-done:
			return r.data, r.err
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-tick.C:
			if n := got.Load(); n != last {
				last = n
				continue
			}
			f.Close()
			return nil, fmt.Errorf("%w: no data came for %s; if the file is on a network or FUSE drive, copy it to a local folder and add the copy", errStalled, ReadStall)
		}
	}
}

type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// kindOf names what a path that is not a regular file is.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}

// Bytes extracts data, choosing the format from name's extension and the
// content. Text in UTF-8, UTF-16 or UTF-32 with a byte order mark, or
// Latin-1, is read as such.
func Bytes(name string, data []byte) (Doc, error) {
	if err := refuseByName(name); err != nil {
		return Doc{}, err
	}
	if len(data) == 0 {
		return Doc{}, &FileError{Path: name, Err: ErrEmpty, Detail: "the file is empty"}
	}
	if bytes.HasPrefix(data, []byte("%PDF-")) || strings.EqualFold(filepath.Ext(name), ".pdf") {
		doc, err := extractPDF(name, data)
		if err == nil && doc.Title == "" {
			doc.Title = filepath.Base(name)
		}
		return doc, err
	}
	text, ok := decode(data)
	if !ok {
		return Doc{}, &FileError{Path: name, Err: ErrBinary, Detail: "only text and PDF files can be added: plain text, Markdown, HTML, JSON, CSV, source code or PDF"}
	}
	return build(FormatOf(name), text, filepath.Base(name))
}

// FromText extracts pasted text of the given format ("" means plain text).
func FromText(format Format, title, text string) (Doc, error) {
	if format == "" {
		format = Text
	}
	if !validFormat(format) {
		return Doc{}, fmt.Errorf("%w %q; use one of %s", ErrUnsupported, format, formatList())
	}
	if strings.IndexByte(text, 0) >= 0 {
		return Doc{}, ErrBinary
	}
	doc, err := build(format, normalize(text), title)
	if err != nil {
		return Doc{}, err
	}
	if title != "" {
		doc.Title = title
	}
	return doc, nil
}

func build(format Format, text, name string) (Doc, error) {
	doc := Doc{Format: format, Text: text, Title: name}
	switch format {
	case HTML:
		title, body := stripHTML(text)
		doc.Text = body
		if title != "" {
			doc.Title = title
		}
	case JSON:
		doc.Text = prettyJSON(text)
	case Markdown:
		if h := firstHeading(text); h != "" {
			doc.Title = h
		}
	}
	if strings.TrimSpace(doc.Text) == "" {
		what := "it holds only spaces and blank lines"
		if strings.TrimSpace(text) != "" {
			what = "it holds only markup, no text"
		}
		if name == "" {
			return Doc{}, fmt.Errorf("%w: the text is blank (%s)", ErrEmpty, what)
		}
		return Doc{}, &FileError{Path: name, Err: ErrEmpty, Detail: what}
	}
	return doc, nil
}

// FormatOf picks the format from a file name; unknown names are plain text.
func FormatOf(name string) Format {
	base := strings.ToLower(filepath.Base(name))
	switch base {
	case "makefile", "dockerfile", "gnumakefile", "justfile", "rakefile", "gemfile", "vagrantfile":
		return Code
	}
	switch ext := strings.ToLower(filepath.Ext(base)); {
	case ext == ".md" || ext == ".markdown" || ext == ".mdx":
		return Markdown
	case ext == ".html" || ext == ".htm" || ext == ".xhtml":
		return HTML
	case ext == ".json" || ext == ".jsonl" || ext == ".ndjson" || ext == ".geojson":
		return JSON
	case ext == ".csv" || ext == ".tsv":
		return CSV
	case codeExt[ext]:
		return Code
	}
	return Text
}

// Skippable reports whether a name is a known binary format, so a folder
// walk can skip it without reading it.
func Skippable(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return binaryExt[ext] || officeExt[ext] != ""
}

// Refused is the error for a file refused by its name alone, without
// reading it (a FileError, or nil): an office document (ErrUnsupported,
// saying how to add its text) or another known binary format (ErrBinary).
func Refused(path string) error {
	if err := refuseByName(path); err != nil {
		return err
	}
	if Skippable(path) {
		return &FileError{Path: path, Err: ErrBinary, Detail: "skipped by its extension"}
	}
	return nil
}

// refuseByName refuses office documents: their text is inside a zip of
// XML (or an older binary format) this package does not read.
func refuseByName(path string) error {
	ext := strings.ToLower(filepath.Ext(path))
	kind := officeExt[ext]
	if kind == "" {
		return nil
	}
	return &FileError{Path: path, Err: ErrUnsupported, Detail: fmt.Sprintf("%s (%s) are not supported; save it as PDF or plain text "+
		"(File → Save As or Export) and add that", kind, ext)}
}

var officeExt = map[string]string{
	".doc": "Word documents", ".docx": "Word documents", ".docm": "Word documents", ".dot": "Word documents", ".dotx": "Word documents",
	".xls": "Excel workbooks", ".xlsx": "Excel workbooks", ".xlsm": "Excel workbooks",
	".ppt": "PowerPoint presentations", ".pptx": "PowerPoint presentations", ".pptm": "PowerPoint presentations",
	".odt": "OpenDocument files", ".ods": "OpenDocument files", ".odp": "OpenDocument files",
	".pages": "Pages documents", ".numbers": "Numbers spreadsheets", ".key": "Keynote presentations",
	".epub": "EPUB books",
}

var codeExt = set(".go", ".py", ".pyi", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".rs", ".java", ".kt", ".kts",
	".scala", ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".cs", ".fs", ".rb", ".php", ".swift", ".m", ".mm",
	".sh", ".bash", ".zsh", ".fish", ".ps1", ".sql", ".yaml", ".yml", ".toml", ".ini", ".cfg", ".conf", ".xml",
	".css", ".scss", ".sass", ".less", ".vue", ".svelte", ".lua", ".r", ".pl", ".pm", ".proto", ".graphql", ".gql",
	".mk", ".cmake", ".gradle", ".dart", ".ex", ".exs", ".erl", ".hrl", ".clj", ".hs", ".ml", ".mli", ".nim", ".zig",
	".tf", ".hcl", ".nix", ".el", ".vim", ".bat", ".cmd")

var binaryExt = set(".png", ".jpg", ".jpeg", ".gif", ".webp", ".ico", ".bmp", ".tif", ".tiff", ".heic", ".psd",
	".zip", ".gz", ".tgz", ".bz2", ".xz", ".zst", ".7z", ".rar", ".tar", ".jar", ".war", ".class", ".exe", ".dll",
	".so", ".dylib", ".o", ".a", ".lib", ".bin", ".dat", ".db", ".sqlite", ".sqlite3", ".woff", ".woff2", ".ttf",
	".otf", ".eot", ".mp3", ".mp4", ".m4a", ".mov", ".avi", ".mkv", ".webm", ".wav", ".flac", ".ogg",
	".iso", ".dmg", ".pyc", ".wasm", ".pack", ".idx")

func set(items ...string) map[string]bool {
	m := make(map[string]bool, len(items))
	for _, s := range items {
		m[s] = true
	}
	return m
}

func validFormat(f Format) bool {
	for _, g := range Formats {
		if f == g {
			return true
		}
	}
	return false
}

func formatList() string {
	s := make([]string, len(Formats))
	for i, f := range Formats {
		s[i] = string(f)
	}
	return strings.Join(s, ", ")
}

// decode returns data as normalized UTF-8 text, or false for binary data.
// Text with a UTF-16 or UTF-32 byte order mark is decoded from it; other
// text that is not UTF-8 is read as Latin-1.
func decode(data []byte) (string, bool) {
	if text, ok, wide := decodeWide(data); wide {
		return text, ok
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	head := data[:min(len(data), 8192)]
	if bytes.IndexByte(head, 0) >= 0 {
		return "", false
	}
	if utf8.Valid(data) {
		return normalize(string(data)), true
	}
	control := 0
	for _, b := range head {
		if b < 0x20 && b != '\n' && b != '\r' && b != '\t' && b != '\f' {
			control++
		}
	}
	if control*20 > len(head) || bytes.IndexByte(data, 0) >= 0 {
		return "", false
	}
	var b strings.Builder
	b.Grow(len(data) + len(data)/8)
	for _, c := range data {
		b.WriteRune(rune(c))
	}
	return normalize(b.String()), true
}

// decodeWide decodes text that starts with a UTF-32 or UTF-16 byte order
// mark (wide is false when data has none). Text holding NUL characters is
// binary (ok false), as in UTF-8.
func decodeWide(data []byte) (text string, ok, wide bool) {
	var runes []rune
	switch {
	case bytes.HasPrefix(data, []byte{0xff, 0xfe, 0, 0}):
		runes = utf32Runes(data[4:], binary.LittleEndian)
	case bytes.HasPrefix(data, []byte{0, 0, 0xfe, 0xff}):
		runes = utf32Runes(data[4:], binary.BigEndian)
	case bytes.HasPrefix(data, []byte{0xff, 0xfe}):
		runes = utf16.Decode(utf16Units(data[2:], binary.LittleEndian))
	case bytes.HasPrefix(data, []byte{0xfe, 0xff}):
		runes = utf16.Decode(utf16Units(data[2:], binary.BigEndian))
	default:
		return "", false, false
	}
	text = string(runes)
	if strings.IndexByte(text, 0) >= 0 {
		return "", false, true
	}
	return normalize(text), true, true
}

func utf16Units(b []byte, order binary.ByteOrder) []uint16 {
	out := make([]uint16, len(b)/2)
	for i := range out {
		out[i] = order.Uint16(b[2*i:])
	}
	return out
}

func utf32Runes(b []byte, order binary.ByteOrder) []rune {
	out := make([]rune, len(b)/4)
	for i := range out {
		r := rune(order.Uint32(b[4*i:]))
		if !utf8.ValidRune(r) {
			r = utf8.RuneError
		}
		out[i] = r
	}
	return out
}

// normalize makes line endings "\n".
func normalize(s string) string {
	if strings.IndexByte(s, '\r') < 0 {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// prettyJSON indents JSON that sits on very long lines so its lines can be
// searched and read back; other JSON is kept as written.
func prettyJSON(s string) string {
	long := false
	for line := range strings.SplitSeq(s, "\n") {
		if len(line) > 2000 {
			long = true
			break
		}
	}
	if !long || !json.Valid([]byte(s)) {
		return s
	}
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(strings.TrimSpace(s)), "", "  "); err != nil {
		return s
	}
	return b.String() + "\n"
}

var atxHeading = regexp.MustCompile(`^ {0,3}#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$`)

// firstHeading returns the text of the first ATX heading ("# Title").
func firstHeading(s string) string {
	for line := range strings.SplitSeq(s, "\n") {
		if m := atxHeading.FindStringSubmatch(line); m != nil {
			return m[1]
		}
	}
	return ""
}

// SizeOver says that size is over limit, with the exact byte counts when
// the rounded sizes would read the same ("10.0 MB; the limit is 10.0 MB").
func SizeOver(size, limit int64) string {
	s, l := HumanBytes(size), HumanBytes(limit)
	if s == l {
		return fmt.Sprintf("%s bytes; the limit is %s bytes (%s)", group(size), group(limit), l)
	}
	return fmt.Sprintf("%s; the limit is %s", s, l)
}

// group writes n with thousands separators: 10,485,760.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && c != '-' && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// HumanBytes formats n as "1.5 MB". It is mcpmanager/plain.Bytes' rule,
// written here because the built-in servers import nothing of mcpmanager
// (the manager runs them, not the reverse: layout_test.go).
func HumanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
