// Package filename is the one check of file names that come from outside
// Switchboard (an MCP App's downloads, an MCP Bundle's entries and the
// folder named after it, a server's name in its log file's) against what
// any desktop system would misread or refuse: Windows' reserved device
// names (CON, PRN, AUX, NUL, COM0–COM9, LPT0–LPT9, their superscript
// forms COM¹–COM³ and LPT¹–LPT³, CONIN$ and CONOUT$), with any extension
// and trailing spaces ("con .txt"); trailing dots and spaces, which
// Windows drops; path separators and the characters Windows refuses
// (<>:"|?*); control, bidirectional and other invisible characters;
// invalid UTF-8; "." and ".."; and names longer than MaxBytes.
//
// Check refuses such a name (for a name that must be kept as it is, such
// as a bundle's entry); Sanitize makes one safe (for a name only offered,
// such as a download's). A name Sanitize returns passes Check.
package filename

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxBytes bounds a name: 255 bytes is every common file system's limit.
const MaxBytes = 255

// ErrUnsafe means a name is not safe to write on every system; the error says
// why.
var ErrUnsafe = errors.New("not a safe file name")

// forbidden are the characters Windows refuses in a name, path separators
// included.
const forbidden = `<>:"/\|?*`

// reserved are Windows' device names, upper case: a file named one (with
// any extension) opens the device instead.
var reserved = func() map[string]bool {
	m := map[string]bool{"CON": true, "PRN": true, "AUX": true, "NUL": true, "CONIN$": true, "CONOUT$": true}
	for _, d := range []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³"} {
		m["COM"+d], m["LPT"+d] = true, true
	}
	return m
}()

// Reserved reports whether name is a Windows device name: its part before
// the first dot, trailing spaces dropped, in any case.
func Reserved(name string) bool {
	stem, _, _ := strings.Cut(name, ".")
	return reserved[strings.ToUpper(strings.TrimRight(stem, " "))]
}

// invisible reports a character a person does not see or that reorders
// what they see: C0 and C1 controls, format characters (zero-width ones,
// the bidirectional marks, embeddings, overrides and isolates, the BOM,
// the tag block) and the line and paragraph separators.
func invisible(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

// Check returns nil when name is safe to write as one file's name on
// every system, else an ErrUnsafe error that says why.
func Check(name string) error {
	bad := func(why string) error { return fmt.Errorf("%q is %w: %s", name, ErrUnsafe, why) }
	switch {
	case name == "":
		return bad("it is empty")
	case name == "." || name == "..":
		return bad("it names a folder, not a file")
	case len(name) > MaxBytes:
		return bad(fmt.Sprintf("it is %d bytes long (at most %d)", len(name), MaxBytes))
	case !utf8.ValidString(name):
		return bad("it is not valid UTF-8")
	case strings.ContainsAny(name, `/\`):
		return bad("it has a path separator")
	case strings.IndexFunc(name, invisible) >= 0:
		return bad("it has a control or invisible character")
	case strings.ContainsAny(name, forbidden):
		return bad(`it has one of <>:"|?*, which Windows refuses`)
	case strings.HasSuffix(name, ".") || strings.HasSuffix(name, " "):
		return bad("it ends in a dot or a space, which Windows drops")
	case Reserved(name):
		return bad("it is a device name on Windows")
	}
	return nil
}

// Sanitize makes name safe as Check says: invalid UTF-8, control and
// invisible characters, path separators and <>:"|?* are dropped, runs of
// white space become one space, leading spaces and trailing dots and
// spaces go, a device name gets a "_" in front, and a name longer than
// MaxBytes is cut at a character. It returns "" when nothing is left (or
// only "." or ".."); the caller chooses a name then.
func Sanitize(name string) string {
	var b strings.Builder
	space := false
	for _, r := range name {
		switch {
		case r == utf8.RuneError, invisible(r), strings.ContainsRune(forbidden, r):
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	name = b.String()
	if Reserved(name) {
		name = "_" + name
	}
	for len(name) > MaxBytes {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	name = strings.TrimRight(name, ". ")
	if name == "." || name == ".." {
		return ""
	}
	return name
}
