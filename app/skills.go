package app

import (
	"context"
	"time"

	"github.com/switchboard-app/switchboard/app/host"
)

// skillsTimeout bounds listing a server's skills for its Details.
const skillsTimeout = 30 * time.Second

// ServerSkills lists a server's skills (the skills extension) for its
// Details: name, description, size and whether the chats have it on. None
// is read.
func (a *ServersPage) ServerSkills(server string) (host.ServerSkills, error) {
	ctx, cancel := context.WithTimeout(a.bg(), skillsTimeout)
	defer cancel()
	return a.h.Skills.Server(ctx, server)
}

// SetSkillOn switches a server's skill on or off for every chat.
func (a *ServersPage) SetSkillOn(server, skill string, on bool) error {
	ctx, cancel := context.WithTimeout(a.bg(), skillsTimeout)
	defer cancel()
	return a.h.Skills.SetOn(ctx, server, skill, on)
}
