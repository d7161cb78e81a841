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
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/switchboard-app/switchboard/mcpmanager/skills"
	"github.com/switchboard-app/switchboard/mcpmanager/toolcheck"
)

// Limits of a local skill. A SKILL.md past MaxSkillMD is malformed (it is
// instructions, not data); a file past what a skill may serve
// (skills.MaxSize in all, skills.MaxFiles files) is left out of the skill
// and never read.
const (
	MaxSkillMD       = 1 << 20
	MaxName          = 64
	MaxDescription   = 1024
	MaxCompatibility = 500
)

// ErrMalformed marks a skill folder whose SKILL.md breaks the Agent Skills
// specification; it is listed with the reason and left out.
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
	Name        string
	Description string
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

// checkFrontmatter checks SKILL.md's frontmatter against the Agent Skills
// specification: name (1–64 lowercase letters, digits and single hyphens,
// the folder's name), description (1–1024 characters), and, when present,
// license (text), compatibility (1–500 characters), metadata (text to
// text) and allowed-tools (text, or a list of texts as Claude Code
// accepts). Fields the specification does not name are kept (apps add
// their own).
func checkFrontmatter(fm map[string]any, folder string) string {
	name, ok := fm["name"].(string)
	switch {
	case fm["name"] == nil:
		return "its frontmatter has no name; add name: " + folder
	case !ok:
		return "its frontmatter's name is not text"
	case name == "" || len(name) > MaxName:
		return fmt.Sprintf("its name %q is not 1–%d characters long", name, MaxName)
	case !nameRule.MatchString(name):
		return fmt.Sprintf("its name %q may hold only lowercase letters, digits and single hyphens, not at the start or end", name)
	case name != folder:
		return fmt.Sprintf("its name %q is not its folder's name %q; rename the folder or the name so they match", name, folder)
	}
	desc, ok := fm["description"].(string)
	switch {
	case fm["description"] == nil:
		return "its frontmatter has no description; add one saying what the skill does and when to use it"
	case !ok:
		return "its frontmatter's description is not text"
	case strings.TrimSpace(desc) == "":
		return "its description is empty; say what the skill does and when to use it"
	case utf8.RuneCountInString(desc) > MaxDescription:
		return fmt.Sprintf("its description is %d characters long (at most %d); shorten it", utf8.RuneCountInString(desc), MaxDescription)
	}
	if v, in := fm["license"]; in {
		if _, ok := v.(string); !ok {
			return "its license is not text"
		}
	}
	if v, in := fm["compatibility"]; in {
		c, ok := v.(string)
		if !ok || c == "" || utf8.RuneCountInString(c) > MaxCompatibility {
			return fmt.Sprintf("its compatibility is not text of 1–%d characters", MaxCompatibility)
		}
	}
	if v, in := fm["metadata"]; in {
		m, ok := v.(map[string]any)
		if !ok {
			return "its metadata is not a map of names to texts"
		}
		for k, mv := range m {
			if _, ok := mv.(string); !ok {
				return fmt.Sprintf("its metadata's %q is not text (quote it)", k)
			}
		}
	}
	if v, in := fm["allowed-tools"]; in {
		switch t := v.(type) {
		case string:
		case []any:
			for _, e := range t {
				if _, ok := e.(string); !ok {
					return "its allowed-tools is not text or a list of texts"
				}
			}
		default:
			return "its allowed-tools is not text or a list of texts"
		}
	}
	return ""
}

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

// read reads the skill in real (its folder, links resolved), found as
// folder: SKILL.md checked, every other file listed and digested. Every
// file is opened through an os.Root of the folder, so a link leading out of
// it is never followed; a file past the limits is left out unread.
func read(real, folder string, dg *digests) (Skill, error) {
	bad := func(format string, a ...any) error {
		return &MalformedError{Dir: real, Reason: fmt.Sprintf(format, a...)}
	}
	root, err := os.OpenRoot(real)
	if err != nil {
		return Skill{}, bad("the folder cannot be opened: %v", err)
	}
	defer root.Close()
	info, err := root.Lstat("SKILL.md")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Skill{}, bad("it has no SKILL.md")
	case err != nil:
		return Skill{}, bad("SKILL.md cannot be read: %v", err)
	case !info.Mode().IsRegular():
		return Skill{}, bad("its SKILL.md is not a plain file (a link or a folder); copy the file in")
	case info.Size() > MaxSkillMD:
		return Skill{}, bad("its SKILL.md is %d bytes (at most %d); move long parts into files it names", info.Size(), MaxSkillMD)
	}
	text, err := root.ReadFile("SKILL.md")
	if err != nil {
		return Skill{}, bad("SKILL.md cannot be read: %v", err)
	}
	fm, err := skills.Frontmatter(text)
	if err != nil {
		return Skill{}, bad("%v", err)
	}
	if why := checkFrontmatter(fm, folder); why != "" {
		return Skill{}, bad("%s", why)
	}
	sk := Skill{Name: fm["name"].(string), Description: skills.Clean(fm["description"].(string), MaxDescription),
		Frontmatter: fm, Dir: real, Findings: toolcheck.CheckText("SKILL.md", string(text))}
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
		if d.IsDir() {
			if d.Name() == ".git" {
				return fs.SkipDir
			}
			return nil
		}
		info, err := root.Stat(p) // follows a link only within the folder
		switch {
		case err != nil && d.Type()&fs.ModeSymlink != 0:
			sk.LeftOut = append(sk.LeftOut, p+": a link leading out of the skill's folder; not followed")
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
