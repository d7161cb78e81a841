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
