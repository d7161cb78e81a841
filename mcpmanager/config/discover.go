package config

import (
	"context"
	"os"
	"runtime"
)

// Env is what Discover looks at. Tests build one around a temporary
// directory; SystemEnv describes the real machine.
type Env struct {
	GOOS    string              // "linux", "darwin", "windows"
	Home    string              // the user's home directory
	WorkDir string              // a project directory to search too; "" skips project files
	Getenv  func(string) string // APPDATA, XDG_CONFIG_HOME; nil means none are set
	// Parse reads a found file for Survey. nil is ParseContext, which
	// reads the mcpServers family, so Discover lists only those files;
	// with a Parse that reads the apps with a format of their own
	// (Codex's TOML, Goose's YAML, …: the clients package's readers, as
	// an import does), Discover lists every app's file.
	Parse func(ctx context.Context, name string, data []byte) (*File, error)
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

// Discover lists the config files of other MCP apps that exist and that
// import reads (ClientApps' files holding "mcpServers" or "servers", or
// every app's file when env.Parse is set):
// every user file in ClientApps' order, then the project files under
// env.WorkDir. It only checks that they exist: ParseContext says whether
// they hold servers (a VS Code settings.json often has none).
func Discover(env Env) []Candidate {
	var found []Candidate
	seen := map[string]bool{}
	for _, scope := range []string{"user", "project"} {
		for _, a := range ClientApps() {
			for _, f := range a.Files(env) {
				if f.Scope != scope || !f.Importable() && env.Parse == nil || seen[f.Path] {
					continue
				}
				if fi, err := os.Stat(f.Path); err == nil && fi.Mode().IsRegular() {
					seen[f.Path] = true
					found = append(found, Candidate{App: a.Title, Path: f.Path, Scope: scope})
				}
			}
		}
	}
	return found
}
