package cli

import (
	"strings"
	"unicode/utf8"
)

// termSafe returns s with everything a terminal would act on removed, for
// printing text that came from a server or a model (tool results, errors,
// stderr lines, descriptions, elicitation messages). Such text is untrusted:
// raw, an escape sequence in it could move the cursor and overwrite what the
// user reads, retitle the window, write to the clipboard (OSC 52), or a bidi
// override could show a command other than the one that runs.
//
// Newlines and tabs stay. Escape sequences (CSI, OSC, DCS, APC, PM, SOS and
// two-byte ones) are dropped whole; every other C0 and C1 control, DEL, and
// the bidi embedding, override and isolate characters are dropped; invalid
// UTF-8 becomes U+FFFD (a lone byte such as 0x9b would be an 8-bit CSI to
// some terminals). --json output does not need it: encoding/json escapes
// controls itself, and must stay exact.
func termSafe(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
			i++
		case r == 0x1b: // ESC
			i = skipEscape(s, i+size)
		case r == 0x9b: // C1 CSI
			i = skipCSI(s, i+size)
		case r == 0x90 || r == 0x98 || r == 0x9d || r == 0x9e || r == 0x9f: // C1 DCS, SOS, OSC, PM, APC
			i = skipControlString(s, i+size)
		case r == '\n' || r == '\t':
			b.WriteByte(byte(r))
			i += size
		case r < 0x20 || (r >= 0x7f && r <= 0x9f) || isBidiControl(r):
			i += size
		default:
			b.WriteString(s[i : i+size])
			i += size
		}
	}
	return b.String()
}

// isPlain reports whether s is printable ASCII, newlines and tabs only: the
// common case, returned as is without allocating.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return true
}

// isBidiControl reports the characters that reorder the text after them
// (embeddings, overrides and isolates, as in "Trojan Source"). The plain
// marks (LRM, RLM, ALM) do not and stay.
func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// skipEscape returns the index after the escape sequence whose ESC ends at i.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch c := s[i]; {
	case c == '[':
		return skipCSI(s, i+1)
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		return skipControlString(s, i+1)
	case c >= 0x20 && c <= 0x2f: // intermediates, then one final byte: ESC ( B
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
			i++
		}
		if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
			i++
		}
		return i
	case c >= 0x30 && c <= 0x7e: // two-byte sequence: ESC c, ESC 7, ...
		return i + 1
	default: // a lone ESC: drop it, what follows is checked on its own
		return i
	}
}

// skipCSI returns the index after a control sequence's parameters,
// intermediates and final byte, starting at i (after ESC [ or C1 CSI).
func skipCSI(s string, i int) int {
	for i < len(s) && s[i] >= 0x30 && s[i] <= 0x3f {
		i++
	}
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipControlString returns the index after a control string (OSC, DCS, ...)
// whose body starts at body and ends with BEL, ESC \ or C1 ST. Without a
// terminator only the introducer (before body) is dropped: the rest is
// shown (and checked) as text rather than silently hidden.
func skipControlString(s string, body int) int {
	for j := body; j < len(s); j++ {
		switch {
		case s[j] == 0x07:
			return j + 1
		case s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\':
			return j + 2
		case s[j] == 0xc2 && j+1 < len(s) && s[j+1] == 0x9c: // U+009C ST
			return j + 2
		}
	}
	return body
}
