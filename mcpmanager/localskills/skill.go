package localskills

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/skills"
	"github.com/switchboard-app/switchboard/mcpmanager/toolcheck"
)

// Limits of a local skill. A SKILL.md past MaxSkillMD is malformed (it is
// instructions, not data); a file past what a skill may serve
// (skills.MaxSize in all, skills.MaxFiles files) is left out of the skill
// and never read. MaxName bounds a skill's name as Switchboard offers it.
const (
	MaxSkillMD = 1 << 20
	MaxName    = 64
)

// ErrMalformed marks a skill folder that cannot be offered (no SKILL.md, one
// that cannot be read, no description at all); it is listed with the
// reason and left out.
var ErrMalformed = errors.New("malformed skill")

// MalformedError says which skill folder is malformed and why.
type MalformedError struct {
	Dir    string
	Reason string
}

func (e *MalformedError) Error() string {
	return fmt.Sprintf("%s: %s: %s", e.Dir, ErrMalformed, e.Reason)
}

func (e *MalformedError) Unwrap() error { return ErrMalformed }

// File is one file of a local skill.
type File struct {
	Path   string `json:"path"` // within the skill, '/'-separated
	Size   int64  `json:"size"`
	Digest string `json:"digest"` // sha256:<hex>
}

// Skill is one skill folder on this computer, read and checked.
type Skill struct {
	// Name is the skill's identity: its folder's name, as Claude Code
	// names a skill, made a valid skill name when it is not one (see
	// skillName).
	Name        string
	Description string
	// Frontmatter is SKILL.md's as the skill is listed (skills.Listed).
	Frontmatter map[string]any
	// Dir is the skill's folder, its real path (links resolved).
	Dir string
	// Source is the folder it was found in first; AlsoIn the other
	// source folders that reach the same folder (through links).
	Source Source
	AlsoIn []string
	// Files are the files the skill serves, SKILL.md first.
	Files []File
	// LeftOut are the files not served and why (a link leading out of
	// the folder, a file past the size limits).
	LeftOut []string
	// Findings are what looks like hidden instructions in SKILL.md.
	Findings []toolcheck.Finding
	// Warnings are what breaks the Agent Skills specification but is
	// loaded anyway, as Claude Code loads it (a name that is not the
	// folder's, metadata that is not text, no frontmatter, …), each with
	// what was made of it.
	Warnings []string

	folder string // the folder's name as found, which Name is made of
}

// Size is the bytes of the files the skill serves.
func (s Skill) Size() int64 {
	var n int64
	for _, f := range s.Files {
		n += f.Size
	}
	return n
}

var nameRule = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// skillName is the name a skill in folder goes by: the folder's name, as
// Claude Code names a skill (whatever its frontmatter's name says), made a
// valid skill name when it is not one (1–64 lowercase letters, digits and
// single hyphens: the Agent Skills rule, and the name is the last segment
// of the skill's URI in the catalog and serve). The warnings say what
// differs. fm is SKILL.md's frontmatter as written.
func skillName(fm map[string]any, folder string) (string, []string) {
	name := validName(folder)
	var warns []string
	if name != folder {
		warns = append(warns, fmt.Sprintf("its folder's name %q is not a valid skill name (1–%d lowercase letters, digits and single hyphens); Switchboard offers it as %q", folder, MaxName, name))
	}
	v, in := fm["name"]
	switch n, ok := v.(string); {
	case !in:
		warns = append(warns, fmt.Sprintf("its frontmatter has no name; it goes by its folder's name %q, as Claude Code names it", folder))
	case v == nil || ok && n == "":
		warns = append(warns, fmt.Sprintf("its name is empty; it goes by its folder's name %q, as Claude Code names it", folder))
	case !ok:
		warns = append(warns, fmt.Sprintf("its name is not text; it goes by its folder's name %q, as Claude Code names it", folder))
	case n != folder:
		warns = append(warns, fmt.Sprintf("its name %q is not its folder's name %q; it goes by the folder's name, as Claude Code names it (rename one so they match)", n, folder))
	}
	return name, warns
}

// validName makes s a valid skill name: lowercase, accented Latin letters
// without their accents, every run of other characters a hyphen, no hyphen
// at either end, at most MaxName long ("My_Skill" is "my-skill",
// "données" "donnees"). A name with no such letter or digit left ("日本語")
// is "skill-" and a short digest of s: the same at every scan, and another
// for each such folder.
func validName(s string) string {
	if nameRule.MatchString(s) && len(s) <= MaxName {
		return s
	}
	var b strings.Builder
	for _, r := range latinFold.Replace(strings.ToLower(s)) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else if b.Len() > 0 && !strings.HasSuffix(b.String(), "-") {
			b.WriteByte('-')
		}
	}
	name := strings.TrimRight(b.String(), "-")
	if len(name) > MaxName {
		name = strings.TrimRight(name[:MaxName], "-")
	}
	if name == "" {
		return "skill-" + shortDigest(s)
	}
	return name
}

