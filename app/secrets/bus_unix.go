//go:build (dragonfly && cgo) || (freebsd && cgo) || linux || netbsd || openbsd

package secrets

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// errNoSessionBus: there is no D-Bus session bus, so no Secret Service.
// go-keyring's D-Bus library would start one itself ("autolaunch" through
// dbus-launch), leaving a dbus-daemon and a gnome-keyring-daemon running
// after every run; Switchboard never does.
var errNoSessionBus = errors.New("no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is unset and there is no user bus in /run/user; Switchboard does not start one")

// runtimeDir is where a per-user session bus lives when the variable is
// unset, as the D-Bus library looks for it. A variable so tests can point it
// at an empty directory.
var runtimeDir = func() string { return fmt.Sprintf("/run/user/%d", os.Getuid()) }

// sessionBus reports whether the D-Bus library finds a session bus without
// launching one: DBUS_SESSION_BUS_ADDRESS names one, or the user bus socket
// (or the file naming its address) is in the runtime directory.
func sessionBus() error {
	if a := os.Getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" && a != "autolaunch:" {
		return nil
	}
	for _, name := range []string{"bus", "dbus-session"} {
		if _, err := os.Stat(filepath.Join(runtimeDir(), name)); err == nil {
			return nil
		}
	}
	return errNoSessionBus
}
