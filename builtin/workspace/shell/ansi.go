package shell

import (
	"strings"
	"unicode/utf8"
)

// Strip turns raw terminal output into plain text for a model: escape
// sequences (colours, cursor movement, titles, OSC and DCS strings) are
// removed, "\r\n" becomes "\n", a lone "\r" rewrites its line (as
// progress bars use it), backspace erases, other control characters go.
// Invalid UTF-8 becomes U+FFFD.
func Strip(b []byte) string {
	out := make([]byte, 0, len(b))
	lineStart := 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == 0x1b:
			i = skipEscape(b, i)
		case c == '\r':
			j := i
			for j+1 < len(b) && b[j+1] == '\r' {
				j++
			}
			if j+1 < len(b) && b[j+1] != '\n' {
				out = out[:lineStart] // the line is drawn again
			}
			i = j
		case c == '\n':
			out = append(out, '\n')
			lineStart = len(out)
		case c == '\b':
			if len(out) > lineStart {
				_, size := utf8.DecodeLastRune(out[lineStart:])
				out = out[:len(out)-size]
			}
		case c == '\t':
			out = append(out, c)
		case c < 0x20 || c == 0x7f:
			// bell, shift in/out, ...: nothing to read
		default:
			out = append(out, c)
		}
	}
	return strings.ToValidUTF8(string(out), "\uFFFD")
}

// skipEscape returns the index of the last byte of the escape sequence
// starting at b[i] (an ESC); an unterminated one runs to the end of b.
func skipEscape(b []byte, i int) int {
	if i+1 >= len(b) {
		return i
	}
	switch b[i+1] {
	case '[': // CSI: parameter and intermediate bytes, then a final byte
		for j := i + 2; j < len(b); j++ {
			if b[j] >= 0x40 && b[j] <= 0x7e {
				return j
			}
		}
		return len(b) - 1
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC: up to BEL or ST (ESC \)
		for j := i + 2; j < len(b); j++ {
			if b[j] == 0x07 {
				return j
			}
			if b[j] == 0x1b && j+1 < len(b) && b[j+1] == '\\' {
				return j + 1
			}
		}
		return len(b) - 1
	case '(', ')', '*', '+', '-', '.', '/', '#', '%', ' ': // one more byte (charset, line size)
		return min(i+2, len(b)-1)
	default: // ESC 7, ESC =, ESC M, ...
		return i + 1
	}
}
