package localskills

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/toolcheck"
)

// States of a listed skill.
const (
	// Accepted: its files are the ones accepted (or trusted); it is offered.
	Accepted = "accepted"
	// Held: its files changed since they were accepted, or it is new and
	// its SKILL.md looks like hidden instructions; it is withheld from the
	// chats and serve until the user accepts it.
	Held = "held"
)

// Entry is one listed skill and whether it is offered.
type Entry struct {
	Skill
	State string
	// Changes say which files differ from the accepted ones ("SKILL.md
	// changed", "scripts/run.sh added"); empty for a new skill.
	Changes []string
	// Previous is the accepted SKILL.md of a changed skill, for a diff.
	Previous string
	// ChangeFindings are what looks like hidden instructions in the
	// changed text files.
	ChangeFindings []toolcheck.Finding
}

// Invalid is a skill folder left out, and why.
type Invalid struct {
	Dir    string
	Source Source
	Reason string
	// Name is the name it would go by (its folder's, made valid), for
	// telling whoever asks for it why it is missing.
	Name string
}

// Listing is what a scan found.
type Listing struct {
	Sources []Source
	Skills  []Entry
	Invalid []Invalid
}

// Options configure a Store.
type Options struct {
	// Places says where to look; called at each scan (the workspace may
	// move, folders may be added).
	Places func() Places
	// State is the path of skills.json (pins, trusted and added folders).
	State string
	// OnChange is called after a scan the watcher started found a change;
	// it must not block.
	OnChange func()
}

// Fresh is how long a scan is used again by a store that is not watching
// (a CLI command lists the skills several times in one run).
var Fresh = time.Second

// Store finds the local skills, keeps their pins, watches their folders
// and serves them to the skills catalog as one session per source. It is
// safe for concurrent use.
type Store struct {
	opts Options
	dg   digests

	mu       sync.Mutex
	listing  Listing
	scanned  time.Time
	dirty    bool
	watching bool
	gen      int
	sessions map[string]*session // by server, of this generation
}

// New returns a store; nothing is read until it is asked.
func New(opts Options) *Store {
	return &Store{opts: opts, dirty: true}
}

// List returns the skills, scanning again when the folders changed (or,
// without a watcher, when the last scan is older than Fresh).
func (s *Store) List() (Listing, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.listLocked()
}

func (s *Store) listLocked() (Listing, error) {
	if !s.dirty && (s.watching || time.Since(s.scanned) < Fresh) {
		return s.listing, nil
	}
	return s.scanLocked()
}

// Rescan scans now.
func (s *Store) Rescan() (Listing, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.scanLocked()
}

func (s *Store) places() Places {
	if s.opts.Places == nil {
		return Places{}
	}
	return s.opts.Places()
}

// scanLocked reads every source, dedups skills by real folder, and screens
// each against its pin.
func (s *Store) scanLocked() (Listing, error) {
	st, err := loadState(s.opts.State)
	if err != nil {
		return s.listing, err
	}
	pl := s.places()
	pl.Folders = append(slices.Clip(pl.Folders), st.Folders...)
	l := Listing{Sources: pl.Sources()}
	seen := map[string]int{} // real folder → index in l.Skills
	bad := map[string]bool{} // real folders of malformed skills
	changed := false
	for _, src := range l.Sources {
		var found []Skill // the source's skills, named once all are read
		for _, dir := range skillDirs(src) {
			real, err := filepath.EvalSymlinks(dir)
			if err != nil {
				continue
			}
			if info, err := os.Stat(real); err != nil || !info.IsDir() {
				continue
			}
			if _, err := os.Lstat(filepath.Join(real, "SKILL.md")); errors.Is(err, fs.ErrNotExist) {
				if name := otherCase(real); name != "" {
					// Read as SKILL.md on macOS and Windows, never here: say so.
					l.Invalid = append(l.Invalid, Invalid{Dir: dir, Source: src, Name: validName(filepath.Base(dir)),
						Reason: fmt.Sprintf("its skill file is named %s; rename it SKILL.md (the name is read exactly, in capitals)", name)})
				}
				continue // not a skill folder
			}
			if i, ok := seen[real]; ok {
				if i < 0 { // twice in this source
					continue
				}
				l.Skills[i].AlsoIn = append(l.Skills[i].AlsoIn, src.Dir)
				continue
			}
			if bad[real] {
				continue
			}
			sk, err := read(real, filepath.Base(dir), &s.dg)
			if err != nil {
				var m *MalformedError
				reason := err.Error()
				if errors.As(err, &m) {
					reason = m.Reason
				}
				l.Invalid = append(l.Invalid, Invalid{Dir: dir, Source: src, Reason: reason, Name: validName(filepath.Base(dir))})
				bad[real] = true
				continue
			}
			sk.Source = src
			seen[real] = -1
			found = append(found, sk)
		}
		unique(found)
		for _, sk := range found {
			seen[sk.Dir] = len(l.Skills)
			en, pinned := s.screen(&st, sk)
			changed = changed || pinned
			l.Skills = append(l.Skills, en)
		}
	}
	if changed {
		if err := st.save(s.opts.State); err != nil {
			return s.listing, err
		}
	}
	s.listing, s.scanned, s.dirty = l, time.Now(), false
	s.gen++
	s.sessions = nil
	return l, nil
}

