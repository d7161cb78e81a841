package bundle

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/process"
)

// RuntimeVersion finds the version of an installed runtime ("node",
// "python"); "" when it is not installed. A variable so tests can pretend.
var RuntimeVersion = func(ctx context.Context, runtime string) string {
	cands := map[string][]string{"node": {"node"}, "python": {"python3", "python"}}[runtime]
	for _, c := range cands {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		out, err := exec.CommandContext(ctx, c, "--version").Output()
		cancel()
		if err == nil {
			if v := versionRE.FindString(string(out)); v != "" {
				return v
			}
		}
	}
	return ""
}

var versionRE = regexp.MustCompile(`\d+(\.\d+){0,2}`)

// IncompatibleError says why the bundle does not run here.
type IncompatibleError struct {
	Bundle string
	Why    string
}

func (e *IncompatibleError) Error() string {
	return fmt.Sprintf("%s cannot be installed: %s", e.Bundle, e.Why)
}

func (e *IncompatibleError) Unwrap() error { return ErrIncompatible }

// Compatible checks compatibility.platforms against platform ("" for this
// computer's) and compatibility.runtimes against the installed runtimes.
func (m *Manifest) Compatible(ctx context.Context, platform string) error {
	if platform == "" {
		platform = Platform()
	}
	c := m.Compatibility
	if c == nil {
		return nil
	}
	if len(c.Platforms) > 0 && !slices.Contains(c.Platforms, platform) {
		return &IncompatibleError{Bundle: m.Name, Why: fmt.Sprintf("it runs on %s only, and this computer is %s", strings.Join(c.Platforms, ", "), platform)}
	}
	for _, rt := range slices.Sorted(func(yield func(string) bool) {
		for k := range c.Runtimes {
			if !yield(k) {
				return
			}
		}
	}) {
		want := c.Runtimes[rt]
		if rt != "node" && rt != "python" {
			continue // a runtime this app does not check
		}
		have := RuntimeVersion(ctx, rt)
		if have == "" {
			return &IncompatibleError{Bundle: m.Name, Why: fmt.Sprintf("it needs %s %s, which is not installed: install it, then try again", rt, want)}
		}
		r, _ := parseRange(want) // Validate read it
		v, ok := parseSemver(padVersion(have))
		if ok && r.allows(v) {
			continue
		}
		why := fmt.Sprintf("it needs %s %s; you have %s", rt, want, have)
		switch {
		case !ok:
			why += fmt.Sprintf(", a version this app cannot read: install a %s in that range, then try again", rt)
		case r.outside(v) == belowRange:
			why += fmt.Sprintf(": update %s to a version in that range, then try again", rt)
		case r.outside(v) == aboveRange:
			why += fmt.Sprintf(", which is newer: install a %s in that range as well (%s keeps both) and put it first on your PATH, then try again", rt, versionManagers[rt])
		default:
			why += fmt.Sprintf(": install a %s in that range (%s keeps several), then try again", rt, versionManagers[rt])
		}
		return &IncompatibleError{Bundle: m.Name, Why: why}
	}
	return nil
}

// versionManagers keep several versions of a runtime side by side.
var versionManagers = map[string]string{"node": "nvm or fnm", "python": "pyenv or 'uv python install'"}

// padVersion makes an installed runtime's "3.12" a full version, 3.12.0.
func padVersion(v string) string {
	for strings.Count(v, ".") < 2 {
		v += ".0"
	}
	return v
}

// CommandFound reports whether command is on the PATH a server gets (the
// login shell's, then this process's). A variable so tests can pretend.
var CommandFound = func(command string) bool {
	_, err := process.LookPath(command, process.MergePATH(process.LoginPATH(), os.Getenv("PATH")))
	return err == nil
}

// getIt says where a runtime's command comes from.
var getIt = map[string]string{
	"uv": "uv (https://docs.astral.sh/uv/)", "uvx": "uv (https://docs.astral.sh/uv/)",
	"node": "Node.js (https://nodejs.org)", "npx": "Node.js (https://nodejs.org)",
	"python": "Python (https://www.python.org)", "python3": "Python (https://www.python.org)",
}

// MissingCommand is a warning when the program the server's command line
// starts on platform ("" for this computer's) is not installed, which
// compatibility.runtimes need not say (a uv bundle never does): the
// bundle installs, and its server will not start until it is. "" when the
// program is found, or is a file of the bundle.
func (m *Manifest) MissingCommand(platform string) string {
	cmd := m.Config(platform).Command
	if cmd == "" || strings.ContainsAny(cmd, `/\$`) || CommandFound(cmd) {
		return ""
	}
	what := "it"
	if g, ok := getIt[strings.TrimSuffix(strings.ToLower(cmd), ".exe")]; ok {
		what = g
	}
	return fmt.Sprintf("%s runs %q, which is not installed here (not on your PATH): install %s, or its server will not start", m.Name, cmd, what)
}
