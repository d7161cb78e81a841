package process

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
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

// LoginPATHFile keeps the login shell's PATH between processes ("": kept
// in none), so that a process started by an MCP client (one 'switchboard
// serve' per client session) starts its servers without waiting for the
// shell: a profile that loads nvm, pyenv or conda takes half a second or
// more, and a client such as Codex lists the tools of a server it started
// a second before. A kept PATH is used while the shell, HOME, the PATH
// the process was given and the profile files are as they were when it
// was read and its folders are there as they were; past LoginPATHRefresh
// the shell is asked again in the background for the next process.
var LoginPATHFile = func() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "switchboard", "login-path.json")
}()

// LoginPATHRefresh is the age past which a kept login PATH is read again
// (in the background: this process uses the kept one).
var LoginPATHRefresh = time.Hour

// profiles are the files a login shell reads that may set PATH; a change
// to one (its size or modification time) makes a kept PATH stale.
var profiles = []string{
	"/etc/profile", "/etc/zprofile", "/etc/zsh/zprofile", "/etc/zshenv", "/etc/zsh/zshenv",
	"~/.profile", "~/.bash_profile", "~/.bash_login", "~/.bashrc",
	"~/.zshenv", "~/.zprofile", "~/.zlogin", "~/.zshrc", "~/.config/fish/config.fish",
}

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
	p, refresh := readLoginPATH(sh, own, LoginPATHFile)
	if refresh != nil {
		go refresh()
	}
	return p
})

// readLoginPATH is the PATH the login shell sh gives, merged with own: as
// kept in file when it is still good, else asked and kept. refresh, when
// not nil, asks again and keeps the answer for the next process (the kept
// one is older than LoginPATHRefresh).
func readLoginPATH(sh, own, file string) (path string, refresh func()) {
	key := loginKey(sh, own)
	if p, at, ok := keptPATH(file, key); ok {
		if time.Since(at) > LoginPATHRefresh {
			refresh = func() {
				if p, ok := askShell(sh); ok {
					keepPATH(file, key, p)
				}
			}
		}
		return MergePATH(p, own), refresh
	}
	p, ok := askShell(sh)
	if !ok {
		return own, nil
	}
	keepPATH(file, key, p)
	return MergePATH(p, own), nil
}

// askShell runs sh as a login shell and returns the PATH it sets up.
func askShell(sh string) (string, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), LoginShellTimeout)
	defer cancel()
	// -l reads the profile where version managers (nvm, asdf, Homebrew) add
	// their directories; a marker separates PATH from anything rc files print.
	out, err := exec.CommandContext(ctx, sh, "-l", "-c", `printf '\n__SWITCHBOARD_PATH__%s' "$PATH"`).Output()
	if err != nil {
		return "", false
	}
	_, p, ok := strings.Cut(string(out), "__SWITCHBOARD_PATH__")
	if !ok {
		return "", false
	}
	return strings.TrimSpace(p), true
}

// loginKey is what a kept login PATH must have been read under: the
// shell, HOME, the process's own PATH and each profile file's size and
// modification time.
func loginKey(sh, own string) string {
	home, _ := os.UserHomeDir()
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s", sh, home, own)
	for _, p := range profiles {
		if rest, ok := strings.CutPrefix(p, "~/"); ok {
			if home == "" {
				continue
			}
			p = filepath.Join(home, rest)
		}
		if fi, err := os.Stat(p); err == nil {
			fmt.Fprintf(h, "\x00%s\x00%d\x00%d", p, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// keptLogin is LoginPATHFile's content.
type keptLogin struct {
	Key  string    `json:"key"`
	PATH string    `json:"path"`
	Dirs string    `json:"dirs"` // which of PATH's folders were there (present)
	At   time.Time `json:"at"`
}

// present says, for each folder of the PATH list p, whether it is there
// ("1") or not ("0"): a version manager's folder that came or went since
// a PATH was kept (a Node version removed) makes the kept PATH stale.
func present(p string) string {
	var b strings.Builder
	for _, d := range filepath.SplitList(p) {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}

// keptPATH is the PATH kept in file under key, and when it was read.
func keptPATH(file, key string) (string, time.Time, bool) {
	if file == "" {
		return "", time.Time{}, false
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", time.Time{}, false
	}
	var k keptLogin
	if json.Unmarshal(b, &k) != nil || k.Key != key || k.PATH == "" || present(k.PATH) != k.Dirs {
		return "", time.Time{}, false
	}
	return k.PATH, k.At, true
}

// keepPATH writes p to file under key (through a temporary file renamed
// over it: another process may be reading it). Best effort: a PATH not
// kept is read again by the next process.
func keepPATH(file, key, p string) {
	if file == "" {
		return
	}
	b, err := json.Marshal(keptLogin{Key: key, PATH: p, Dirs: present(p), At: time.Now()})
	if err != nil || os.MkdirAll(filepath.Dir(file), 0o700) != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(file), ".login-path-*")
	if err != nil {
		return
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), file)
	}
	if err != nil {
		_ = os.Remove(f.Name())
	}
}

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
