package config

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strconv"
	"unicode/utf8"
)

// utf8BOM is dropped before parsing; editors on Windows like to add it.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// stripJSONC turns JSONC into JSON by overwriting comments and trailing commas
// with spaces. Every byte keeps its offset (newlines inside block comments are
// kept too), so an offset reported by encoding/json maps to the right
// line:column of the file the user edits. It returns the offset of an
// unterminated block comment, or -1.
func stripJSONC(data []byte) ([]byte, int) {
	out := bytes.Clone(data)
	inStr := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		if inStr {
			switch c {
			case '\\':
				i++
			case '"':
				inStr = false
			}
			continue
		}
		switch {
		case c == '"':
			inStr = true
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n' && out[i] != '\r'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			end := bytes.Index(out[i+2:], []byte("*/"))
			if end < 0 {
				return out, i
			}
			stop := i + 2 + end + 2
			for ; i < stop; i++ {
				if out[i] != '\n' && out[i] != '\r' {
					out[i] = ' '
				}
			}
			i--
		}
	}
	blankTrailingCommas(out)
	return out, -1
}

// blankTrailingCommas replaces a comma that is followed only by whitespace and
// a closing bracket. A comma right after an opening bracket or another comma
// is left alone: "[,]" and "[1,,]" are errors in JSONC too.
func blankTrailingCommas(b []byte) {
	inStr := false
	prev := byte(0) // last non-space byte outside strings
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inStr {
			switch c {
			case '\\':
				i++
			case '"':
				inStr = false
				prev = '"'
			}
			continue
		}
		if isSpace(c) {
			continue
		}
		if c == '"' {
			inStr = true
			continue
		}
		if c == ',' && prev != '[' && prev != '{' && prev != ',' {
			j := i + 1
			for j < len(b) && isSpace(b[j]) {
				j++
			}
			if j < len(b) && (b[j] == '}' || b[j] == ']') {
				b[i] = ' '
				continue
			}
		}
		prev = c
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// kind is the JSON type of a node.
type kind uint8

const (
	kindNull kind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

// article names a kind the way messages use it ("got a number").
func (k kind) article() string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

// node is one JSON value with its byte span, kept so problems can point at
// the exact place in the file and objects keep their key order.
type node struct {
	kind     kind
	off, end int    // byte span in the source
	text     string // decoded string, raw number text, "true"/"false"
	members  []member
	elems    []*node
}

type member struct {
	key string
	off int // offset of the key's opening quote
	val *node
}

// get returns the last member named key (last wins, as in JSON.parse), or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != kindObject {
		return nil
	}
	for i := len(n.members) - 1; i >= 0; i-- {
		if n.members[i].key == key {
			return n.members[i].val
		}
	}
	return nil
}

// doc is a parsed file: the text as written (for positions), the JSON text
// with comments blanked (same offsets), and its tree; root is nil when the
// file holds only whitespace and comments.
type doc struct {
	text  []byte
	src   []byte
	root  *node
	lines []int  // offsets where lines start, filled on first use
	marks []mark // rune counts every colStep bytes, filled on first use
	ctx   context.Context
}

// checkEvery is how many nodes or entries go by between two looks at the
// context, so a cancelled parse stops within microseconds at little cost.
const checkEvery = 256

// cancelled reports whether the parse was cancelled; the tree and the
// entries read so far are then incomplete and must not be used.
func (d *doc) cancelled() bool { return d.ctx != nil && d.ctx.Err() != nil }

// mark is a checkpoint for columns: runes is how many runes utf8.RuneCount
// finds in text[:off], and off starts a rune (or an invalid byte).
type mark struct{ off, runes int }

// colStep is the distance between marks. Finding a column counts runes from
// the nearest mark instead of from the start of the line, so a minified file
// (one line of megabytes) costs O(colStep) per position, not O(line).
const colStep = 256

// scanHook, when set (by tests), is told how many bytes each position
// lookup scans, so linear cost can be asserted without timing.
var scanHook func(n int)

func scanned(n int) {
	if scanHook != nil {
		scanHook(n)
	}
}

// syntaxError is a failure to read the text as JSON, with its byte offset.
type syntaxError struct {
	off int
	msg string
}

// parseDoc reads JSONC into a tree. data must already be free of a BOM.
func parseDoc(data []byte) (*doc, *syntaxError) {
	return parseDocContext(context.Background(), data)
}

// parseDocContext is parseDoc that stops building the tree when ctx ends;
// callers check ctx.Err() before using the doc.
func parseDocContext(ctx context.Context, data []byte) (*doc, *syntaxError) {
	src, open := stripJSONC(data)
	if open >= 0 {
		return nil, &syntaxError{open, "comment is never closed; add */ to end it"}
	}
	if len(bytes.TrimSpace(src)) == 0 {
		return &doc{text: data, src: src, ctx: ctx}, nil
	}
	// encoding/json does the validating, so the tree builder below only
	// ever sees valid JSON; its messages are put in plain words
	// (syntaxSentence).
	if err := json.Unmarshal(src, new(json.RawMessage)); err != nil {
		var se *json.SyntaxError
		if !errors.As(err, &se) {
			return nil, &syntaxError{0, err.Error()}
		}
		if se.Error() == "unexpected end of JSON input" {
			return nil, &syntaxError{len(src), "unexpected end of file; a closing } or ] or a value is missing"}
		}
		// Offset counts the offending byte itself.
		off, msg := syntaxSentence(src, max(int(se.Offset)-1, 0), se.Error())
		return nil, &syntaxError{off, msg}
	}
	b := &treeBuilder{src: src, ctx: ctx}
	return &doc{text: data, src: src, root: b.value(), ctx: ctx}, nil
}

