package localskills

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// state is skills.json in the data dir: the accepted digests of each
// skill's files (by pinKey: its source and name; before, by its real
// folder, which migrate moves), the folders the user trusts (their own
// edits are not held) and the project folders the user added.
type state struct {
	Pins    map[string]pin `json:"pins"`
	Trusted []string       `json:"trusted,omitempty"`
	Folders []string       `json:"folders,omitempty"`
}

// pin is what was accepted of one skill.
type pin struct {
	Name     string            `json:"name"`
	Files    map[string]string `json:"files"` // path → digest
	SkillMD  string            `json:"skillMd,omitempty"`
	Accepted time.Time         `json:"accepted"`
}

// StateError is skills.json that cannot be read or written.
type StateError struct {
	Op, Path string
	Err      error
}

func (e *StateError) Error() string {
	return fmt.Sprintf("%s %s: %v (fix or delete the file; Switchboard then trusts each skill it finds again)", e.Op, e.Path, e.Err)
}

func (e *StateError) Unwrap() error { return e.Err }

func loadState(path string) (state, error) {
	st := state{Pins: map[string]pin{}}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, &StateError{"read", path, err}
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return state{Pins: map[string]pin{}}, &StateError{"read", path, err}
	}
	if st.Pins == nil {
		st.Pins = map[string]pin{}
	}
	return st, nil
}

// save writes st atomically (temp file, fsync, rename).
func (st state) save(path string) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return &StateError{"write", path, err}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return &StateError{"write", path, err}
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".skills-*.json")
	if err != nil {
		return &StateError{"write", path, err}
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(b); err != nil {
		f.Close()
		return &StateError{"write", path, err}
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return &StateError{"write", path, err}
	}
	if err := f.Close(); err != nil {
		return &StateError{"write", path, err}
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return &StateError{"write", path, err}
	}
	return nil
}

// trusts reports whether dir (a skill's real folder or the folder it was
// found in) is within a folder the user trusts.
func (st state) trusts(dirs ...string) bool {
	for _, t := range st.Trusted {
		for _, d := range dirs {
			if d == t || strings.HasPrefix(d, t+string(filepath.Separator)) {
				return true
			}
		}
	}
	return false
}

// pinKey is the key of sk's pin: its source's catalog name and its name
// ("skills@plugin-superpowers/brainstorming"), not its folder, which a
// plugin's update moves into the new version's: the new version is
// compared with what was accepted of the old one, and held when it
// differs. A pin outlives its folder: a skill that comes back changed is
// held, not trusted anew.
func pinKey(sk Skill) string { return sk.Source.Server + "/" + sk.Name }

// migrate moves sk's pin from a skills.json of pins by folder to pinKey:
// the pin of sk's folder, or, for a plugin's skill, the one accepted last
// of the same skill in another version's folder of the plugin (the pins of
// the other versions are dropped: the one kept is newer). ok: a pin was
// found.
func (st *state) migrate(sk Skill) (pin, bool) {
	var old []string
	if _, ok := st.Pins[sk.Dir]; ok {
		old = []string{sk.Dir}
	} else if root, rel, ok := pluginVersion(sk.Dir); ok && sk.Source.Scope == "plugin" {
		for k := range st.Pins {
			if r, l, ok := pluginVersion(k); ok && filepath.IsAbs(k) && r == root && l == rel {
				old = append(old, k)
			}
		}
	}
	if len(old) == 0 {
		return pin{}, false
	}
	p := st.Pins[old[0]]
	for _, k := range old {
		if st.Pins[k].Accepted.After(p.Accepted) {
			p = st.Pins[k]
		}
		delete(st.Pins, k)
	}
	st.Pins[pinKey(sk)] = p
	return p, true
}

// pluginVersion splits a folder in Claude Code's plugin cache
// (…/plugins/cache/MARKET/PLUGIN/VERSION/REL) into the plugin's folder and
// REL; ok is false for any other folder.
func pluginVersion(dir string) (plugin, rel string, ok bool) {
	parts := strings.Split(filepath.ToSlash(dir), "/")
	for i := len(parts) - 1; i > 0; i-- {
		if parts[i] == "cache" && parts[i-1] == "plugins" && i+4 < len(parts) {
			return strings.Join(parts[:i+3], "/"), strings.Join(parts[i+4:], "/"), true
		}
	}
	return "", "", false
}

// pinOf is sk's files as a pin.
func pinOf(sk Skill, skillMD string) pin {
	p := pin{Name: sk.Name, Files: map[string]string{}, SkillMD: skillMD, Accepted: time.Now().UTC()}
	for _, f := range sk.Files {
		p.Files[f.Path] = f.Digest
	}
	return p
}

// changes lists how sk's files differ from the pin's, sorted.
func (p pin) changes(sk Skill) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range sk.Files {
		seen[f.Path] = true
		switch d, ok := p.Files[f.Path]; {
		case !ok:
			out = append(out, f.Path+" added")
		case d != f.Digest:
			out = append(out, f.Path+" changed")
		}
	}
	for path := range p.Files {
		if !seen[path] {
			out = append(out, path+" removed")
		}
	}
	slices.Sort(out)
	return out
}
