package plain

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Shown is text from a model or a server (a tool call's arguments, a
// sampling request) as a person who decides on it reads it: Text is what to
// show, Hidden how many characters of the original are not in it (0: all
// of it is, written out).
type Shown struct {
	Text   string
	Hidden int
	Bytes  int // the original's size
}

// Note is the sentence a question adds when part of the text is not shown,
// so an approval never covers a hidden part silently; "" when all of it is
// shown.
func (s Shown) Note() string {
	if s.Hidden == 0 {
		return ""
	}
	return fmt.Sprintf("%s characters in the middle (of %s in all) are not shown here; allowing it allows them too.", count(s.Hidden), Bytes(int64(s.Bytes)))
}

// The runs Show writes as a count instead of as themselves: more than
// blankRun spaces or tabs, more than breakRun line breaks, more than
// sameRun of one written-out character. The window's approval card
// (frontend/src/visible.ts) uses the same numbers.
const (
	blankRun = 32
	breakRun = 4
	sameRun  = 8
)

// Show returns s as a person approving what it does must see it, in about
// max characters: what a text shows raw can differ from what it is, and an
// approval is only worth what the person saw. So every character that is
// invisible or changes how the text around it looks is written out as its
// code, and long blank runs are counted, each visibly:
//
//   - controls (ESC, CR, DEL, C1; a newline and a tab stay), format
//     characters (zero-width spaces and joiners, the bidirectional marks,
//     embeddings, overrides and isolates, the BOM, the soft hyphen, tag
//     characters), variation selectors, the other default-ignorable
//     characters (the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0,
//     the combining grapheme joiner), spaces other than U+0020, line and
//     paragraph separators, private-use and unassigned characters, and the
//     braille blank are written \u202E (\U000E0041 beyond the BMP, \r for
//     a carriage return); a byte that is not UTF-8 is written \xFF;
//   - more than 32 spaces or tabs in a row are written [600 spaces] (or
//     tabs, or spaces and tabs), more than 4 line breaks [40 line breaks],
//     more than 8 of one written-out character [600 × \u200B].
//
// When what that gives is longer than max characters, its head and its
// tail are shown, each about max/2, with [… N characters not shown …]
// between them: a tail padded out of sight stays in sight. Hidden counts
// them, and Note says so in words.
func Show(s string, max int) Shown {
	total := 0
	for i := 0; i < len(s); {
		t := next(s, i)
		total += t.width
		i = t.end
	}
	out := Shown{Bytes: len(s)}
	head, tail := total, total
	if total > max {
		head, tail = max/2, total-(max-max/2)
	}
	var b strings.Builder
	b.Grow(min(total, max) + 64)
	pos, marked := 0, false
	mark := func() { // once, where the hidden middle is
		if out.Hidden > 0 && !marked {
			fmt.Fprintf(&b, "[… %s characters not shown …]", count(out.Hidden))
			marked = true
		}
	}
	for i := 0; i < len(s); {
		t := next(s, i)
		switch {
		case pos+t.width <= head: // the head is a prefix, the tail a suffix
			b.WriteString(t.text)
		case pos >= tail:
			mark()
			b.WriteString(t.text)
		default:
			out.Hidden += t.chars
		}
		pos += t.width
		i = t.end
	}
	mark()
	out.Text = b.String()
	return out
}

// token is one piece of Show's text: what it shows, where in s it ends,
// how many characters of s it stands for and how many it shows.
type token struct {
	text         string
	end          int
	chars, width int
}

// next is the token that starts at s[i].
func next(s string, i int) token {
	if c := s[i]; c > ' ' && c < 0x7f { // printable ASCII, the common case
		return token{text: s[i : i+1], end: i + 1, chars: 1, width: 1}
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		return written(`\x`+hex(uint32(s[i]), 2), i+1, 1)
	case r == ' ' || r == '\t':
		if end, n := run(s, i, func(r rune) bool { return r == ' ' || r == '\t' }); n > blankRun {
			return written(fmt.Sprintf("[%s %s]", count(n), blanks(s[i:end])), end, n)
		}
	case r == '\n':
		if end, n := run(s, i, func(r rune) bool { return r == '\n' }); n > breakRun {
			return written(fmt.Sprintf("[%s line breaks]", count(n)), end, n)
		}
	case Invisible(r):
		if end, n := run(s, i, func(c rune) bool { return c == r }); n > sameRun {
			return written(fmt.Sprintf("[%s × %s]", count(n), code(r)), end, n)
		}
		return written(code(r), i+size, 1)
	}
	return token{text: s[i : i+size], end: i + size, chars: 1, width: 1}
}

// written is a token that shows text for chars characters of s.
func written(text string, end, chars int) token {
	return token{text: text, end: end, chars: chars, width: utf8.RuneCountInString(text)}
}

// run is where the run of characters in s from i for which in holds ends,
// and how many characters it has.
func run(s string, i int, in func(rune) bool) (end, n int) {
	for end = i; end < len(s); {
		r, size := utf8.DecodeRuneInString(s[end:])
		if (r == utf8.RuneError && size == 1) || !in(r) {
			break
		}
		end += size
		n++
	}
	return end, n
}

// blanks names a run of spaces and tabs.
func blanks(s string) string {
	switch {
	case !strings.Contains(s, "\t"):
		return "spaces"
	case !strings.Contains(s, " "):
		return "tabs"
	}
	return "spaces and tabs"
}

// Invisible reports the characters Show writes out as their code: those
// that do not show as themselves (see Show). A newline, a tab and U+0020
// are not among them.
func Invisible(r rune) bool {
	switch {
	case r == ' ' || r == '\n' || r == '\t':
		return false
	case r == 0x2800: // braille pattern blank: drawn as nothing
		return true
	case !unicode.IsGraphic(r), // controls, format, private use, unassigned, line and paragraph separators
		unicode.Is(unicode.Zs, r), // spaces other than U+0020: U+00A0, U+2000–U+200A, U+3000, …
		unicode.In(r, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point):
		return true
	}
	return false
}

// code writes r out: \r, \u202E, \U000E0041. (Without fmt: a text of
// nothing else is written out character by character, twice.)
func code(r rune) string {
	switch {
	case r == '\r':
		return `\r`
	case r > 0xFFFF:
		return `\U` + hex(uint32(r), 8)
	}
	return `\u` + hex(uint32(r), 4)
}

// hex is v in n upper-case hex digits.
func hex(v uint32, n int) string {
	const digits = "0123456789ABCDEF"
	b := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		b[i] = digits[v&0xF]
		v >>= 4
	}
	return string(b)
}

// count is n with its thousands separated: 12,345.
func count(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
