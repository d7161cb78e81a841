package secrets

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"
)

// Redactor masks every known secret value in text. Safe for concurrent use.
//
// It is asked about everything a server sends (mcpmanager's router masks
// listings, results and errors with it), so reading takes no lock and
// costs nothing while no value is known, and one pass over the text
// whatever their number when some are: a 5 MB result with 50 values
// known is scanned once, not 50 times, and comes back as it was (not
// copied) when it holds none.
type Redactor struct {
	mu  sync.Mutex // serialises Add
	set atomic.Pointer[redactSet]
}

// NewRedactor returns an empty redactor.
func NewRedactor() *Redactor { return &Redactor{} }

// minRedact is the shortest value masked: shorter ones would mask ordinary words.
const minRedact = 6

// redactSet is what a Redactor knows at one time; never changed once made.
type redactSet struct {
	values []string // each value once
	// text finds the values, and the ways a JSON string spells them, in
	// text; each found is replaced by the value's Mask.
	text *matcher
	// json finds what a JSON text holding one of the values in a string
	// must contain, however the string is escaped (jsonNeedle).
	json *matcher
}

// Add registers values to mask.
func (r *Redactor) Add(values ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var have []string
	if s := r.set.Load(); s != nil {
		have = s.values
	}
	next := have
	for _, v := range values {
		if len(v) >= minRedact && !slices.Contains(next, v) {
			if len(next) == len(have) {
				next = slices.Clone(have)
			}
			next = append(next, v)
		}
	}
	if len(next) == len(have) {
		return
	}
	s := &redactSet{values: next}
	var text, needles []pattern
	for _, v := range next {
		mask := Mask(v)
		for _, sp := range spellings(v) {
			text = append(text, pattern{text: sp, mask: mask})
		}
		for _, n := range jsonNeedles(v) {
			needles = append(needles, pattern{text: n})
		}
	}
	s.text, s.json = newMatcher(text), newMatcher(needles)
	r.set.Store(s)
}

// Redact returns s with every registered value masked (••••last4, see
// Mask), or s itself when it holds none. The same value is masked the
// same way in every process: a pinned tool description stays the same
// across restarts.
func (r *Redactor) Redact(s string) string {
	set := r.set.Load()
	if set == nil {
		return s
	}
	return set.text.replace(s)
}

// Empty reports whether no value is registered: Redact then changes nothing.
func (r *Redactor) Empty() bool { return r.set.Load() == nil }

// InJSON reports whether the JSON text raw may hold a registered value in
// one of its strings (or keys), however the encoder escaped it (Go's
// \u003c for <, Python's \u00e9 for é, PHP's \/): when false, Redact
// would change none of its strings once decoded, so a caller relaying
// JSON as it came decodes it only when this says so. It may say true of
// text that holds none (the longest part of a value no encoder escapes
// is looked for); raw is only read.
func (r *Redactor) InJSON(raw []byte) bool {
	set := r.set.Load()
	if set == nil || len(raw) == 0 {
		return false
	}
	start, _ := set.json.index(unsafe.String(unsafe.SliceData(raw), len(raw)), 0)
	return start >= 0
}

// escapable are the ASCII characters some JSON encoder escapes inside a
// string: " and \ always, / (PHP), < > & (Go, Gson), = and ' (Gson).
const escapable = "\"\\/<>&='"

// jsonNeedles is what JSON holding v in a string contains whatever the
// encoder: the longest run of v's characters no encoder escapes (printable
// ASCII outside escapable), when it is long enough to look for, else
// every spelling of v.
func jsonNeedles(v string) []string {
	best, start := "", 0
	for i := 0; i <= len(v); i++ {
		if i < len(v) && v[i] >= 0x20 && v[i] < 0x7f && strings.IndexByte(escapable, v[i]) < 0 {
			continue
		}
		if i-start > len(best) {
			best = v[start:i]
		}
		start = i + 1
	}
	if len(best) >= matchWindow {
		return []string{best}
	}
	return spellings(v)
}

