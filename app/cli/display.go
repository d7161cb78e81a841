package cli

import (
	"fmt"
	"io"
	"strings"
	"unicode"
)

// CheckDisplay says, in one sentence, why the window cannot open where
// there is no display to show it on (Linux and the BSDs, whose GTK needs
// DISPLAY or WAYLAND_DISPLAY: without either it fails with a panic), and
// what to do instead; nil where it can, or may. files are what the window
// was asked to open: a bundle can be installed without it.
func CheckDisplay(getenv func(string) string, goos string, files []string) error {
	switch goos {
	case "linux", "freebsd", "openbsd", "netbsd", "dragonfly":
	default:
		return nil // macOS and Windows always have their window server
	}
	if getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != "" {
		return nil
	}
	var bundles []string
	for _, f := range files {
		if strings.HasSuffix(strings.ToLower(f), ".mcpb") || strings.HasSuffix(strings.ToLower(f), ".dxt") {
			bundles = append(bundles, f)
		}
	}
	if len(bundles) > 0 {
		return fmt.Errorf("there is no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is set): install the bundle from here with 'switchboard servers install %s'", quoteArgs(bundles[0]))
	}
	return fmt.Errorf("there is no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is set): run Switchboard from your desktop session, or use a command here (see 'switchboard --help')")
}

// quoteArgs quotes a path for a shell when it needs it.
func quoteArgs(p string) string {
	if strings.ContainsAny(p, " \t\n'\"\\$`*?[]{}()<>|&;#~!") {
		return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
	}
	return p
}

// writeTable prints rows under a header in columns as text/tabwriter would
// (two spaces between columns, the last column as it is), but counts each
// cell's width in terminal columns (displayWidth), not in runes: a name
// with a wide (CJK) or combining character would otherwise shift every
// column after it on its line. Cells are printed as given.
func writeTable(w io.Writer, header []string, rows [][]string) error {
	lines := append([][]string{header}, rows...)
	var widths []int
	for _, l := range lines {
		for i, c := range l[:max(len(l)-1, 0)] {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], displayWidth(c))
		}
	}
	var b strings.Builder
	for _, l := range lines {
		for i, c := range l {
			b.WriteString(c)
			if i < len(l)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-displayWidth(c)+2))
			}
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// displayWidth is how many terminal columns s takes: wide and fullwidth
// characters (CJK, Hangul, fullwidth forms, most emoji) take two,
// combining marks, format characters and zero-width ones none, the others
// one (Markus Kuhn's wcwidth, on the ranges that matter for names).
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf) || r == 0x200B:
		case wide(r):
			n += 2
		default:
			n++
		}
	}
	return n
}

// wide reports an East Asian Wide or Fullwidth character (and the emoji
// terminals show two columns wide).
func wide(r rune) bool {
	return r >= 0x1100 && (r <= 0x115F || r == 0x2329 || r == 0x232A ||
		(r >= 0x2E80 && r <= 0xA4CF && r != 0x303F) ||
		(r >= 0xAC00 && r <= 0xD7A3) ||
		(r >= 0xF900 && r <= 0xFAFF) ||
		(r >= 0xFE30 && r <= 0xFE6F) ||
		(r >= 0xFF00 && r <= 0xFF60) ||
		(r >= 0xFFE0 && r <= 0xFFE6) ||
		(r >= 0x1F300 && r <= 0x1F64F) ||
		(r >= 0x1F900 && r <= 0x1F9FF) ||
		(r >= 0x20000 && r <= 0x3FFFD))
}
