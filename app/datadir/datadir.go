// Package datadir owns the location and layout of Switchboard's data directory.
//
// The directory is chosen by, in order: the --data-dir flag, the
// SWITCHBOARD_DATA_DIR environment variable, os.UserConfigDir()/switchboard.
//
//	dir, err := datadir.Resolve(flagValue)
//	if err != nil { ... }
//	if err := dir.Ensure(); err != nil { ... }
//	cfgPath := dir.Config()
package datadir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// EnvVar names the environment variable that overrides the default location.
const EnvVar = "SWITCHBOARD_DATA_DIR"

// ErrNoHome is returned when no flag or env var is given and the OS reports
// no per-user config directory (for example HOME unset on Linux).
var ErrNoHome = errors.New("no per-user config directory: set --data-dir or " + EnvVar)

// Dir is an absolute data directory path.
type Dir string

// Resolve picks the data directory from flag, environment or OS default and
// makes it absolute. It does not create anything.
func Resolve(flag string) (Dir, error) {
	p := flag
	if p == "" {
		p = os.Getenv(EnvVar)
	}
	if p == "" {
		base, err := os.UserConfigDir()
		if err != nil {
			return "", fmt.Errorf("%w: %w", ErrNoHome, err)
		}
		p = filepath.Join(base, "switchboard")
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("data dir %q: %w", p, err)
	}
	return Dir(abs), nil
}

// Ensure creates the directory and its fixed sub-directories, private to the user.
func (d Dir) Ensure() error {
	for _, p := range []string{string(d), d.Stores(), d.Logs(), d.Workspace()} {
		if err := os.MkdirAll(p, 0o700); err != nil {
			return fmt.Errorf("create data dir: %w", err)
		}
	}
	return nil
}

// String returns the path.
func (d Dir) String() string { return string(d) }

// Config is the app config file (servers and settings).
func (d Dir) Config() string { return filepath.Join(string(d), "config.json") }

// History is the SQLite chat history database.
func (d Dir) History() string { return filepath.Join(string(d), "history.db") }

// Stores holds one bleve index per content store.
func (d Dir) Stores() string { return filepath.Join(string(d), "stores") }

// Results holds the capped tool results chats keep for their model to
// read on, one content store per chat. No built-in server opens it, so
// 'switchboard serve' and 'switchboard builtin content-store' cannot offer
// them; only the chat's own read_result reaches a chat's results.
func (d Dir) Results() string { return filepath.Join(string(d), "results") }

// Logs holds one size-capped stderr log per server.
func (d Dir) Logs() string { return filepath.Join(string(d), "logs") }

// Listings holds the tools each server listed when it last ran, one file
// per server, so the next process offers them while the server starts
// (see mcpmanager.Options.ListingsDir).
func (d Dir) Listings() string { return filepath.Join(string(d), "listings") }

// Models is where the local model's GGUF files are downloaded.
func (d Dir) Models() string { return filepath.Join(string(d), "models") }

// Pins holds the hashes of the tool definitions the user trusted
// (see mcpmanager/pins).
func (d Dir) Pins() string { return filepath.Join(string(d), "pins.json") }

// Workspace is the default workspace root.
func (d Dir) Workspace() string { return filepath.Join(string(d), "workspace") }

// UIState is what the window remembers that is not configuration: the
// first-run welcome done, the window's size and position (see app/uistate).
func (d Dir) UIState() string { return filepath.Join(string(d), "ui.json") }

// Skills is Switchboard's own skills folder: the skills the user added
// (see mcpmanager/localskills).
func (d Dir) Skills() string { return filepath.Join(string(d), "skills") }

// SkillsState holds the local skills' accepted digests, the folders the
// user trusts and the project folders they added.
func (d Dir) SkillsState() string { return filepath.Join(string(d), "skills.json") }