// skillDirs are the folders of src that may be skills: the ones its
// manifest lists, or every folder in it.
func skillDirs(src Source) []string {
	if src.Skills != nil {
		return src.Skills
	}
	ents, err := os.ReadDir(src.Dir)
	if err != nil {
		return nil // a folder that does not exist (yet) has no skills
	}
	out := make([]string, 0, len(ents))
	for _, e := range ents {
		out = append(out, filepath.Join(src.Dir, e.Name()))
	}
	return out
}

// unique gives each skill of one source a name no other of them goes by
// (two folders may make one valid name: "capsule_crm" and "capsule-crm"),
// as stable as can be: names are what pins, switches and agents key a
// skill by, and a name passed on to another skill would hold that one as
// the first one changed, and switch it off or on in the first one's place.
// A folder named with a valid skill name keeps it; a name made of a
// folder's name is the folder's alone when no other folder has or makes
// it, and otherwise gets a suffix of a digest of the folder's name, so it
// does not depend on which folder comes first.
func unique(found []Skill) {
	own, made := map[string]bool{}, map[string]int{}
	for _, sk := range found {
		if sk.Name == sk.folder {
			own[sk.Name] = true
		} else {
			made[sk.Name]++
		}
	}
	taken := make(map[string]bool, len(found))
	for i := range found {
		sk := &found[i]
		name := sk.Name
		if name == sk.folder && !taken[name] || name != sk.folder && !own[name] && made[name] == 1 {
			taken[name] = true
			continue
		}
		for n := 0; name == sk.Name || taken[name] || own[name]; n++ {
			suffix := "-" + shortDigest(fmt.Sprint(sk.folder, "/", n))
			name = strings.TrimRight(sk.Name[:min(len(sk.Name), MaxName-len(suffix))], "-") + suffix
		}
		sk.Warnings = append(sk.Warnings, fmt.Sprintf("another skill folder of %s goes by or makes the name %q; this one goes by %q (give its folder a valid skill name of its own)", sk.Source.Server, sk.Name, name))
		sk.Name = name
		sk.Frontmatter["name"] = name
		taken[name] = true
	}
}

// screen decides whether sk is offered: a skill seen for the first time is
// accepted (trust on first use) unless its SKILL.md looks like hidden
// instructions; a skill whose files differ from the accepted ones is held,
// unless it is in a folder the user trusts. Pins are by source and name
// (pinKey), so a plugin's new version, in a new folder, is compared with
// what was accepted of the old one. pinned reports skills.json changed.
func (s *Store) screen(st *state, sk Skill) (en Entry, pinned bool) {
	en = Entry{Skill: sk, State: Accepted}
	key := pinKey(sk)
	p, known := st.Pins[key]
	if !known {
		p, known = st.migrate(sk)
		pinned = known
	}
	trusted := st.trusts(sk.Dir, sk.Source.Dir)
	switch {
	case !known && len(sk.Findings) > 0 && !trusted:
		en.State = Held
		return en, false
	case !known:
		st.Pins[key] = pinOf(sk, s.skillMD(sk))
		return en, true
	}
	en.Changes = p.changes(sk)
	if len(en.Changes) == 0 {
		return en, pinned
	}
	if trusted {
		st.Pins[key] = pinOf(sk, s.skillMD(sk))
		en.Changes = nil
		return en, true
	}
	en.State, en.Previous = Held, p.SkillMD
	en.ChangeFindings = changeFindings(sk, p)
	return en, pinned
}

