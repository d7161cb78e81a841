package shell

import (
	"os"
	"os/user"
	"path/filepath"
	"strings"
)

// MinimalEnv is the environment shells and scripts get: PATH (pathList,
// or the app's PATH when empty), HOME, USER, LANG and TERM. Nothing else
// of the app's environment is passed on, so API keys and tokens the app
// was started with stay out of reach of commands a model runs.
func MinimalEnv(pathList string) []string {
	if pathList == "" {
		pathList = os.Getenv("PATH")
	}
	if pathList == "" {
		pathList = "/usr/local/bin:/usr/bin:/bin"
	}
	home, _ := os.UserHomeDir()
	name := os.Getenv("USER")
	if name == "" {
		if u, err := user.Current(); err == nil {
			name = u.Username
		}
	}
	lang := os.Getenv("LANG")
	if lang == "" {
		lang = "C.UTF-8"
	}
	return []string{
		"PATH=" + pathList,
		"HOME=" + home,
		"USER=" + name,
		"LANG=" + lang,
		"TERM=xterm-256color",
	}
}

// LookPath finds an executable named name in the directories of pathList
// (a PATH value), as a shell with that PATH would.
func LookPath(name, pathList string) (string, error) {
	for _, dir := range filepath.SplitList(pathList) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // a relative PATH entry would depend on the working directory
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return "", os.ErrNotExist
}

// envValue returns the value of key in env (the last one wins, as in exec).
func envValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// withEnv returns env with key set to value.
func withEnv(env []string, key, value string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != key {
			out = append(out, kv)
		}
	}
	return append(out, key+"="+value)
}
