package secrets

import (
	"errors"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// A locked keyring says to unlock it; only a keyring that cannot be
// reached says to install one. Both are ErrUnavailable to callers that
// only ask whether the keyring can be used.
func TestKeyringErrorsSayWhatToDo(t *testing.T) {
	cases := []struct {
		name, err string
		locked    bool
		says, not string
	}{
		{"gnome-keyring, prompt dismissed or not shown", "failed to unlock correct collection '/org/freedesktop/secrets/collection/login'", true, "unlock your keyring (the login keyring) and try again", "install"},
		{"Secret Service IsLocked", "org.freedesktop.Secret.Error.IsLocked: Cannot get secret of a locked object", true, "unlock your keyring", "install"},
		{"macOS keychain", "security: SecKeychainItemCopyContent: User interaction is not allowed.", true, "unlock your keyring", "install"},
		{"no session bus", "dbus: no session bus", false, "install and unlock gnome-keyring", "the keyring is locked"},
	}
	t.Cleanup(func() { keyring.MockInit() })
	BusCheck = nil
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			keyring.MockInitWithError(errors.New(c.err))
			_, err := NewStore().Get("x")
			if !errors.Is(err, ErrUnavailable) || errors.Is(err, ErrLocked) != c.locked {
				t.Fatalf("Get = %v: want unavailable, locked %v", err, c.locked)
			}
			if !strings.Contains(err.Error(), c.says) || strings.Contains(err.Error(), c.not) {
				t.Fatalf("Get = %v: want %q, not %q", err, c.says, c.not)
			}
		})
	}
}

// A secret that cannot be read is listed as locked (say to unlock the
// keyring) or as unavailable, never as missing: 'secrets list' and
// Settings show it so.
func TestListSaysTheKeyringIsLocked(t *testing.T) {
	cfg := &config.Config{Servers: []config.Server{{Name: "gh", Command: "gh", Env: map[string]string{"GITHUB_TOKEN": "${secret:gh-token}"}}}}
	cases := []struct{ name, err, want string }{
		{"locked", "org.freedesktop.Secret.Error.IsLocked: Cannot get secret of a locked object", MaskedLocked},
		{"no keyring", "dbus: no session bus", MaskedUnavailable},
	}
	t.Cleanup(func() { keyring.MockInit() })
	BusCheck = nil
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			keyring.MockInitWithError(errors.New(c.err))
			list := List(cfg, NewStore())
			if len(list) != 1 || list[0].Masked != c.want {
				t.Fatalf("List = %+v; want gh-token shown as %q", list, c.want)
			}
		})
	}
}
