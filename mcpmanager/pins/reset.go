package pins

// Reset withdraws the trust given to server's tools (its command changed:
// it is another program now). Each pin keeps its definition for the
// comparison but matches nothing, so every tool the server lists is
// withheld as changed until the user trusts it again; pending changes are
// dropped, to be seen afresh.
func (s *Store) Reset(server string) error {
	return s.edit(server, "", func(d *fileData) error {
		for tool, p := range d.Pins[server] {
			p.Hash, p.New = "", false
			d.Pins[server][tool] = p
		}
		delete(d.Pending, server)
		return nil
	})
}

// Forget drops every pin and pending change of server: it was removed,
// its definitions have no business in the file any more, and a new server
// of its name is trusted on first use like any new one.
func (s *Store) Forget(server string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.reloadLocked(); err != nil {
		return err
	}
	_, pinned := s.data.Pins[server]
	_, pending := s.data.Pending[server]
	if !pinned && !pending {
		return nil
	}
	delete(s.data.Pins, server)
	delete(s.data.Pending, server)
	return s.writeLocked()
}
