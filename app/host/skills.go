package host

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/mcpmanager/localskills"
	"github.com/switchboard-app/switchboard/mcpmanager/skills"
)

// Skills are the servers' skills (the skills extension): what each server
// lists, which the user has on, and the set a chat turn may load.
type Skills struct{ h *Host }

// Skill is one skill as the window and the CLI show it.
type Skill struct {
	Server      string `json:"server"`
	Name        string `json:"name"`
	Description string `json:"description"`
	URI         string `json:"uri"`
	Files       int    `json:"files"` // 0 for a dynamic skill
	Size        int64  `json:"size"`  // bytes of all its files
	Dynamic     bool   `json:"dynamic,omitempty"`
	On          bool   `json:"on"`
}

// ServerSkills is what one server offers.
type ServerSkills struct {
	// Offered: the server declares the extension (false: it has no skills,
	// or is not running).
	Offered bool    `json:"offered"`
	Skills  []Skill `json:"skills"`
	// Invalid are entries left out for breaking the extension's rules.
	Invalid []string `json:"invalid,omitempty"`
}

// Server lists server's skills, each with whether the user has it on. A
// server that is not running, or does not offer skills, has none
// (Offered false, no error); a failed listing is the error.
func (k *Skills) Server(ctx context.Context, server string) (ServerSkills, error) {
	cat := k.h.mgr.Skills()
	if !cat.Offers(server) {
		return ServerSkills{Skills: []Skill{}}, nil
	}
	l, err := cat.List(ctx, server)
	if err != nil {
		return ServerSkills{Skills: []Skill{}}, err
	}
	s, err := k.h.Settings.Chat()
	if err != nil {
		return ServerSkills{Skills: []Skill{}}, err
	}
	out := ServerSkills{Offered: true, Skills: []Skill{}, Invalid: l.Invalid}
	for _, sk := range l.Skills {
		out.Skills = append(out.Skills, Skill{Server: server, Name: sk.Name, Description: sk.Description, URI: sk.URI,
			Files: len(sk.Files), Size: sk.Size(), Dynamic: sk.Dynamic, On: s.SkillOn(server, sk.Name)})
	}
	return out, nil
}

// Every lists the skills of every running server that offers them (the
// skills on this computer are LocalSkills.List's), and the servers whose
// listing failed, each with what to do: a person looking for a server's
// skills is told why they are missing instead of finding them left out.
func (k *Skills) Every(ctx context.Context) ([]Skill, []ServerError) {
	out := []Skill{}
	var failed []ServerError
	for _, server := range k.h.router().Servers() {
		l, err := k.Server(ctx, server)
		if err != nil {
			failed = append(failed, ServerError{Server: server, Err: skillsFailed(server, err)})
			continue
		}
		out = append(out, l.Skills...)
	}
	return out, failed
}

// skillsFailed is what a person reads when server's skills could not be
// listed: the sentence (what to do), then the server's own error.
func skillsFailed(server string, err error) string {
	return fmt.Sprintf("%s could not list its skills; its tools still work. Open the server's log on the Servers page to see why.\n%s", server, Plain(err))
}

// SetOn switches server's skill name on or off for every chat (config.json's
// chat settings, offSkills).
func (k *Skills) SetOn(ctx context.Context, server, name string, on bool) error {
	if _, err := k.h.mgr.Skills().Find(ctx, server, name); err != nil {
		if errors.Is(err, skills.ErrUnknownSkill) {
			return fmt.Errorf("%s: %w %q: 'switchboard servers skills %s' lists them", server, ErrNoSuchSkill, name, server)
		}
		return err
	}
	key := chat.SkillKey(server, name)
	return k.h.Settings.EditChat(func(s *ChatSettings) error {
		s.OffSkills = slices.DeleteFunc(s.OffSkills, func(o string) bool { return o == key })
		if !on {
			s.OffSkills = append(s.OffSkills, key)
			slices.Sort(s.OffSkills)
		}
		return nil
	})
}

// forTurn is the skill set of a turn: the skills of every server that
// offers them, less those the user switched off, those of servers the chat
// switched off (active, the chat's own choice of tools: nil for none) and,
// with an agent, those the agent does not allow.
func (k *Skills) forTurn(s ChatSettings, agent *ChatAgent, active func(Tool) bool) chat.SkillSet {
	return turnSkills{Catalog: k.h.mgr.Skills(), local: k.h.LocalSkills, settings: s, agent: agent, active: active}
}

type turnSkills struct {
	*skills.Catalog
	local    *LocalSkills
	settings ChatSettings
	agent    *ChatAgent
	active   func(Tool) bool
}

// Skills lists the turn's skills; a server that fails to list only loses
// its skills.
func (t turnSkills) Skills(ctx context.Context) []skills.Skill {
	all, _ := t.All(ctx)
	// A set of the skills switched off: a search of the list for each of
	// thousands of skills was quadratic.
	off := make(map[string]bool, len(t.settings.OffSkills))
	for _, k := range t.settings.OffSkills {
		off[k] = true
	}
	return slices.DeleteFunc(all, func(sk skills.Skill) bool {
		return off[chat.SkillKey(sk.Server, sk.Name)] || t.agent != nil && !t.agent.AllowsSkill(sk.Server, sk.Name) ||
			t.active != nil && !localskills.IsLocal(sk.Server) && !t.active(Tool{Server: sk.Server}) // the chat switched its server off
	})
}

// Folder is the folder of a local skill on this computer ("" for a
// server's), which the model is told so it can run the skill's scripts.
func (t turnSkills) Folder(sk skills.Skill) string { return t.local.Folder(sk.Server, sk.Name) }

// Unavailable says why the turn has no skill named name ("name" or
// "server/name") when it is a local skill held for the user's review or
// refused, or a skill the user switched off, the agent does not allow or
// the chat switched its server off, with what the user can do ("" when
// there is no such skill at all): the model tells the user instead of
// taking a skill of a name like it for the one asked for.
func (t turnSkills) Unavailable(ctx context.Context, name string) string {
	if why := t.local.unavailable(name); why != "" {
		return why
	}
	server, bare, qualified := strings.Cut(name, "/")
	if !qualified {
		bare = name
	}
	all, _ := t.All(ctx)
	for _, sk := range all {
		if sk.Name != bare || qualified && sk.Server != server {
			continue
		}
		key := chat.SkillKey(sk.Server, sk.Name)
		switch {
		case slices.Contains(t.settings.OffSkills, key):
			return fmt.Sprintf("the user switched the skill %s off for the chats, so it is not loaded. Do the task without it, or tell the user, who can switch it on on the Skills page of the Switchboard window or with 'switchboard skills on %s'", key, key)
		case t.agent != nil && !t.agent.AllowsSkill(sk.Server, sk.Name):
			return fmt.Sprintf("the agent this chat runs as (%s) does not allow the skill %s, so it is not loaded. Do the task without it, or tell the user, who can add it to the agent's skills on the Agents page", t.agent.Name, key)
		case t.active != nil && !localskills.IsLocal(sk.Server) && !t.active(Tool{Server: sk.Server}):
			return fmt.Sprintf("the skill %s is of the server %s, which this chat has switched off, so it is not loaded. Do the task without it, or tell the user, who can switch the server on for this chat", key, sk.Server)
		}
	}
	return ""
}

// LeftOut says why a local skill does not serve its file at path (too big,
// a link leading out of its folder); "" when that is not why.
func (t turnSkills) LeftOut(sk skills.Skill, path string) string {
	return t.local.leftOut(sk.Server, sk.Name, path)
}
