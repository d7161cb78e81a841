package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// lockedKeyring is set in the child run inside a private D-Bus session
// with its own gnome-keyring, which the scenario locks.
const lockedKeyring = "SWITCHBOARD_TEST_LOCKED_KEYRING"

// TestLockedKeyringRemove locks a real Secret Service (gnome-keyring in a
// private D-Bus session and HOME, never the user's) after an import, lists
// the secrets (shown as locked, with what to do), then removes the server: the server stays with its secret listed (nothing is
// orphaned in the keyring) and the error says to unlock the keyring, not
// to install one or to set the secret again.
func TestLockedKeyringRemove(t *testing.T) {
	if os.Getenv(lockedKeyring) == "1" {
		lockedKeyringScenario(t)
		return
	}
	home := t.TempDir()
	run := filepath.Join(home, "run")
	if err := os.Mkdir(run, 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), "dbus-run-session", "--", "sh", "-c",
		`printf switchboard-test | gnome-keyring-daemon --unlock --daemonize --components=secrets >/dev/null 2>&1 && exec "$0" -test.run='^TestLockedKeyringRemove$' -test.v`,
		os.Args[0])
	// No display: the keyring's unlock prompt cannot be shown, as when it is dismissed.
	cmd.Env = append(os.Environ(), lockedKeyring+"=1", realKeyring+"=1", "HOME="+home, "XDG_DATA_HOME="+filepath.Join(home, "share"),
		"XDG_RUNTIME_DIR="+run, "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "DISPLAY=", "WAYLAND_DISPLAY=")
	out, err := cmd.CombinedOutput()
	t.Logf("child run:\n%s", out)
	if err != nil || !strings.Contains(string(out), "--- PASS: TestLockedKeyringRemove") {
		t.Fatalf("scenario under a locked Secret Service failed: %v\n%s", err, out)
	}
}

func lockedKeyringScenario(t *testing.T) {
	if err := secrets.NewStore().Available(); err != nil {
		t.Fatalf("the private gnome-keyring is not reachable: %v", err)
	}
	data := t.TempDir()
	file := writeFile(t, "claude.json", `{"mcpServers": {"gh": {"command": "/nonexistent/gh", "env": {"GITHUB_TOKEN": "ghp_lockedKeyringToken0123456789"}}}}`)
	if code, out, errOut := runIn(t, data, "servers", "import", file); code != 0 {
		t.Fatalf("import: %d\n%s\n%s", code, out, errOut)
	}
	lock := exec.CommandContext(t.Context(), "dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.secrets",
		"/org/freedesktop/secrets", "org.freedesktop.Secret.Service.Lock", "array:objpath:/org/freedesktop/secrets/aliases/login")
	if out, err := lock.CombinedOutput(); err != nil {
		t.Fatalf("lock the keyring: %v\n%s", err, out)
	}
	// 'secrets list' says the keyring is locked and to unlock it, not
	// that there is none.
	code, out, errOut := runIn(t, data, "secrets", "list")
	if code != 0 || !strings.Contains(out, secrets.MaskedLocked) || !strings.Contains(errOut, "unlock your keyring") ||
		strings.Contains(out+errOut, "unavailable") || strings.Contains(errOut, "install") {
		t.Fatalf("secrets list with a locked keyring: %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = runIn(t, data, "servers", "remove", "gh")
	if code == 0 || !strings.Contains(errOut, "unlock your keyring") || strings.Contains(errOut, "install") || strings.Contains(errOut, "secrets set") {
		t.Fatalf("remove with a locked keyring: %d\n%s\n%s", code, out, errOut)
	}
	cfg, err := config.Load(filepath.Join(data, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	gh, ok := cfg.Lookup("gh")
	if !ok || len(secrets.Names(cfg.Settings)) != 1 || secrets.Names(cfg.Settings)[0] != secrets.Refs(gh.Env["GITHUB_TOKEN"])[0] {
		t.Fatalf("the server or the name of its secret is gone: %+v %v", cfg.Servers, secrets.Names(cfg.Settings))
	}
}