// shortDigest is 6 hex digits of s's SHA-256: what tells apart the names
// made of folder names that make the same one, stably.
func shortDigest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:3])
}

// latinFold writes the accented Latin letters of European languages
// without their accents, so a folder named in one keeps a readable name.
var latinFold = strings.NewReplacer(
	"à", "a", "á", "a", "â", "a", "ã", "a", "ä", "a", "å", "a", "ą", "a", "æ", "ae",
	"ç", "c", "ć", "c", "č", "c", "ď", "d", "è", "e", "é", "e", "ê", "e", "ë", "e", "ę", "e", "ě", "e",
	"ğ", "g", "ì", "i", "í", "i", "î", "i", "ï", "i", "ı", "i", "ł", "l", "ñ", "n", "ń", "n", "ň", "n",
	"ò", "o", "ó", "o", "ô", "o", "õ", "o", "ö", "o", "ø", "o", "œ", "oe", "ř", "r",
	"ś", "s", "š", "s", "ş", "s", "ß", "ss", "ť", "t", "ù", "u", "ú", "u", "û", "u", "ü", "u", "ů", "u",
	"ý", "y", "ÿ", "y", "ź", "z", "ż", "z", "ž", "z")

// digests remembers the digest of each file by path, size and time of
// change, so a scan after a change reads only the changed files.
type digests struct {
	mu sync.Mutex
	m  map[string]digestEntry
}

type digestEntry struct {
	size   int64
	mod    time.Time
	digest string
}

func (d *digests) of(root *os.Root, real, rel string, info fs.FileInfo) (string, error) {
	key := real + "/" + rel
	d.mu.Lock()
	e, ok := d.m[key]
	d.mu.Unlock()
	if ok && e.size == info.Size() && e.mod.Equal(info.ModTime()) {
		return e.digest, nil
	}
	f, err := root.Open(rel)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil { // streamed: a file is never held whole
		return "", err
	}
	sum := "sha256:" + hex.EncodeToString(h.Sum(nil))
	d.mu.Lock()
	if d.m == nil {
		d.m = map[string]digestEntry{}
	}
	d.m[key] = digestEntry{info.Size(), info.ModTime(), sum}
	d.mu.Unlock()
	return sum, nil
}

// skillMD is the SKILL.md of the skill folder root: a plain file, or a
// link to one within the folder (os.Root follows no link out of it).
func skillMD(root *os.Root) (fs.FileInfo, error) {
	info, err := root.Lstat("SKILL.md")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, errors.New("it has no SKILL.md")
	case err != nil:
		return nil, fmt.Errorf("SKILL.md cannot be read: %v", err)
	case info.Mode()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(filepath.Join(root.Name(), "SKILL.md"))
		info, err = root.Stat("SKILL.md")
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("its SKILL.md is a link to %s, which does not exist", target)
		case err != nil:
			return nil, fmt.Errorf("its SKILL.md is a link leading out of the skill's folder (to %s); a link out of the folder could expose any file on this computer to the model, so it is not followed: copy the file into the skill's folder instead", target)
		}
	}
	switch {
	case !info.Mode().IsRegular():
		return nil, errors.New("its SKILL.md is not a file (a folder or a device)")
	case info.Size() > MaxSkillMD:
		return nil, fmt.Errorf("its SKILL.md is %d bytes (at most %d); move long parts into files it names", info.Size(), MaxSkillMD)
	}
	return info, nil
}

// A skill's folder also holds what its use leaves there: the caches and
// dependencies its scripts make when they run (__pycache__, node_modules,
// a Python virtualenv), version control, editors' and the OS's files, and
// hidden files such as .env, which hold keys. None of it is the skill: it
// is not listed, pinned or served, so running a skill's script does not
// hold the skill for review, 511 files of dependencies do not crowd out
// its own references past skills.MaxFiles, and a .env does not reach the
// model or serve's clients. The scripts still find it all on disk.

// silent is notServed's answer for what is left out without a word (a
// .git folder, the OS's .DS_Store).
const silent = "-"

// dependencies reports whether the folder dir, named name, is one of
// dependencies or caches: node_modules, __pycache__, a Python virtualenv.
// The watcher does not watch them either (node_modules alone may hold
// thousands of folders, and an install writes to them for a while).
func dependencies(dir, name string) bool {
	if name == "node_modules" || name == "__pycache__" || name == ".venv" {
		return true
	}
	_, err := os.Lstat(filepath.Join(dir, "pyvenv.cfg"))
	return err == nil
}

