package config

import (
	"fmt"

	"github.com/switchboard-app/switchboard/builtin"
)

// reservedProblem reports a server that takes the name of one of
// Switchboard's built-in servers (builtin.Reserved), or false. Such a server
// would be exposed, and approved, as the built-in, so it is refused wherever
// a server enters the config (import, "servers add", templates); the manager
// refuses one already in config.json at start. fix says what to do instead.
func reservedProblem(path, name, fix string) (Problem, bool) {
	if !builtin.Reserved(name) {
		return Problem{}, false
	}
	return Problem{
		Path:     path,
		Severity: SeverityError,
		Message:  fmt.Sprintf("the name %q is reserved for Switchboard's built-in server; %s", name, fix),
	}, true
}
