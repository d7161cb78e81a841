package skills

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What a server says about its skills reaches the model (load_skill's
// description) and the screen (the server's page, 'skills list'), so it
// is cleaned first, and what the host sends back to the server is checked:
// a skill's name is an identifier (the last segment of its path) and is
// refused with any character a person cannot see; its description is
// kept, without such characters and cut at MaxDescription; no file path
// that could leave the skill's directory is ever sent.

// Limits on what one entry may say.
const (
	// MaxName bounds a skill's name (the Agent Skills format's limit).
	MaxName = 64
	// MaxDescription bounds a description as the model and the screen get
	// it, in characters (the Agent Skills format's limit); a longer one is
	// cut.
	MaxDescription = 1024
)

// ErrUnsafePath means a skill file's path could leave the skill's directory
// (a ".." or "." segment, an absolute path, a backslash, a control
// character); it is not sent to the server.
var ErrUnsafePath = errors.New("not a path within the skill")

// hidden reports the characters that change what a person sees without
// being seen: C0 and C1 controls, format characters (zero-width ones, the
// bidirectional marks U+200E/U+200F, embeddings and overrides
// U+202A–U+202E, isolates U+2066–U+2069, the BOM, the Unicode tag block),
// the line and paragraph separators, and invalid UTF-8.
func hidden(r rune) bool {
	return r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) ||
		r == '\u2028' || r == '\u2029' || r >= 0xE0000 && r <= 0xE007F
}

// Clean is s as the model and the screen may get it: one line, hidden
// characters dropped (line breaks and tabs become spaces, so a
// description cannot start a line of its own in a list), runs of spaces
// made one, at most max characters ("…" ending a cut one; 0: no limit).
func Clean(s string, max int) string {
	var b strings.Builder
	n, space := 0, false
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t' || r == '\u2028' || r == '\u2029' || unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case hidden(r):
			continue
		}
		if max > 0 && n == max {
			return strings.TrimRight(b.String(), " ") + "…"
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// checkName refuses a name a person could misread: empty, longer than
// MaxName bytes, or with a hidden character or a space.
func checkName(name string) error {
	switch {
	case name == "":
		return errors.New("its name is empty")
	case len(name) > MaxName:
		return fmt.Errorf("its name is %d bytes long (at most %d)", len(name), MaxName)
	case strings.IndexFunc(name, func(r rune) bool { return hidden(r) || unicode.IsSpace(r) }) >= 0:
		return fmt.Errorf("its name %q has invisible, control or space characters", name)
	}
	return nil
}

// CheckPath checks a file's path within a skill ("references/FORMS.md"):
// relative, '/'-separated, every segment non-empty, neither "." nor ".."
// (also when percent-encoded), with no backslash, control or invisible
// character. A path that fails is an ErrUnsafePath error and is never
// sent to a server.
func CheckPath(p string) error {
	bad := func(why string) error { return fmt.Errorf("%q is %w: %s", p, ErrUnsafePath, why) }
	switch {
	case p == "":
		return bad("it is empty")
	case strings.HasPrefix(p, "/"), len(p) > 1 && p[1] == ':':
		return bad("it is absolute; give the file's path within the skill, such as references/FORMS.md")
	}
	for _, seg := range strings.Split(p, "/") {
		dec, err := url.PathUnescape(seg)
		switch {
		case err != nil:
			return bad("it has a malformed %-escape")
		case seg == "" || dec == "":
			return bad("it has an empty segment")
		case dec == "." || dec == "..":
			return bad("it has a . or .. segment")
		case strings.ContainsAny(dec, `/\`):
			return bad("it has a backslash or an escaped slash")
		case strings.IndexFunc(dec, hidden) >= 0:
			return bad("it has a control or invisible character")
		}
	}
	return nil
}

// checkURI checks the path of a skill's URI after its scheme
// ("skill://pdf/SKILL.md": pdf/SKILL.md) as CheckPath does.
func checkURI(uri string) error {
	_, rest, ok := strings.Cut(uri, "://")
	if !ok {
		rest = uri
	}
	return CheckPath(rest)
}
