package config

import (
	"os"
	"path/filepath"
	"runtime"
)

// Env is what Discover looks at. Tests build one around a temporary
// directory; SystemEnv describes the real machine.
type Env struct {
	GOOS    string              // "linux", "darwin", "windows"
	Home    string              // the user's home directory
	WorkDir string              // a project directory to search too; "" skips project files
	Getenv  func(string) string // APPDATA, XDG_CONFIG_HOME; nil means none are set
}

// SystemEnv returns the Env of the running process.
func SystemEnv() Env {
	home, _ := os.UserHomeDir()
	wd, _ := os.Getwd()
	return Env{GOOS: runtime.GOOS, Home: home, WorkDir: wd, Getenv: os.Getenv}
}

// Candidate is a config file of another MCP host found on this machine.
type Candidate struct {
	App   string `json:"app"`   // "Claude Desktop", "Cursor", "VS Code", ...
	Path  string `json:"path"`  //
	Scope string `json:"scope"` // "user", or "project" for files under Env.WorkDir
}

// Discover lists the config files of Claude Desktop, Claude Code, Cursor,
// VS Code (and Insiders, VSCodium) and Windsurf that exist, in that order.
// It only checks that they exist: ParseContext says whether they hold servers (a
// VS Code settings.json often has none).
func Discover(env Env) []Candidate {
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	var found []Candidate
	seen := map[string]bool{}
	add := func(app, scope string, path ...string) {
		if path[0] == "" {
			return // the base directory is unknown on this machine
		}
		p := filepath.Clean(filepath.Join(path...))
		if seen[p] {
			return
		}
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			seen[p] = true
			found = append(found, Candidate{App: app, Path: p, Scope: scope})
		}
	}

	home := env.Home
	// appConfig is where desktop apps keep per-user settings.
	var appConfig string
	switch env.GOOS {
	case "darwin":
		if home != "" {
			appConfig = filepath.Join(home, "Library", "Application Support")
		}
	case "windows":
		appConfig = getenv("APPDATA")
		if appConfig == "" && home != "" {
			appConfig = filepath.Join(home, "AppData", "Roaming")
		}
	default:
		appConfig = getenv("XDG_CONFIG_HOME")
		if appConfig == "" && home != "" {
			appConfig = filepath.Join(home, ".config")
		}
	}

	add("Claude Desktop", "user", appConfig, "Claude", "claude_desktop_config.json")
	add("Claude Code", "user", home, ".claude.json")
	add("Cursor", "user", home, ".cursor", "mcp.json")
	for _, v := range []struct{ app, dir string }{
		{"VS Code", "Code"},
		{"VS Code Insiders", "Code - Insiders"},
		{"VSCodium", "VSCodium"},
	} {
		add(v.app, "user", appConfig, v.dir, "User", "mcp.json")
		add(v.app, "user", appConfig, v.dir, "User", "settings.json")
	}
	add("Windsurf", "user", home, ".codeium", "windsurf", "mcp_config.json")

	if wd := env.WorkDir; wd != "" {
		add("Claude Code", "project", wd, ".mcp.json")
		add("Cursor", "project", wd, ".cursor", "mcp.json")
		add("VS Code", "project", wd, ".vscode", "mcp.json")
	}
	return found
}
