package localskills

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Settle is how long the watcher waits after a change for more before it
// scans again (an editor's save, an unpacked folder: many events, one scan).
var Settle = 150 * time.Millisecond

// Watch watches the source folders (and, for one not made yet, the nearest
// folder above it that exists) and every skill folder in them until ctx
// ends; a change scans again and calls OnChange.
func (s *Store) Watch(ctx context.Context) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.watching, s.dirty = true, true
	l, _ := s.scanLocked()
	s.mu.Unlock()
	var claude []string // Claude Code's settings (enabledPlugins) and plugin lists
	if home := s.places().Home; home != "" {
		claude = []string{filepath.Join(home, ".claude"), filepath.Join(home, ".claude", "plugins")}
	}
	watched := map[string]bool{}
	rewatch := func(l Listing) {
		want := watchSet(l, append(slices.Clip(claude), filepath.Dir(s.opts.State))...)
		for d := range watched {
			if !want[d] {
				_ = w.Remove(d)
				delete(watched, d)
			}
		}
		for d := range want {
			if !watched[d] && w.Add(d) == nil {
				watched[d] = true
			}
		}
	}
	rewatch(l)
	go func() {
		defer w.Close()
		var settle <-chan time.Time
		for {
			select {
			case <-ctx.Done():
				s.mu.Lock()
				s.watching = false
				s.mu.Unlock()
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if (relevant(l, ev.Name) || ev.Name == s.opts.State) && settle == nil { // skills.json: another process accepted or trusted
					settle = time.After(Settle)
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
				settle = time.After(Settle) // events may be lost: scan anyway
			case <-settle:
				settle = nil
				s.mu.Lock()
				l, _ = s.scanLocked()
				s.mu.Unlock()
				rewatch(l)
				if s.opts.OnChange != nil {
					s.opts.OnChange()
				}
			}
		}
	}()
	return nil
}

// watchSet is the folders to watch: every source folder that exists and
// its sub-folders (skill folders and theirs, real paths, once each), the
// nearest existing folder above one that does not, a plugin's listed skill
// folders and the folders they are in, and extra: Claude Code's folder
// (settings.json) and plugins folder (installed_plugins.json), the folder
// of skills.json.
func watchSet(l Listing, extra ...string) map[string]bool {
	want := map[string]bool{}
	walk := func(real string) {
		_ = filepath.WalkDir(real, func(p string, de fs.DirEntry, err error) error {
			if err == nil && de.IsDir() {
				if de.Name() == ".git" || p != real && dependencies(p, de.Name()) {
					return fs.SkipDir // not the skill (notServed), and maybe thousands of folders
				}
				want[p] = true
			}
			return nil
		})
	}
	for _, src := range l.Sources {
		if src.Skills != nil { // a plugin's listed skills: each, and the folder it is in
			for _, dir := range src.Skills {
				if real, err := filepath.EvalSymlinks(dir); err == nil {
					walk(real)
					want[filepath.Dir(dir)] = true
				}
			}
			continue
		}
		d := src.Dir
		for {
			if info, err := os.Stat(d); err == nil && info.IsDir() {
				break
			}
			up := filepath.Dir(d)
			if up == d {
				break
			}
			d = up
		}
		if d != src.Dir {
			want[d] = true
			continue
		}
		want[d] = true
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			real, err := filepath.EvalSymlinks(filepath.Join(d, e.Name()))
			if err != nil {
				continue
			}
			if info, err := os.Stat(real); err == nil && info.IsDir() {
				walk(real)
			}
		}
	}
	for _, d := range extra {
		if info, err := os.Stat(d); err == nil && info.IsDir() {
			want[d] = true
		}
	}
	return want
}

// relevant reports whether a change at name may change the listing: it is
// within a source folder or a skill folder, above a source folder (the
// folder being made), or one of Claude Code's plugin lists or settings
// (which plugins are on).
func relevant(l Listing, name string) bool {
	switch filepath.Base(name) {
	case "installed_plugins.json", "known_marketplaces.json", "settings.json", "settings.local.json":
		return true
	}
	within := func(dir string) bool {
		return name == dir || strings.HasPrefix(name, dir+string(filepath.Separator)) ||
			strings.HasPrefix(dir, name+string(filepath.Separator))
	}
	for _, src := range l.Sources {
		if within(src.Dir) {
			return true
		}
	}
	for _, en := range l.Skills {
		if within(en.Dir) {
			return true
		}
	}
	return false
}
