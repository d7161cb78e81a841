package mcpmanager

import "github.com/switchboard-app/switchboard/mcpmanager/skills"

// Skills is the catalog of the servers' skills (the skills extension):
// listed from the same sessions as the router's tools, read on demand.
func (m *Manager) Skills() *skills.Catalog { return m.skills }

// skillSessions gives the catalog the manager's servers and sessions.
type skillSessions struct{ m *Manager }

func (s skillSessions) Servers() []string { return s.m.reg.Servers() }

func (s skillSessions) Session(server string) (skills.Session, error) {
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
