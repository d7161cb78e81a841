package cli

import (
	"fmt"
	"strings"
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