// notServed says why the entry p of a skill's folder (a folder, or a file)
// is not part of the skill; "" when it is.
func notServed(root *os.Root, p string, d fs.DirEntry) string {
	name := d.Name()
	switch {
	case name == ".git" || name == ".DS_Store" || name == "Thumbs.db":
		return silent
	case d.IsDir() && (name == "node_modules" || name == "__pycache__"):
		return "a folder of dependencies or caches its scripts make; not served (they still find it on disk)"
	case d.IsDir() && strings.HasPrefix(name, "."):
		return "a hidden folder (tools' caches and settings); not served (the skill's scripts still find it on disk)"
	case d.IsDir():
		if _, err := root.Lstat(p + "/pyvenv.cfg"); err == nil {
			return "a Python virtualenv; not served (the skill's scripts still find it on disk)"
		}
	case strings.HasPrefix(name, "."):
		return "a hidden file (a .env holds keys); not served (the skill's scripts still find it on disk)"
	case strings.HasSuffix(name, ".pyc"):
		return silent // Python's compiled cache, made when a script runs
	}
	return ""
}

// read reads the skill in real (its folder, links resolved), found as
// folder: SKILL.md read leniently (skills.ParseSkillMD, skills.Listed),
// every other file listed and digested. Every file is opened through an
// os.Root of the folder, so a link is followed only within it; a file past
// the limits is left out unread.
func read(real, folder string, dg *digests) (Skill, error) {
	bad := func(format string, a ...any) error {
		return &MalformedError{Dir: real, Reason: fmt.Sprintf(format, a...)}
	}
	root, err := os.OpenRoot(real)
	if err != nil {
		return Skill{}, bad("the folder cannot be opened: %v", err)
	}
	defer root.Close()
	info, err := skillMD(root)
	if err != nil {
		return Skill{}, bad("%s", err)
	}
	text, err := root.ReadFile("SKILL.md")
	if err != nil {
		return Skill{}, bad("SKILL.md cannot be read: %v", err)
	}
	md, err := skills.ParseSkillMD(text)
	if err != nil {
		return Skill{}, bad("%v", err)
	}
	name, warns := skillName(md.Frontmatter, folder)
	fm, more, err := skills.Listed(md, name)
	if err != nil {
		return Skill{}, bad("%s", strings.TrimPrefix(err.Error(), skills.ErrNoDescription.Error()+": "))
	}
	sk := Skill{Name: name, Description: skills.Clean(fm["description"].(string), skills.MaxDescription),
		Frontmatter: fm, Dir: real, folder: folder, Findings: toolcheck.CheckSkill("SKILL.md", string(text)),
		Warnings: append(append(md.Problems, warns...), more...)}
	sum, err := dg.of(root, real, "SKILL.md", info)
	if err != nil {
		return Skill{}, bad("SKILL.md cannot be read: %v", err)
	}
	sk.Files = []File{{Path: "SKILL.md", Size: info.Size(), Digest: sum}}
	total := info.Size()
	err = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			sk.LeftOut = append(sk.LeftOut, fmt.Sprintf("%s: cannot be read (%v)", p, err))
			return nil
		}
		if p == "." || p == "SKILL.md" {
			return nil
		}
		if why := notServed(root, p, d); why != "" {
			if why != silent {
				sk.LeftOut = append(sk.LeftOut, p+": "+why)
			}
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		info, err := root.Stat(p) // follows a link only within the folder
		switch {
		case err != nil && d.Type()&fs.ModeSymlink != 0:
			sk.LeftOut = append(sk.LeftOut, p+": a link leading out of the skill's folder, not followed: it could expose any file on this computer")
			return nil
		case err != nil:
			sk.LeftOut = append(sk.LeftOut, fmt.Sprintf("%s: cannot be read (%v)", p, err))
			return nil
		case info.IsDir():
			sk.LeftOut = append(sk.LeftOut, p+": a link to a folder; not followed")
			return nil
		case !info.Mode().IsRegular():
			return nil
		case len(sk.Files) == skills.MaxFiles:
			sk.LeftOut = append(sk.LeftOut, fmt.Sprintf("%s: the skill has more than %d files; the rest are left out", p, skills.MaxFiles))
			return nil
		case info.Size() > skills.MaxSize-total:
			sk.LeftOut = append(sk.LeftOut, fmt.Sprintf("%s: %d bytes, past the %d bytes a skill may hold in all; not read", p, info.Size(), skills.MaxSize))
			return nil
		}
		if skills.CheckPath(p) != nil {
			sk.LeftOut = append(sk.LeftOut, p+": its name has characters a skill's path may not hold")
			return nil
		}
		sum, err := dg.of(root, real, p, info)
		if err != nil {
			sk.LeftOut = append(sk.LeftOut, fmt.Sprintf("%s: cannot be read (%v)", p, err))
			return nil
		}
		total += info.Size()
		sk.Files = append(sk.Files, File{Path: path.Clean(p), Size: info.Size(), Digest: sum})
		return nil
	})
	if err != nil {
		return Skill{}, bad("its files cannot be listed: %v", err)
	}
	return sk, nil
}