// position converts a byte offset into a 1-based line and a 1-based column
// counted in characters. The first call indexes the text once (line starts
// and marks); every call after that scans at most 2*colStep bytes.
func (d *doc) position(off int) (line, col int) {
	if d.lines == nil {
		d.index()
	}
	off = min(max(off, 0), len(d.text))
	// The last line starting at or before off.
	i, found := slices.BinarySearch(d.lines, off)
	if !found {
		i--
	}
	return i + 1, 1 + d.runesBefore(off) - d.runesBefore(d.lines[i])
}

// index records where lines start and a mark every colStep bytes, decoding
// the way utf8.RuneCount does: a newline is always a rune of its own, so
// line starts are rune boundaries and columns match a count from the line.
func (d *doc) index() {
	scanned(len(d.text))
	d.lines = []int{0}
	d.marks = []mark{{0, 0}}
	next, runes := colStep, 0
	for i := 0; i < len(d.text); runes++ {
		if i >= next {
			d.marks = append(d.marks, mark{i, runes})
			next = i + colStep
		}
		c := d.text[i]
		if c < utf8.RuneSelf {
			if c == '\n' {
				d.lines = append(d.lines, i+1)
			}
			i++
			continue
		}
		_, size := utf8.DecodeRune(d.text[i:])
		i += size
	}
}

// runesBefore counts the runes of text[:off] from the nearest mark.
func (d *doc) runesBefore(off int) int {
	k, found := slices.BinarySearchFunc(d.marks, off, func(m mark, off int) int { return m.off - off })
	if !found {
		k--
	}
	m := d.marks[k]
	scanned(off - m.off)
	return m.runes + utf8.RuneCount(d.text[m.off:off])
}

// position locates one offset by scanning from the start; for a single
// lookup (a syntax error) indexing the whole text would cost the same.
func position(src []byte, off int) (line, col int) {
	off = min(max(off, 0), len(src))
	before := src[:off]
	line = 1 + bytes.Count(before, []byte{'\n'})
	start := bytes.LastIndexByte(before, '\n') + 1
	return line, 1 + utf8.RuneCount(before[start:])
}

// treeBuilder builds nodes from text already known to be valid JSON.
type treeBuilder struct {
	src   []byte
	i     int
	ctx   context.Context
	nodes int
}

func (b *treeBuilder) peek() byte {
	if b.i < len(b.src) {
		return b.src[b.i]
	}
	return 0
}

func (b *treeBuilder) skipSpace() {
	for b.i < len(b.src) && isSpace(b.src[b.i]) {
		b.i++
	}
}

func (b *treeBuilder) value() *node {
	b.skipSpace()
	n := &node{off: b.i}
	if b.nodes++; b.nodes%checkEvery == 0 && b.ctx.Err() != nil {
		b.i = len(b.src) // cancelled: every open value ends here
		n.end = b.i
		return n
	}
	switch c := b.peek(); c {
	case '{':
		n.kind = kindObject
		b.i++
		for {
			b.skipSpace()
			if b.peek() == '}' || b.peek() == 0 {
				b.i++
				break
			}
			if b.peek() == ',' {
				b.i++
				continue
			}
			koff := b.i
			key := b.string()
			b.skipSpace()
			b.i++ // ':'
			n.members = append(n.members, member{key: key, off: koff, val: b.value()})
		}
	case '[':
		n.kind = kindArray
		b.i++
		for {
			b.skipSpace()
			if b.peek() == ']' || b.peek() == 0 {
				b.i++
				break
			}
			if b.peek() == ',' {
				b.i++
				continue
			}
			n.elems = append(n.elems, b.value())
		}
	case '"':
		n.kind = kindString
		n.text = b.string()
	case 't':
		n.kind, n.text = kindBool, "true"
		b.i += 4
	case 'f':
		n.kind, n.text = kindBool, "false"
		b.i += 5
	case 'n':
		n.kind = kindNull
		b.i += 4
	default:
		n.kind = kindNumber
		for b.i < len(b.src) && bytes.IndexByte([]byte("+-0123456789.eE"), b.src[b.i]) >= 0 {
			b.i++
		}
		n.text = string(b.src[n.off:b.i])
	}
	b.i = min(b.i, len(b.src))
	n.end = b.i
	return n
}

// string reads a quoted string starting at b.i; escapes and non-ASCII go
// through encoding/json so decoding matches it exactly.
func (b *treeBuilder) string() string {
	start := b.i
	b.i++
	plain := true
	for b.i < len(b.src) {
		c := b.src[b.i]
		if c == '\\' {
			plain = false
			b.i += 2
			continue
		}
		b.i++
		if c == '"' {
			break
		}
		if c >= utf8.RuneSelf {
			plain = false
		}
	}
	b.i = min(b.i, len(b.src))
	if plain {
		return string(b.src[start+1 : max(b.i-1, start+1)])
	}
	var s string
	_ = json.Unmarshal(b.src[start:b.i], &s)
	return s
}

// raw returns the node's JSON text, compacted (comments became spaces).
func (d *doc) raw(n *node) json.RawMessage {
	var buf bytes.Buffer
	if err := json.Compact(&buf, d.src[n.off:n.end]); err != nil {
		return json.RawMessage(bytes.Clone(d.src[n.off:n.end]))
	}
	return buf.Bytes()
}

var simpleKey = regexp.MustCompile(`^[A-Za-z0-9_$@-]+$`)

// pathKey appends an object key to a dotted path, quoting keys that would be
// ambiguous in dotted form (mcpServers["my.server"]).
func pathKey(base, key string) string {
	if !simpleKey.MatchString(key) {
		return base + "[" + strconv.Quote(key) + "]"
	}
	if base == "" {
		return key
	}
	return base + "." + key
}

func pathIndex(base string, i int) string {
	return base + "[" + strconv.Itoa(i) + "]"
}
