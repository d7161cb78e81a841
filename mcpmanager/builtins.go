package mcpmanager

import (
	"fmt"

	"github.com/switchboard-app/switchboard/builtin"
)

// AttachBuiltins starts each built-in with its data root (root(def)) and
// connects it in-process, so its tools are listed and called like any other
// server's. What the built-ins hold is released at the end of Close. Those
// that cannot start (a store held by another Switchboard process, say) are
// returned as errors; the others run.
//
// Deprecated: use ServerConfig.Builtin; removed once app/ moves.
func (m *Manager) AttachBuiltins(root func(builtin.Server) string, defs ...builtin.Server) []error {
	var errs []error
	for _, def := range defs {
		srv, release, err := def.Start(builtin.Config{Root: root(def)})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := m.AddInProcess(def.Name, srv); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", def.Name, err))
			_ = release()
			continue
		}
		m.OnClose(release)
	}
	return errs
}
