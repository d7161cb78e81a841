package process

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// LoginShellTimeout bounds how long reading the login shell's PATH may take
// (a slow .zshrc must not block start-up).
var LoginShellTimeout = 3 * time.Second

// loginPATH is the PATH a login shell would give, read once per process.
var loginPATH = sync.OnceValue(func() string {
	own := os.Getenv("PATH")
	if runtime.GOOS == "windows" {
		return own
	}
	sh := os.Getenv("SHELL")
	if sh == "" {
		sh = "/bin/sh"
	}
	ctx, cancel := context.WithTimeout(context.Background(), LoginShellTimeout)
	defer cancel()
	// -l reads the profile where version managers (nvm, asdf, Homebrew) add
	// their directories; a marker separates PATH from anything rc files print.
	out, err := exec.CommandContext(ctx, sh, "-l", "-c", `printf '\n__SWITCHBOARD_PATH__%s' "$PATH"`).Output()
	if err != nil {
		return own
	}
	_, p, ok := strings.Cut(string(out), "__SWITCHBOARD_PATH__")
	if !ok {
		return own
	}
	return MergePATH(strings.TrimSpace(p), own)
})

// LoginPATH returns the PATH the user's login shell sets up, merged with the
// app's own PATH. GUI apps started from a desktop launcher do not inherit the
// shell's PATH, so npx, uvx or docker would otherwise be "not found".
func LoginPATH() string { return loginPATH() }

// MergePATH joins PATH lists, keeping the first occurrence of each entry.
func MergePATH(lists ...string) string {
	seen := map[string]bool{}
	var out []string
	for _, l := range lists {
		for _, d := range filepath.SplitList(l) {
			if d == "" || seen[d] {
				continue
			}
			seen[d] = true
			out = append(out, d)
		}
	}
	return strings.Join(out, string(os.PathListSeparator))
}

// LookPath resolves command against the PATH list path (not the app's own).
// A command containing a path separator is returned as is.
func LookPath(command, path string) (string, error) {
	if strings.ContainsAny(command, `/\`) {
		return command, nil
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		for _, ext := range executableExts() {
			p := filepath.Join(dir, command+ext)
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() && isExecutable(fi) {
				return p, nil
			}
		}
	}
	return "", &NotFoundError{Command: command, Err: exec.ErrNotFound}
}

func executableExts() []string {
	if runtime.GOOS != "windows" {
		return []string{""}
	}
	exts := []string{""}
	for _, e := range strings.Split(os.Getenv("PATHEXT"), ";") {
		if e != "" {
			exts = append(exts, strings.ToLower(e))
		}
	}
	if len(exts) == 1 {
		exts = append(exts, ".com", ".exe", ".bat", ".cmd")
	}
	return exts
}

func isExecutable(fi os.FileInfo) bool {
	return runtime.GOOS == "windows" || fi.Mode()&0o111 != 0
}
