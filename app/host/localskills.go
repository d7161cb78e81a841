package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/mcpmanager/localskills"
	"github.com/switchboard-app/switchboard/mcpmanager/toolcheck"
)

// LocalSkills are the skills on this computer: the SKILL.md folders of
// Claude Code, the Agent Skills standard (Codex and others), Codex's own
// (~/.codex/skills), GitHub Copilot, the workspace's and added projects',
// Claude Code's plugins and Switchboard's own skills folder. They reach
// the chats and serve through
// the skills catalog beside the servers' skills (one catalog server per
// folder, "skills@claude", …), pinned as tools are.
type LocalSkills struct {
	h        *Host
	store    *localskills.Store
	onChange atomic.Pointer[func()]
}

// newLocalSkills makes the part; Open gives its sessions to the catalog.
func newLocalSkills(h *Host) *LocalSkills {
	k := &LocalSkills{h: h}
	k.store = localskills.New(localskills.Options{
		Places: k.places, State: h.dir.SkillsState(),
		OnChange: func() {
			if f := k.onChange.Load(); f != nil {
				(*f)()
			}
		},
	})
	return k
}

// Watch finds the skills again when their folders change, until ctx ends
// (the window and serve); onChange is called after each change (it must
// not block). Without it the skills are read again at most once a second.
func (k *LocalSkills) Watch(ctx context.Context, onChange func()) error {
	if onChange != nil {
		k.onChange.Store(&onChange)
	}
	return k.store.Watch(ctx)
}

func (k *LocalSkills) places() localskills.Places {
	home, _ := os.UserHomeDir()
	return localskills.Places{Home: home, Workspace: k.h.Workspace.Root(), Own: k.h.dir.Skills()}
}

// List lists the skills on this computer, the folders looked in and the
// malformed skills left out.
func (k *LocalSkills) List(ctx context.Context) (LocalSkillList, error) {
	l, err := k.store.List()
	if err != nil {
		return LocalSkillList{Skills: []LocalSkill{}, Malformed: []MalformedSkill{}, Folders: []SkillFolder{}}, err
	}
	s, err := k.h.Settings.Chat()
	if err != nil {
		return LocalSkillList{}, err
	}
	trusted, _ := k.store.Trusted()
	added := k.added()
	out := LocalSkillList{Skills: []LocalSkill{}, Malformed: []MalformedSkill{}, Folders: []SkillFolder{}}
	isTrusted := func(dirs ...string) bool {
		for _, t := range trusted {
			for _, d := range dirs {
				if d == t || strings.HasPrefix(d, t+string(filepath.Separator)) {
					return true
				}
			}
		}
		return false
	}
	for _, src := range l.Sources {
		_, err := os.Stat(src.Dir)
		out.Folders = append(out.Folders, SkillFolder{Server: src.Server, Dir: src.Dir, App: src.App, Scope: src.Scope,
			Exists: err == nil, Trusted: isTrusted(src.Dir), Added: slices.Contains(added, src.Dir)})
	}
	for _, en := range l.Skills {
		out.Skills = append(out.Skills, k.view(en, s, isTrusted(en.Dir, en.Source.Dir)))
	}
	for _, in := range l.Invalid {
		out.Malformed = append(out.Malformed, MalformedSkill{Folder: in.Dir, Source: in.Source.Dir, Reason: in.Reason})
	}
	return out, nil
}

func (k *LocalSkills) added() []string {
	b, err := os.ReadFile(k.h.dir.SkillsState())
	if err != nil {
		return nil
	}
	var st struct {
		Folders []string `json:"folders"`
	}
	_ = json.Unmarshal(b, &st)
	return st.Folders
}

func findingViews(fs []toolcheck.Finding) []SkillFinding {
	out := make([]SkillFinding, 0, len(fs))
	for _, f := range fs {
		out = append(out, SkillFinding{Where: f.Where, Reason: f.Reason, Excerpt: f.Excerpt})
	}
	return out
}

func fileViews(fs []localskills.File) []SkillFile {
	out := make([]SkillFile, 0, len(fs))
	for _, f := range fs {
		out = append(out, SkillFile{Path: f.Path, Size: f.Size})
	}
	return out
}

func (k *LocalSkills) view(en localskills.Entry, s ChatSettings, trusted bool) LocalSkill {
	v := LocalSkill{Server: en.Source.Server, Name: en.Name, Description: en.Description, Folder: en.Dir,
		Source: en.Source.Dir, App: en.Source.App, Scope: en.Source.Scope, AlsoIn: en.AlsoIn, Size: en.Size(),
		Files: fileViews(en.Files), LeftOut: en.LeftOut, Warnings: en.Warnings, State: en.State, Changes: en.Changes,
		On: s.SkillOn(en.Source.Server, en.Name), Trusted: trusted, Own: en.Source.Scope == "switchboard"}
	fs := en.Findings
	if en.State == localskills.Held {
		// The change's findings, less those the text as it is now already
		// shows (a line added is found in both).
		for _, f := range en.ChangeFindings {
			if !slices.Contains(fs, f) {
				fs = append(slices.Clip(fs), f)
			}
		}
		v.Previous = en.Previous
		if b, err := os.ReadFile(filepath.Join(en.Dir, "SKILL.md")); err == nil && len(b) <= localskills.MaxSkillMD {
			v.Current = string(b)
		}
	}
	v.Findings = findingViews(fs)
	return v
}

