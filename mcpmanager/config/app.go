package config

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
)

// Config is the app's own config.json: the servers Switchboard manages, in
// the user's order, and a settings object other packages own. On disk it is
// {"mcpServers": {...}, "settings": {...}}, so the file is itself a valid
// Claude-style config (and `--config FILE` reads both the same way).
type Config struct {
	Servers  []Server
	Settings json.RawMessage            // owned by other packages; kept byte for byte
	Extra    map[string]json.RawMessage // unknown top-level keys, kept for newer versions
}

// Lookup returns the server with the given name.
func (c *Config) Lookup(name string) (Server, bool) {
	if i := c.index(name); i >= 0 {
		return c.Servers[i], true
	}
	return Server{}, false
}

func (c *Config) index(name string) int {
	if c == nil {
		return -1
	}
	return slices.IndexFunc(c.Servers, func(s Server) bool { return s.Name == name })
}

// Clone returns a deep copy, so a changed copy never aliases the original.
func (c *Config) Clone() *Config {
	if c == nil {
		return &Config{}
	}
	out := &Config{Settings: bytes.Clone(c.Settings)}
	for _, s := range c.Servers {
		out.Servers = append(out.Servers, s.Clone())
	}
	if c.Extra != nil {
		out.Extra = make(map[string]json.RawMessage, len(c.Extra))
		for k, v := range c.Extra {
			out.Extra[k] = bytes.Clone(v)
		}
	}
	return out
}