// skillMD is sk's SKILL.md text as read now ("" when it cannot be).
func (s *Store) skillMD(sk Skill) string {
	b, err := readFile(sk.Dir, "SKILL.md", MaxSkillMD)
	if err != nil {
		return ""
	}
	return string(b)
}

// changeFindings checks the changed and added text files of sk (each up to
// MaxSkillMD bytes) for hidden instructions, as tool descriptions are.
func changeFindings(sk Skill, p pin) []toolcheck.Finding {
	var out []toolcheck.Finding
	for _, f := range sk.Files {
		if d, ok := p.Files[f.Path]; ok && d == f.Digest || f.Size > MaxSkillMD {
			continue
		}
		b, err := readFile(sk.Dir, f.Path, MaxSkillMD)
		if err != nil {
			continue
		}
		out = append(out, toolcheck.CheckSkill(f.Path, string(b))...)
	}
	return out
}

// readFile reads rel in the skill folder dir through an os.Root (no link
// out of it is followed), at most max bytes.
func readFile(dir, rel string, max int64) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	info, err := root.Stat(rel)
	if err != nil {
		return nil, err
	}
	if info.Size() > max {
		return nil, fmt.Errorf("%s: %d bytes, more than %d", rel, info.Size(), max)
	}
	return root.ReadFile(rel)
}

// edit changes skills.json and scans again.
func (s *Store) edit(fn func(*state) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := loadState(s.opts.State)
	if err != nil {
		return err
	}
	if err := fn(&st); err != nil {
		return err
	}
	if err := st.save(s.opts.State); err != nil {
		return err
	}
	_, err = s.scanLocked()
	return err
}

// ErrNoSuchSkill means no listed skill has that folder.
var ErrNoSuchSkill = errors.New("no such local skill")

// Accept accepts the skill in dir (its real folder) as it is now: its
// files are pinned and it is offered again.
func (s *Store) Accept(dir string) error {
	l, err := s.Rescan()
	if err != nil {
		return err
	}
	i := slices.IndexFunc(l.Skills, func(en Entry) bool { return en.Dir == dir })
	if i < 0 {
		return fmt.Errorf("%s: %w", dir, ErrNoSuchSkill)
	}
	sk := l.Skills[i].Skill
	return s.edit(func(st *state) error {
		delete(st.Pins, dir) // a pin by folder, from before pins were by name
		st.Pins[pinKey(sk)] = pinOf(sk, s.skillMD(sk))
		return nil
	})
}

// Trust marks folder as the user's own (on) or not: changes to the skills
// in it are accepted as they come.
func (s *Store) Trust(folder string, on bool) error {
	folder = filepath.Clean(folder)
	return s.edit(func(st *state) error {
		st.Trusted = slices.DeleteFunc(st.Trusted, func(t string) bool { return t == folder })
		if on {
			st.Trusted = append(st.Trusted, folder)
			slices.Sort(st.Trusted)
		}
		return nil
	})
}

// Trusted are the folders the user trusts.
func (s *Store) Trusted() ([]string, error) {
	st, err := loadState(s.opts.State)
	return st.Trusted, err
}

// AddFolder adds (on) or removes a project folder to look in.
func (s *Store) AddFolder(folder string, on bool) error {
	folder = filepath.Clean(folder)
	return s.edit(func(st *state) error {
		st.Folders = slices.DeleteFunc(st.Folders, func(t string) bool { return t == folder })
		if on {
			st.Folders = append(st.Folders, folder)
		}
		return nil
	})
}

// Find returns the listed skill of server named name.
func (s *Store) Find(server, name string) (Entry, bool) {
	l, err := s.List()
	if err != nil {
		return Entry{}, false
	}
	for _, en := range l.Skills {
		if en.Source.Server == server && en.Name == name {
			return en, true
		}
	}
	return Entry{}, false
}

// otherCase is the name of dir's file that is SKILL.md in another case
// (skill.md, Skill.md), or "".
func otherCase(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		if !e.IsDir() && e.Name() != "SKILL.md" && strings.EqualFold(e.Name(), "SKILL.md") {
			return e.Name()
		}
	}
	return ""
}
