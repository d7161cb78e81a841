package config

import (
	"strconv"
	"strings"
)

// syntaxSentence says in plain words what encoding/json's message raw
// means at byte off of src (the JSON with comments blanked): "a value is
// missing after "B":" rather than "invalid character '}' looking for
// beginning of value", with the offset to show it at (a misspelt word's
// start, an escape's backslash). A message it does not know is returned as
// it is. The caller turns the offset into a line and a column.
func syntaxSentence(src []byte, off int, raw string) (int, string) {
	const prefix = "invalid character "
	if !strings.HasPrefix(raw, prefix) || off < 0 || off >= len(src) {
		return off, raw
	}
	// encoding/json quotes the character ('x', '\'', '\n'); what follows
	// the closing quote says where it was. The source byte at off is the
	// same character, unquoted.
	rest := raw[len(prefix):]
	q := strings.Index(rest[min(1, len(rest)):], "' ")
	if q < 0 {
		return off, raw
	}
	where := rest[q+3:]
	switch {
	case strings.HasPrefix(where, "in literal "):
		// "nul", "tru", or a word that happens to start like one ("npx").
		start := wordStart(src, off)
		return start, missingValue(src, start)
	case where == "in string escape code":
		return off - 1, `\` + string(src[off]) + ` is not an escape JSON knows: write \\ for a backslash (a Windows path is "C:\\Users\\…")`
	}
	if msg := sentenceAt(src, off, where); msg != "" {
		return off, msg
	}
	return off, raw
}

// sentenceAt is the sentence for the character at off, found where
// encoding/json's message says ("looking for beginning of value"), or "".
func sentenceAt(src []byte, off int, where string) string {
	c := src[off]
	switch {
	case where == "looking for beginning of value":
		return missingValue(src, off)
	case where == "looking for beginning of object key string":
		return missingName(src, off)
	case where == "after object key":
		return "a colon (:) is missing after the name " + quoted(keyBefore(src, off)) + `; write "name": value`
	case where == "after object key:value pair":
		if c == '"' {
			return "a comma (,) is missing before " + quoted(stringAt(src, off)) + ": put one after the value before it"
		}
		return "expected a comma (,) or the } that closes the object, found " + found(src, off)
	case where == "after array element":
		if startsValue(c) {
			return "a comma (,) is missing between two items of the list, before " + found(src, off)
		}
		return "expected a comma (,) or the ] that closes the list, found " + found(src, off)
	case where == "after top-level value":
		return "there is more text after the end of the JSON, starting with " + found(src, off) +
			": remove it, or look for a } or ] that closes too early"
	case where == "in string literal":
		return `a string holds a line break or a tab as typed: write it as \n or \t, or add the " that ends the string`
	case strings.HasPrefix(where, `in \u`):
		return `\u must be followed by four hexadecimal digits (\u00e9)`
	case strings.HasSuffix(where, "numeric literal"):
		return "the number before " + found(src, off) + " is not written as JSON: digits with an optional . and exponent, no leading + or 0"
	}
	return ""
}

// missingValue explains a character where a value belongs.
func missingValue(src []byte, off int) string {
	c := src[off]
	switch {
	case c == '}' || c == ']' || c == ',':
		if p := prevByte(src, off); p >= 0 && src[p] == ':' {
			return "a value is missing after " + quoted(keyBefore(src, p)) + ":"
		}
		return "a value is missing before " + found(src, off)
	case c == '\'':
		return `text takes double quotes ("…"), not single quotes`
	case isWordByte(c):
		w := word(src, off)
		return w + ` is not a JSON value: put text in double quotes ("` + w + `"); true, false and null are written in lower case`
	}
	return found(src, off) + " cannot start a value: expected text in double quotes, a number, {…}, […], true, false or null"
}

// missingName explains a character where an object's member name belongs.
func missingName(src []byte, off int) string {
	c := src[off]
	switch {
	case c == '\'':
		return `a name takes double quotes ("name"), not single quotes`
	case isWordByte(c):
		w := word(src, off)
		return "the name " + w + ` needs double quotes: "` + w + `"`
	}
	return `expected a name in double quotes ("name": value), found ` + found(src, off)
}

// found names what is at off: a word as it is, a line's end, or one character in quotes.
func found(src []byte, off int) string {
	c := src[off]
	switch {
	case isWordByte(c):
		return word(src, off)
	case c == '\n' || c == '\r':
		return "the end of the line"
	case c == '"':
		return quoted(stringAt(src, off))
	case c < ' ' || c >= 0x7f:
		return strconv.QuoteRune(rune(c))
	}
	return "'" + string(c) + "'"
}

// wordMax is how much of a word or name a sentence quotes.
const wordMax = 24

// word is the run of letters, digits, _, - and . at off, cut at wordMax.
func word(src []byte, off int) string {
	end := off
	for end < len(src) && isWordByte(src[end]) {
		end++
	}
	return cut(string(src[off:end]))
}

// wordStart is where the word around off begins.
func wordStart(src []byte, off int) int {
	for off > 0 && isWordByte(src[off-1]) {
		off--
	}
	return off
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

// startsValue reports whether c can begin a JSON value.
func startsValue(c byte) bool {
	return c == '"' || c == '{' || c == '[' || c == '-' || c >= '0' && c <= '9' || c == 't' || c == 'f' || c == 'n'
}

// prevByte is the offset of the last non-space byte before off, or -1.
func prevByte(src []byte, off int) int {
	for i := off - 1; i >= 0; i-- {
		if !isSpace(src[i]) {
			return i
		}
	}
	return -1
}

// keyBefore is the text of the string that ends just before off (spaces
// apart): the name a colon or a missing colon follows.
func keyBefore(src []byte, off int) string {
	end := prevByte(src, off)
	if end < 0 || src[end] != '"' {
		return ""
	}
	for i := end - 1; i >= 0; i-- {
		if src[i] == '"' && !escaped(src, i) {
			return cut(string(src[i+1 : end]))
		}
	}
	return ""
}

// stringAt is the text of the string whose opening quote is at off.
func stringAt(src []byte, off int) string {
	for i := off + 1; i < len(src); i++ {
		if src[i] == '"' && !escaped(src, i) {
			return cut(string(src[off+1 : i]))
		}
		if src[i] == '\n' {
			break
		}
	}
	return cut(string(src[off+1 : min(len(src), off+1+wordMax)]))
}

// escaped reports whether the quote at i follows an odd run of backslashes.
func escaped(src []byte, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && src[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// quoted is a name as the sentence shows it: in double quotes.
func quoted(s string) string { return `"` + s + `"` }

// cut shortens s to wordMax characters with an ellipsis.
func cut(s string) string {
	r := []rune(s)
	if len(r) <= wordMax {
		return s
	}
	return string(r[:wordMax]) + "…"
}
