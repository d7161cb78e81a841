package plain

import "strings"

// Clip returns s cut to its first n characters (runes, so a cut never
// splits one) with "…" after them, or s itself when it is no longer. It is
// how a long value is quoted in a message: a tool's arguments in an
// approval question, a server's cursor in an error.
func Clip(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j] + "…"
		}
		i++
	}
	return s
}

// FirstLine returns the first line of s without the space around it,
// clipped to n characters (Clip): the one-line purpose of a tool or an
// agent taken from its description.
func FirstLine(s string, n int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return Clip(s, n)
}
