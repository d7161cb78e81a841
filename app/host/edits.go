package host

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// index finds a configured server by name.
func index(cfg *config.Config, name string) (int, error) {
	i := slices.IndexFunc(cfg.Servers, func(s Server) bool { return s.Name == name })
	if i < 0 {
		return -1, fmt.Errorf("%w %q; see the Servers page or 'switchboard servers list'", ErrNoServer, name)
	}
	return i, nil
}

// nameFree refuses a name in use (or a built-in's). fix says what the
// user can do about it where the name is theirs to choose; "" where the
// name is fixed (a registry's or a bundle's), which says so instead of
// offering a choice there is no way to make.
func nameFree(cfg *config.Config, name, fix string) error {
	if _, taken := cfg.Lookup(name); taken || builtin.Reserved(name) {
		if fix == "" {
			fix = "the name comes with it and cannot be changed here: rename or remove the server named " + strconv.Quote(name) + " first (Servers → Edit, or 'switchboard servers remove')"
		}
		return fmt.Errorf("%w: %q; %s", ErrNameTaken, name, fix)
	}
	return nil
}

// pickAnother is nameFree's fix where the name is the user's to choose.
const pickAnother = "remove it first or pick another name"