// MarshalJSON writes servers as an mcpServers object in slice order, then
// settings, then any unknown top-level keys (sorted).
func (c Config) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"mcpServers":{`)
	for i, s := range c.Servers {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := marshal(s.Name)
		v, err := marshal(s)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	if len(c.Settings) > 0 {
		if !json.Valid(c.Settings) {
			return nil, fmt.Errorf("settings hold invalid JSON: %w", ErrInvalid)
		}
		b.WriteString(`,"settings":`)
		b.Write(c.Settings)
	}
	for _, k := range slices.Sorted(maps.Keys(c.Extra)) {
		if k == "mcpServers" || k == "settings" || !json.Valid(c.Extra[k]) {
			continue
		}
		kk, _ := marshal(k)
		b.WriteByte(',')
		b.Write(kk)
		b.WriteByte(':')
		b.Write(c.Extra[k])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads config.json with the rules of Load.
func (c *Config) UnmarshalJSON(data []byte) error {
	cfg, err := parseApp(context.Background(), "", data)
	if err != nil {
		return err
	}
	*c = *cfg
	return nil
}

// parseApp reads the app config. Unlike an import, any invalid server fails
// the whole load: silently dropping it would lose it on the next Save.
func parseApp(ctx context.Context, name string, data []byte) (*Config, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	d, err := readDoc(ctx, name, data)
	if err != nil {
		return nil, err
	}
	cfg := &Config{}
	if d.root == nil {
		return cfg, nil // an empty file is an empty config, like a missing one
	}
	if d.root.kind != kindObject {
		return nil, unknownFormat(name, d)
	}
	c := &checker{doc: d}
	seen := map[string]bool{}
	for _, m := range d.root.members {
		if seen[m.key] {
			c.addAt(SeverityError, pathKey("", m.key), m.off, "duplicate key; remove one of them")
			continue
		}
		seen[m.key] = true
		switch m.key {
		case "mcpServers":
			for _, e := range c.serverMap("mcpServers", m.val) {
				cfg.Servers = append(cfg.Servers, e.Server)
			}
		case "settings":
			cfg.Settings = d.raw(m.val)
		default:
			if cfg.Extra == nil {
				cfg.Extra = map[string]json.RawMessage{}
			}
			cfg.Extra[m.key] = d.raw(m.val)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, interrupted(name, err)
	}
	sortProblems(c.problems)
	if hasErrors(c.problems) {
		return nil, &ValidationError{File: name, Kind: ErrInvalid, Problems: c.problems}
	}
	return cfg, nil
}

// BackupSuffix names the copy of the previous config.json that Save keeps.
const BackupSuffix = ".bak"

// Load reads the app config at path. A missing file is an empty config, not
// an error (first start). Any problem is a *ValidationError naming the file,
// JSON path and line:column.
func Load(path string) (*Config, error) {
	return LoadContext(context.Background(), path)
}

// LoadContext is Load that gives up when ctx ends, with an error wrapping
// ctx.Err(): reading a config of many thousand servers takes a moment, and a
// SIGTERM must not wait for it.
func LoadContext(ctx context.Context, path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Config{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	cfg, err := parseApp(ctx, path, data)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		if _, statErr := os.Stat(path + BackupSuffix); statErr == nil {
			return nil, fmt.Errorf("%w\n(fix the file, or restore the previous version from %s)", err, path+BackupSuffix)
		}
		return nil, err
	}
	return cfg, nil
}

// Edit writes the config atomically with mode 0600: the data goes to a
// temporary file in the same directory, is fsynced, renamed over path, and
// the directory is fsynced. The previous content is first kept (the same
// way) as path+".bak". A crash or a full disk at any point leaves either the
// old or the new file, never a partial or empty one. It refuses a config
// that Load would reject (duplicate or invalid servers).
//
// Edit changes the app config at path as one transaction across processes:
// it takes an exclusive OS lock on path+".lock" (flock on Unix, LockFileEx on
// Windows), loads the file as it is now, lets fn change that copy, saves it
// as described above, and unlocks. Edits made at the same time, by this
// process or by others (twenty 'switchboard servers add' at once, the
// window and the CLI), run one after another, each on the result of the one
// before, so none is lost.
//
// When fn returns an error nothing is written and the error is returned as
// is. Edit waits at most LockTimeout for the lock, and gives up when ctx ends.
// It returns the config as saved.
func Edit(ctx context.Context, path string, fn func(cfg *Config) error) (*Config, error) {
	return EditBackup(ctx, path, nil, fn)
}

// EditBackup is Edit whose backup is checked first: keep reports whether
// the current version may become config.json.bak; when it may not (it
// holds a secret the edit moved to the keyring), the backup is the saved
// version instead, so no copy of the value stays on disk. A nil keep
// keeps every previous version.
func EditBackup(ctx context.Context, path string, keep func(old []byte) bool, fn func(cfg *Config) error) (*Config, error) {
	unlock, err := lockConfig(ctx, path)
	if err != nil {
		return nil, err
	}
	defer unlock()
	cfg, err := LoadContext(ctx, path)
	if err != nil {
		return nil, err
	}
	next := cfg.Clone()
	if err := fn(next); err != nil {
		return nil, err
	}
	fs := osFS
	fs.keepBackup = keep
	if err := fs.save(path, next); err != nil {
		return nil, err
	}
	return next, nil
}

// tempFile is the part of *os.File that Save writes through.
type tempFile interface {
	io.Writer
	Name() string
	Sync() error
	Close() error
	Chmod(fs.FileMode) error
}

// saver holds the file operations Save uses, so tests can make one fail.
type saver struct {
	createTemp func(dir, pattern string) (tempFile, error)
	rename     func(from, to string) error
	syncDir    func(dir string) error
	// keepBackup, when set, may refuse the current version as the backup
	// (see EditBackup).
	keepBackup func(old []byte) bool
}

var osFS = saver{
	createTemp: func(dir, pattern string) (tempFile, error) { return os.CreateTemp(dir, pattern) },
	rename:     os.Rename,
	syncDir:    syncDir,
}

func (s saver) save(path string, cfg *Config) error {
	if cfg == nil {
		cfg = &Config{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(cfg); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	data := buf.Bytes()
	// Whatever Save writes, Load must read back.
	if _, err := parseApp(context.Background(), path, data); err != nil {
		return fmt.Errorf("save: refusing to write a config that would not load: %w", err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("save config: %w", err)
	}
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("save config: read the current version: %w", err)
	case bytes.Equal(old, data):
		return os.Chmod(path, 0o600) // nothing new; keep the older .bak
	default:
		if s.keepBackup != nil && !s.keepBackup(old) {
			old = data // the previous version held a secret: back up this one
		}
		if err := s.writeAtomic(path+BackupSuffix, old); err != nil {
			return fmt.Errorf("save config: keep the previous version: %w", err)
		}
	}
	if err := s.writeAtomic(path, data); err != nil {
		return fmt.Errorf("save config: %w", err)
	}
	return nil
}

func (s saver) writeAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	f, err := s.createTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	if runtime.GOOS != "windows" {
		if err := f.Chmod(0o600); err != nil {
			return err
		}
	}
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := s.rename(tmp, path); err != nil {
		return err
	}
	// The rename is only durable once the directory entry is on disk.
	return s.syncDir(dir)
}

func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil // directories cannot be opened for sync there; rename is durable enough
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
