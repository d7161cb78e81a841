package host

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// Roots is which folders a server is offered as its MCP roots, and why.
type Roots struct {
	Folders []string
	// Rule names the rule that chose them: "list" (its entry lists them),
	// "configured" (the folders its arguments name), "workspace", "both" or
	// "none".
	Rule string
	// Mode is the entry's setting (config.RootsModes; "auto" when unset).
	Mode string
	// Configured are the folders its arguments name, whatever the rule.
	Configured []string
}

// rootsOf decides a server's roots. Its meaning comes first: a server set
// up with folders keeps them (the real server-filesystem replaces the
// folders in its arguments with the roots it is offered, so offering the
// workspace would take them away), one set up without any works in the
// workspace. The entry's "roots" (a list, or a mode word) overrides that.
func rootsOf(s mcpmanager.ServerConfig, mode string, workspace string) Roots {
	r := Roots{Mode: mode, Configured: ConfiguredFolders(s.Args, s.Dir)}
	if r.Mode == "" {
		r.Mode = config.RootsAuto
	}
	switch {
	case len(s.Roots) > 0:
		r.Rule, r.Folders = "list", slices.Clone(s.Roots)
	case mode == config.RootsNone:
		r.Rule, r.Folders = config.RootsNone, []string{}
	case mode == config.RootsWorkspace:
		r.Rule, r.Folders = config.RootsWorkspace, []string{workspace}
	case mode == config.RootsConfigured:
		r.Rule, r.Folders = config.RootsConfigured, slices.Clone(r.Configured)
	case mode == config.RootsBoth:
		r.Rule, r.Folders = config.RootsBoth, appendNew(slices.Clone(r.Configured), workspace)
	case len(r.Configured) > 0:
		r.Rule, r.Folders = config.RootsConfigured, slices.Clone(r.Configured)
	default:
		r.Rule, r.Folders = config.RootsWorkspace, []string{workspace}
	}
	if r.Folders == nil {
		r.Folders = []string{}
	}
	return r
}

func appendNew(list []string, v string) []string {
	if slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}

// launcherDirFlags take a folder that is where the server's own code is,
// not a folder it is meant to work in (uv run --directory, npm --prefix).
var launcherDirFlags = map[string]bool{
	"--directory": true, "--project": true, "--prefix": true, "--cwd": true,
	"-C": true, "--from": true, "--with": true, "--cache-dir": true,
}

// ConfiguredFolders are the existing folders a server's arguments name
// (positional, "--flag=DIR" or "--flag DIR"; "~/" expanded, a relative one
// taken from its working directory), in order and without repeats. Files
// (a script) and the launcher's own folders are not folders to work in.
func ConfiguredFolders(args []string, cwd string) []string {
	var out []string
	skipNext := false
	for _, a := range args {
		if skipNext {
			skipNext = false
			continue
		}
		cand := a
		if strings.HasPrefix(a, "-") {
			flag, v, ok := strings.Cut(a, "=")
			if launcherDirFlags[flag] {
				skipNext = !ok
				continue
			}
			if !ok {
				continue
			}
			cand = v
		}
		if cand == "" || strings.Contains(cand, "://") || strings.HasPrefix(cand, "@") {
			continue
		}
		cand = expandHome(cand)
		if !filepath.IsAbs(cand) {
			// A bare word ("stdio", a package name) is not a folder unless
			// it names one beside a working directory the entry sets.
			if cwd == "" || !strings.ContainsAny(cand, `/\.`) {
				continue
			}
			cand = filepath.Join(cwd, cand)
		}
		cand = filepath.Clean(cand)
		if fi, err := os.Stat(cand); err == nil && fi.IsDir() && !slices.Contains(out, cand) {
			out = append(out, cand)
		}
	}
	return out
}

// expandHome turns "~" and "~/x" into the user's home folder (+ "/x").
func expandHome(p string) string {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return p
	}
	return filepath.Join(home, p[1:])
}

// withRoots gives each spec its roots (rootsOf) from its entry in servers
// (the same order and length, as Specs returns them), and returns what was
// decided per server: switching the workspace then tells each server that
// uses it (notifications/roots/list_changed).
func withRoots(specs []mcpmanager.ServerConfig, servers []Server, workspaceRoot string) ([]mcpmanager.ServerConfig, map[string]Roots) {
	decided := make(map[string]Roots, len(specs))
	for i := range specs {
		mode := ""
		if i < len(servers) {
			mode = servers[i].RootsMode
		}
		r := rootsOf(specs[i], mode, workspaceRoot)
		specs[i].Roots = r.Folders
		decided[specs[i].Name] = r
	}
	return specs, decided
}
