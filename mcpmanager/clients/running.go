package clients

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// Running says whether a process with one of the executable names runs
// for this user (Linux reads /proc; macOS asks ps, Windows tasklist). It
// is a hint for "restart the app to see the change": false when it
// cannot tell.
func Running(names []string) bool {
	if len(names) == 0 {
		return false
	}
	for _, n := range processNames() {
		if slices.Contains(names, n) {
			return true
		}
	}
	return false
}

func processNames() []string {
	switch runtime.GOOS {
	case "linux":
		var out []string
		dirs, _ := filepath.Glob("/proc/[0-9]*/comm")
		for _, p := range dirs {
			if b, err := os.ReadFile(p); err == nil {
				out = append(out, strings.TrimSpace(string(b)))
			}
		}
		return out
	case "windows":
		return command("tasklist", "/fo", "csv", "/nh")
	default:
		return command("ps", "-A", "-o", "comm=")
	}
}

// command runs a process lister and returns each line's program name.
func command(name string, args ...string) []string {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	b, err := exec.CommandContext(ctx, name, args...).Output()
	if err != nil {
		return nil
	}
	var out []string
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, `"`) { // tasklist's CSV: "Code.exe","1234",…
			line, _, _ = strings.Cut(strings.TrimPrefix(line, `"`), `"`)
			line = strings.TrimSuffix(line, ".exe")
		}
		out = append(out, filepath.Base(line))
	}
	return out
}
