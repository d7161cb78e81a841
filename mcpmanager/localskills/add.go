package localskills

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/skills"
)

// Adding a skill: a folder or a .zip is read into a Preview (its files and
// what the checks found), then copied into Switchboard's own skills folder
// under its name. Only the files the preview lists are copied: a link
// leading out of the folder, a file past the size limits, is left behind.

// MaxZip bounds a .zip's bytes and the bytes it unpacks to; MaxZipFiles its
// entries.
const (
	MaxZip      = 64 << 20
	MaxZipFiles = 4 * skills.MaxFiles
)

// Errors adding a skill.
var (
	ErrNotSkill = errors.New("not a skill")
	ErrExists   = errors.New("a skill of that name is already in Switchboard's skills folder")
	ErrNotOwn   = errors.New("not a skill in Switchboard's own skills folder")
)

// AddError is an add that failed: which path and why.
type AddError struct {
	Op, Path string
	Err      error
}

func (e *AddError) Error() string { return fmt.Sprintf("%s %s: %v", e.Op, e.Path, e.Err) }
func (e *AddError) Unwrap() error { return e.Err }

// Preview is a skill about to be added.
type Preview struct {
	Skill
	// From is the folder or .zip it is read from.
	From string
	// Exists: Switchboard's skills folder already has a skill of its name.
	Exists bool
	// tmp is the unpacked .zip, removed by Close.
	tmp string
}

// Close removes what the preview unpacked.
func (p *Preview) Close() error {
	if p.tmp == "" {
		return nil
	}
	return os.RemoveAll(p.tmp)
}

// PreviewPath reads the skill at path: a folder with a SKILL.md (or with
// one sub-folder that has it), or a .zip of one. own is Switchboard's
// skills folder; scratch a folder for unpacking (it is made).
func PreviewPath(path, own, scratch string) (*Preview, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, &AddError{"read", path, err}
	}
	if info.IsDir() {
		dir, err := skillDir(path)
		if err != nil {
			return nil, &AddError{"read", path, err}
		}
		return preview(dir, path, own, "")
	}
	if !strings.EqualFold(filepath.Ext(path), ".zip") {
		return nil, &AddError{"read", path, fmt.Errorf("%w: give a skill folder (with a SKILL.md) or a .zip of one", ErrNotSkill)}
	}
	if info.Size() > MaxZip {
		return nil, &AddError{"read", path, fmt.Errorf("%w: the .zip is %d bytes (at most %d)", ErrNotSkill, info.Size(), MaxZip)}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, &AddError{"read", path, err}
	}
	defer f.Close()
	return previewZip(f, info.Size(), path, own, scratch)
}

// PreviewZip reads the skill in a .zip's bytes (the window hands over a
// file the user chose); name is the file's name, for messages.
func PreviewZip(name string, data []byte, own, scratch string) (*Preview, error) {
	if len(data) > MaxZip {
		return nil, &AddError{"read", name, fmt.Errorf("%w: the .zip is %d bytes (at most %d)", ErrNotSkill, len(data), MaxZip)}
	}
	return previewZip(bytes.NewReader(data), int64(len(data)), name, own, scratch)
}

func previewZip(r io.ReaderAt, size int64, name, own, scratch string) (*Preview, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, &AddError{"read", name, fmt.Errorf("%w: not a .zip file (%v)", ErrNotSkill, err)}
	}
	if err := os.MkdirAll(scratch, 0o700); err != nil {
		return nil, &AddError{"unpack", name, err}
	}
	tmp, err := os.MkdirTemp(scratch, "add-")
	if err != nil {
		return nil, &AddError{"unpack", name, err}
	}
	if err := unzip(zr, tmp); err != nil {
		os.RemoveAll(tmp)
		return nil, &AddError{"unpack", name, err}
	}
	dir, err := skillDir(tmp)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, &AddError{"read", name, err}
	}
	p, err := preview(dir, name, own, tmp)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	return p, nil
}

// unzip unpacks zr into dir: plain files and folders only (no links), each
// name a path within dir, MaxZip bytes and MaxZipFiles entries at most.
func unzip(zr *zip.Reader, dir string) error {
	if len(zr.File) > MaxZipFiles {
		return fmt.Errorf("%w: the .zip holds %d entries (at most %d)", ErrNotSkill, len(zr.File), MaxZipFiles)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	var total int64
	for _, f := range zr.File {
		name := strings.TrimSuffix(f.Name, "/")
		if name == "" || strings.HasPrefix(name, "__MACOSX") {
			continue
		}
		if err := skills.CheckPath(name); err != nil {
			return fmt.Errorf("%w: the .zip holds %q, which could leave its folder", ErrNotSkill, f.Name)
		}
		mode := f.Mode()
		switch {
		case mode.IsDir():
			if err := root.MkdirAll(name, 0o755); err != nil {
				return err
			}
			continue
		case !mode.IsRegular():
			continue // a link or a device in a .zip is not unpacked
		}
		if err := root.MkdirAll(path.Dir(name), 0o755); err != nil {
			return err
		}
		rc, err := f.Open()
		if err != nil {
			return err
		}
		perm := os.FileMode(0o644)
		if mode&0o111 != 0 {
			perm = 0o755
		}
		out, err := root.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, perm)
		if err != nil {
			rc.Close()
			return err
		}
		n, err := io.Copy(out, io.LimitReader(rc, MaxZip-total+1))
		rc.Close()
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		if total += n; total > MaxZip {
			return fmt.Errorf("%w: the .zip unpacks to more than %d bytes", ErrNotSkill, MaxZip)
		}
	}
	return nil
}