// noLocalSkillError is ErrNoSuchSkill said of the skills on this computer
// (ErrNoSuchSkill's own words are of a server's).
type noLocalSkillError struct{ name string }

func noLocalSkill(name string) error { return &noLocalSkillError{name} }

func (e *noLocalSkillError) Error() string {
	return fmt.Sprintf("%q: no skill on this computer goes by that name: 'switchboard skills list' lists them", e.name)
}

func (e *noLocalSkillError) Unwrap() error { return ErrNoSuchSkill }

// Find is the one local skill name names: "name", or "skills@x/name" when
// two have that name.
func (k *LocalSkills) Find(ctx context.Context, name string) (LocalSkill, error) {
	return k.find(ctx, name)
}

// find is the one local skill name names: "name", or "skills@x/name" when
// two have that name.
func (k *LocalSkills) find(ctx context.Context, name string) (LocalSkill, error) {
	l, err := k.List(ctx)
	if err != nil {
		return LocalSkill{}, err
	}
	server, bare, qualified := strings.Cut(name, "/")
	if !qualified {
		bare = name
	}
	var found []LocalSkill
	for _, sk := range l.Skills {
		if sk.Name == bare && (!qualified || sk.Server == server) {
			found = append(found, sk)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return LocalSkill{}, noLocalSkill(name)
	}
	var names []string
	for _, f := range found {
		names = append(names, f.Server+"/"+f.Name+" ("+f.Folder+")")
	}
	return LocalSkill{}, fmt.Errorf("%q: %w: name one of %s", name, ErrSkillAmbiguous, strings.Join(names, ", "))
}

// SetOn switches a local skill ("name", or "skills@x/name") on or off for
// every chat and serve.
func (k *LocalSkills) SetOn(ctx context.Context, name string, on bool) (LocalSkill, error) {
	sk, err := k.find(ctx, name)
	if err != nil {
		return LocalSkill{}, err
	}
	key := chat.SkillKey(sk.Server, sk.Name)
	err = k.h.Settings.EditChat(func(s *ChatSettings) error {
		s.OffSkills = slices.DeleteFunc(s.OffSkills, func(o string) bool { return o == key })
		if !on {
			s.OffSkills = append(s.OffSkills, key)
			slices.Sort(s.OffSkills)
		}
		return nil
	})
	sk.On = on
	return sk, err
}

// Accept accepts a held skill ("name" or "skills@x/name") as it is now on
// disk: its files are pinned and it is offered again.
func (k *LocalSkills) Accept(ctx context.Context, name string) (LocalSkill, error) {
	sk, err := k.find(ctx, name)
	if err != nil {
		return LocalSkill{}, err
	}
	if err := k.store.Accept(sk.Folder); err != nil {
		return LocalSkill{}, err
	}
	return k.find(ctx, sk.Server+"/"+sk.Name)
}

// Trust marks folder as the user's own (on) or not: the skills in it are
// not held for their edits.
func (k *LocalSkills) Trust(folder string, on bool) error {
	abs, err := filepath.Abs(folder)
	if err != nil {
		return err
	}
	return k.store.Trust(abs, on)
}

// AddFolder adds (on) or removes a project folder to look for skills in
// (its .claude/skills, .agents/skills, .github/skills, and itself).
func (k *LocalSkills) AddFolder(folder string, on bool) error {
	abs, err := filepath.Abs(folder)
	if err != nil {
		return err
	}
	if info, err := os.Stat(abs); on && (err != nil || !info.IsDir()) {
		return fmt.Errorf("%s: not a folder on this computer; give the path of a project folder", abs)
	}
	return k.store.AddFolder(abs, on)
}

func (k *LocalSkills) preview(req AddSkill) (*localskills.Preview, error) {
	scratch := filepath.Join(k.h.dir.String(), "tmp", "skills")
	if req.Path == "" {
		if len(req.Zip) == 0 {
			return nil, errors.New("no skill to add: give a skill folder or a .zip")
		}
		return localskills.PreviewZip(req.ZipName, req.Zip, k.h.dir.Skills(), scratch)
	}
	path := req.Path
	if p, ok := strings.CutPrefix(path, "file://"); ok { // a drop from a file manager
		path = p
	}
	if strings.HasPrefix(path, "~/") {
		home, _ := os.UserHomeDir()
		path = filepath.Join(home, path[2:])
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	return localskills.PreviewPath(abs, k.h.dir.Skills(), scratch)
}

// Preview reads a skill folder or .zip and says what it holds and what
// the checks found, without adding it.
func (k *LocalSkills) Preview(req AddSkill) (SkillPreview, error) {
	p, err := k.preview(req)
	if err != nil {
		return SkillPreview{}, err
	}
	defer p.Close()
	return previewView(p), nil
}

func previewView(p *localskills.Preview) SkillPreview {
	fm, _ := json.Marshal(p.Frontmatter)
	return SkillPreview{Name: p.Name, Description: p.Description, From: p.From, Files: fileViews(p.Files), Size: p.Size(),
		LeftOut: p.LeftOut, Findings: findingViews(p.Findings), Warnings: p.Warnings, Frontmatter: string(fm), Exists: p.Exists}
}

// Add copies a skill folder or .zip into Switchboard's skills folder,
// where the chats and serve find it; it is accepted as added.
func (k *LocalSkills) Add(ctx context.Context, req AddSkill) (LocalSkill, error) {
	p, err := k.preview(req)
	if err != nil {
		return LocalSkill{}, err
	}
	defer p.Close()
	dest, err := localskills.Add(p, k.h.dir.Skills(), req.Replace)
	if err != nil {
		return LocalSkill{}, err
	}
	real, _ := filepath.EvalSymlinks(dest)
	if err := k.store.Accept(real); err != nil { // what the user saw and added
		return LocalSkill{}, err
	}
	return k.find(ctx, localskills.ServerPrefix+"switchboard/"+p.Name)
}

// Remove deletes a skill from Switchboard's skills folder (a skill in
// another app's folder is that app's: switch it off instead), by its
// folder's name or the name it goes by.
func (k *LocalSkills) Remove(ctx context.Context, name string) error {
	server, bare, qualified := strings.Cut(name, "/")
	if !qualified {
		bare = name
	}
	own := k.h.dir.Skills()
	ownServer := localskills.ServerPrefix + "switchboard"
	folder := bare
	if _, err := os.Stat(filepath.Join(own, bare, "SKILL.md")); err != nil || qualified && server != ownServer {
		l, err := k.List(ctx)
		if err != nil {
			return err
		}
		named := func(sk LocalSkill) bool { return sk.Name == bare && (!qualified || sk.Server == server) }
		i := slices.IndexFunc(l.Skills, func(sk LocalSkill) bool { return named(sk) && sk.Own })
		switch {
		case i >= 0:
			folder = filepath.Base(l.Skills[i].Folder)
		case slices.ContainsFunc(l.Skills, named):
			return fmt.Errorf("%s: %w: a skill found in another app's folder is that app's: delete it there, or switch it off", name, ErrNotOwnSkill)
		default:
			return noLocalSkill(name)
		}
	}
	if err := localskills.Remove(own, folder); err != nil {
		return err
	}
	_, err := k.store.Rescan()
	return err
}

// unavailable says why the chats offer no local skill name ("name" or
// "skills@x/name") when it is held for review or refused, with what the
// user can do; "" otherwise.
func (k *LocalSkills) unavailable(name string) string {
	l, err := k.store.List()
	if err != nil {
		return ""
	}
	server, bare, qualified := strings.Cut(name, "/")
	if !qualified {
		bare = name
	}
	for _, en := range l.Skills {
		if en.State != localskills.Held || en.Name != bare || qualified && en.Source.Server != server {
			continue
		}
		key := en.Source.Server + "/" + en.Name
		why := "it is new and the checks found what looks like hidden instructions in it (" + toolcheck.Summary(en.Findings) + ")"
		if len(en.Changes) > 0 {
			why = "its files changed since the user accepted it (" + strings.Join(en.Changes, ", ") + ")"
			if len(en.ChangeFindings) > 0 {
				why += "; the checks found what looks like hidden instructions (" + toolcheck.Summary(en.ChangeFindings) + ")"
			}
		}
		return fmt.Sprintf("the skill %s on this computer is held for the user's review: %s. It is not loaded; tell the user, who can review and accept it on the Skills page of the Switchboard window, or with 'switchboard skills accept %s'", key, why, key)
	}
	for _, in := range l.Invalid {
		if in.Name == bare && (!qualified || in.Source.Server == server) {
			return fmt.Sprintf("the skill %s/%s on this computer (%s) cannot be loaded: %s. Tell the user", in.Source.Server, in.Name, in.Dir, in.Reason)
		}
	}
	return ""
}

// leftOut says why server's local skill name does not serve its file at
// path (too big, a link leading out of its folder); "" when it is not one
// of the files left out.
func (k *LocalSkills) leftOut(server, name, path string) string {
	en, ok := k.store.Find(server, name)
	if !ok {
		return ""
	}
	for _, lo := range en.LeftOut {
		if why, ok := strings.CutPrefix(lo, path+": "); ok {
			return fmt.Sprintf("%s of the skill %s/%s is not served: %s", path, server, name, why)
		}
	}
	return ""
}

// Folder is the folder of server's local skill name ("" for a server's
// skill), for the model to run its scripts there.
func (k *LocalSkills) Folder(server, name string) string { return k.store.Folder(server, name) }