// spellings are v and the ways JSON encoders write it inside a string:
// with only what JSON requires escaped, with Go's and Gson's HTML escapes,
// non-ASCII as \uXXXX (Python's default) and / as \/ (PHP's), alone and
// together.
func spellings(v string) []string {
	out := []string{v}
	for flags := range escapeAll + 1 {
		if s := jsonString(v, flags); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// The escapes of jsonString beyond what JSON requires.
const (
	escapeHTML  = 1 << iota // < > & as \u003c \u003e \u0026 (Go)
	escapeGson              // = and ' as \u003d \u0027 too (Gson)
	escapeASCII             // every non-ASCII character as \uXXXX (Python)
	escapeSlash             // / as \/ (PHP)
	escapeAll   = escapeHTML | escapeGson | escapeASCII | escapeSlash
)

// jsonString is v as the inside of a JSON string, with the escapes flags
// name; the rest as encoding/json writes it.
func jsonString(v string, flags int) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // a string always encodes
	s := strings.TrimSuffix(b.String(), "\n")
	s = s[1 : len(s)-1]
	var out strings.Builder
	for _, c := range s {
		switch {
		case flags&(escapeHTML|escapeGson) != 0 && strings.ContainsRune("<>&", c),
			flags&escapeGson != 0 && (c == '=' || c == '\''):
			fmt.Fprintf(&out, `\u%04x`, c)
		case flags&escapeSlash != 0 && c == '/':
			out.WriteString(`\/`)
		case flags&escapeASCII != 0 && c >= utf8.RuneSelf:
			for _, u := range utf16Units(c) {
				fmt.Fprintf(&out, `\u%04x`, u)
			}
		default:
			out.WriteRune(c)
		}
	}
	return out.String()
}

// utf16Units is c in UTF-16: one unit, or a surrogate pair.
func utf16Units(c rune) []rune {
	if c < 0x10000 {
		return []rune{c}
	}
	c -= 0x10000
	return []rune{0xd800 + c>>10, 0xdc00 + c&0x3ff}
}

// matchWindow is how many leading bytes of each pattern the matcher's
// shift table looks at: every pattern is at least minRedact long.
const matchWindow = minRedact

// pattern is one text to find, and what replaces it.
type pattern struct{ text, mask string }

// matcher finds the leftmost of many patterns in one pass over a text, at
// about the same speed whatever their number (Wu–Manber): a table says,
// for the two bytes ending a window of matchWindow bytes, how far no
// pattern can start, and the windows it does not skip are looked up by
// their bytes.
type matcher struct {
	shift [1 << 16]uint8
	// cands are the patterns by their first matchWindow bytes, longest
	// first, so that a value holding another is masked whole.
	cands map[string][]pattern
}

// newMatcher builds the matcher of patterns, each at least matchWindow
// bytes long.
func newMatcher(patterns []pattern) *matcher {
	m := &matcher{cands: map[string][]pattern{}}
	for i := range m.shift {
		m.shift[i] = matchWindow - 1
	}
	for _, p := range patterns {
		for j := 2; j <= matchWindow; j++ {
			b := uint16(p.text[j-2]) | uint16(p.text[j-1])<<8
			m.shift[b] = min(m.shift[b], uint8(matchWindow-j))
		}
		k := p.text[:matchWindow]
		if !slices.ContainsFunc(m.cands[k], func(q pattern) bool { return q.text == p.text }) {
			m.cands[k] = append(m.cands[k], p)
		}
	}
	for _, ps := range m.cands {
		// Longest first, then by text: the same choice in every process.
		slices.SortFunc(ps, func(a, b pattern) int {
			if d := len(b.text) - len(a.text); d != 0 {
				return d
			}
			return strings.Compare(a.text, b.text)
		})
	}
	return m
}

// index is where the leftmost pattern at or after from starts in s, and
// that pattern; -1 when none is there.
func (m *matcher) index(s string, from int) (int, pattern) {
	for pos := from + matchWindow - 1; pos < len(s); {
		if sh := m.shift[uint16(s[pos-1])|uint16(s[pos])<<8]; sh > 0 {
			pos += int(sh)
			continue
		}
		start := pos - matchWindow + 1
		for _, p := range m.cands[s[start:pos+1]] {
			if strings.HasPrefix(s[start:], p.text) {
				return start, p
			}
		}
		pos++
	}
	return -1, pattern{}
}

// replace is s with each pattern found replaced by its mask, left to
// right; s itself when none is found.
func (m *matcher) replace(s string) string {
	i, p := m.index(s, 0)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for i >= 0 {
		b.WriteString(s[last:i])
		b.WriteString(p.mask)
		last = i + len(p.text)
		i, p = m.index(s, last)
	}
	b.WriteString(s[last:])
	return b.String()
}
