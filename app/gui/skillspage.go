package gui

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/switchboard-app/switchboard/app/host"
)

// EventSkillsChanged says the skill folders on this computer changed (a
// skill added, edited, removed); the Skills page lists them again.
const EventSkillsChanged = "skills:changed"

// SkillsPage is the Skills page: the skills on this computer (SKILL.md
// folders) and the servers' skills, adding one from a folder or .zip after
// a preview, a changed one reviewed and accepted, a folder trusted.
type SkillsPage struct{ *core }

// watchSkills follows the skill folders until the app closes.
func (a *SkillsPage) watchSkills() {
	if err := a.h.LocalSkills.Watch(a.life, func() { a.emitEvent(EventSkillsChanged, nil) }); err != nil {
		slog.Error("skills folders are not watched", "err", err)
	}
}

// LocalSkills lists the skills on this computer, the folders looked in and
// the malformed skills left out.
func (a *SkillsPage) LocalSkills() (host.LocalSkillList, error) {
	ctx, cancel := context.WithTimeout(a.bg(), skillsTimeout)
	defer cancel()
	return a.h.LocalSkills.List(ctx)
}

// ServerSkillList is the servers' skills on the Skills page: every skill
// of every running server that offers them, and the servers whose listing
// failed (Error: the sentence, then the server's own text).
type ServerSkillList struct {
	Skills []host.Skill      `json:"skills"`
	Errors []ServerErrorView `json:"errors"`
}

// AllServerSkills lists the skills of every running server that offers
// them, and the servers that could not list theirs.
func (a *SkillsPage) AllServerSkills() (ServerSkillList, error) {
	ctx, cancel := context.WithTimeout(a.bg(), skillsTimeout)
	defer cancel()
	skills, failed := a.h.Skills.Every(ctx)
	return ServerSkillList{Skills: skills, Errors: errorViews(failed)}, nil
}

// AddSkillRequest is a skill to preview or add: a path (typed, chosen or
// dropped) or a .zip's bytes as base64 (a file chosen in the page).
type AddSkillRequest struct {
	Path    string `json:"path"`
	ZipName string `json:"zipName"`
	Zip     string `json:"zip"` // base64
	Replace bool   `json:"replace"`
}

func (r AddSkillRequest) host() (host.AddSkill, error) {
	req := host.AddSkill{Path: r.Path, ZipName: r.ZipName, Replace: r.Replace}
	if r.Zip != "" {
		b, err := base64.StdEncoding.DecodeString(r.Zip)
		if err != nil {
			return req, fmt.Errorf("%s could not be read: %w", r.ZipName, err)
		}
		req.Zip = b
	}
	return req, nil
}

// PreviewSkill says what a skill folder or .zip holds and what the checks
// found, without adding it.
func (a *SkillsPage) PreviewSkill(r AddSkillRequest) (host.SkillPreview, error) {
	req, err := r.host()
	if err != nil {
		return host.SkillPreview{}, err
	}
	return a.h.LocalSkills.Preview(req)
}

// AddSkill copies a skill folder or .zip into Switchboard's skills folder.
func (a *SkillsPage) AddSkill(r AddSkillRequest) (host.LocalSkill, error) {
	req, err := r.host()
	if err != nil {
		return host.LocalSkill{}, err
	}
	ctx, cancel := context.WithTimeout(a.bg(), skillsTimeout)
	defer cancel()
	return a.h.LocalSkills.Add(ctx, req)
}

// ChooseSkillFolder asks for a skill folder with the system dialog; ""
// when the user cancels.
func (a *SkillsPage) ChooseSkillFolder() (string, error) {
	ctx := a.wailsContext()
	if ctx == nil {
		return "", errors.New("no window to show the folder dialog in: type the folder's path instead")
	}
	return wruntime.OpenDirectoryDialog(ctx, wruntime.OpenDialogOptions{Title: "Choose a skill folder (it has a SKILL.md)"})
}

// RemoveSkill deletes a skill from Switchboard's skills folder.
func (a *SkillsPage) RemoveSkill(name string) error {
	ctx, cancel := context.WithTimeout(a.bg(), skillsTimeout)
	defer cancel()
	return a.h.LocalSkills.Remove(ctx, name)
}

// SetLocalSkillOn switches server's local skill name on or off for the chats.
func (a *SkillsPage) SetLocalSkillOn(server, name string, on bool) (host.LocalSkill, error) {
	ctx, cancel := context.WithTimeout(a.bg(), skillsTimeout)
	defer cancel()
	return a.h.LocalSkills.SetOn(ctx, server+"/"+name, on)
}

// AcceptSkill accepts a held skill as it is now on disk.
func (a *SkillsPage) AcceptSkill(server, name string) (host.LocalSkill, error) {
	ctx, cancel := context.WithTimeout(a.bg(), skillsTimeout)
	defer cancel()
	return a.h.LocalSkills.Accept(ctx, server+"/"+name)
}

// TrustSkillFolder marks a folder as the user's own (their edits to its
// skills are not held), or not.
func (a *SkillsPage) TrustSkillFolder(folder string, on bool) error {
	return a.h.LocalSkills.Trust(folder, on)
}

// AddSkillFolder looks for skills in a project folder too (on), or stops.
func (a *SkillsPage) AddSkillFolder(folder string, on bool) error {
	return a.h.LocalSkills.AddFolder(folder, on)
}