// skillDir is dir when it has a SKILL.md, else its one sub-folder that has
// one (a .zip of a folder, a download's "name-main" wrapper).
func skillDir(dir string) (string, error) {
	if _, err := os.Stat(filepath.Join(dir, "SKILL.md")); err == nil {
		return dir, nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	var found []string
	for _, e := range ents {
		if e.IsDir() {
			if _, err := os.Stat(filepath.Join(dir, e.Name(), "SKILL.md")); err == nil {
				found = append(found, filepath.Join(dir, e.Name()))
			}
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return "", fmt.Errorf("%w: it has no SKILL.md (nor one folder with one)", ErrNotSkill)
	}
	return "", fmt.Errorf("%w: it holds %d skills; add them one at a time", ErrNotSkill, len(found))
}

// preview reads the skill in dir; it will be copied under its name, so it
// goes by that: its frontmatter's name when that is a valid skill name,
// else its folder's name made one.
func preview(dir, from, own, tmp string) (*Preview, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, &AddError{"read", from, err}
	}
	folder := filepath.Base(real)
	if b, err := readFile(real, "SKILL.md", MaxSkillMD); err == nil {
		if md, err := skills.ParseSkillMD(b); err == nil {
			if n, ok := md.Frontmatter["name"].(string); ok && nameRule.MatchString(n) && len(n) <= MaxName {
				folder = n
			}
		}
	}
	sk, err := read(real, folder, &digests{})
	if err != nil {
		var m *MalformedError
		if errors.As(err, &m) {
			return nil, &AddError{"read", from, fmt.Errorf("%w: %s", ErrNotSkill, m.Reason)}
		}
		return nil, &AddError{"read", from, err}
	}
	p := &Preview{Skill: sk, From: from, tmp: tmp}
	if _, err := os.Stat(filepath.Join(own, sk.Name)); err == nil {
		p.Exists = true
	}
	return p, nil
}

// Add copies the previewed skill into own (Switchboard's skills folder) as
// own/<name>; replace lets it take the place of one of that name.
func Add(p *Preview, own string, replace bool) (string, error) {
	dest := filepath.Join(own, p.Name)
	if _, err := os.Stat(dest); err == nil && !replace {
		return "", &AddError{"add", p.From, fmt.Errorf("%w (%s): remove it first, or replace it", ErrExists, dest)}
	}
	if err := os.MkdirAll(own, 0o700); err != nil {
		return "", &AddError{"add", p.From, err}
	}
	tmp, err := os.MkdirTemp(own, ".add-"+p.Name+"-")
	if err != nil {
		return "", &AddError{"add", p.From, err}
	}
	defer os.RemoveAll(tmp)
	if err := copyFiles(p.Skill, tmp); err != nil {
		return "", &AddError{"add", p.From, err}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", &AddError{"add", p.From, err}
	}
	if replace {
		if err := os.RemoveAll(dest); err != nil {
			return "", &AddError{"add", p.From, err}
		}
	}
	if err := os.Rename(tmp, dest); err != nil {
		return "", &AddError{"add", p.From, err}
	}
	return dest, nil
}

// copyFiles copies sk's listed files into dir, through os.Roots on both
// sides, keeping the executable bit.
func copyFiles(sk Skill, dir string) error {
	src, err := os.OpenRoot(sk.Dir)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer dst.Close()
	for _, f := range sk.Files {
		if err := copyOne(src, dst, f.Path); err != nil {
			return fmt.Errorf("%s: %w", f.Path, err)
		}
	}
	return nil
}

func copyOne(src, dst *os.Root, rel string) error {
	in, err := src.Open(rel)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return err
	}
	if err := dst.MkdirAll(path.Dir(rel), 0o755); err != nil {
		return err
	}
	perm := fs.FileMode(0o644)
	if info.Mode()&0o111 != 0 {
		perm = 0o755
	}
	out, err := dst.OpenFile(rel, os.O_CREATE|os.O_EXCL|os.O_WRONLY, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Remove deletes the skill folder name (its name within own, which may be
// other than the name the skill goes by) from own, Switchboard's skills
// folder.
func Remove(own, name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return &AddError{"remove", name, fmt.Errorf("%w: %q is not a skill's folder name", ErrNotOwn, name)}
	}
	dir := filepath.Join(own, name)
	if _, err := os.Stat(filepath.Join(dir, "SKILL.md")); err != nil {
		return &AddError{"remove", dir, fmt.Errorf("%w: a skill found in another app's folder is that app's: delete it there, or switch it off", ErrNotOwn)}
	}
	if err := os.RemoveAll(dir); err != nil {
		return &AddError{"remove", dir, err}
	}
	return nil
}
