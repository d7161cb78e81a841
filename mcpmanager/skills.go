package mcpmanager

import (
	"slices"

	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/mcpmanager/skills"
)

// Skills is the catalog of the servers' skills (the skills extension):
// listed from the same sessions as the router's tools, read on demand,
// and of the local skills when SetLocalSkills gave them.
func (m *Manager) Skills() *skills.Catalog { return m.skills }

// SetLocalSkills adds the sessions of the skills on this computer
// (localskills.Store) to the catalog, beside the servers'.
func (m *Manager) SetLocalSkills(local skills.Sessions) {
	m.localSkills.Store(&local)
}

// skillSessions gives the catalog the manager's servers and sessions.
type skillSessions struct{ m *Manager }

func (s skillSessions) local() skills.Sessions {
	if l := s.m.localSkills.Load(); l != nil {
		return *l
	}
	return nil
}

// own reports the sources whose skills are the user's own: the skills on
// this computer and the built-ins, left unmasked (skills.Options.OwnData).
func (s skillSessions) own(server string) bool {
	l := s.local()
	return builtin.Reserved(server) || l != nil && slices.Contains(l.Servers(), server)
}

func (s skillSessions) Servers() []string {
	out := s.m.reg.Servers()
	if l := s.local(); l != nil {
		out = append(slices.Clip(out), l.Servers()...)
	}
	return out
}

func (s skillSessions) Session(server string) (skills.Session, error) {
	if l := s.local(); l != nil && slices.Contains(l.Servers(), server) {
		return l.Session(server)
	}
	sup, err := s.m.Server(server)
	if err != nil {
		return nil, err
	}
	cl, err := sup.Client()
	if err != nil {
		return nil, err
	}
	return cl, nil
}
