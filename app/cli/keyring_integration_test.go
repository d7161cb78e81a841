package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// realKeyring is set in the child run inside a private D-Bus session with its
// own gnome-keyring (TestMain then leaves the real backend in place).
const realKeyring = "SWITCHBOARD_TEST_REAL_KEYRING"

// TestSecretServiceIntegration imports a config with a GitHub token and an
// Authorization header against a real Secret Service (gnome-keyring in a
// private D-Bus session and HOME, never the user's), then checks the config
// on disk holds neither value, the keyring holds both, the server process
// gets the real token, and nothing in the data dir leaks either value.
func TestSecretServiceIntegration(t *testing.T) {
	if os.Getenv(realKeyring) == "1" {
		secretServiceScenario(t)
		return
	}
	home := t.TempDir()
	run := filepath.Join(home, "run")
	if err := os.Mkdir(run, 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), "dbus-run-session", "--", "sh", "-c",
		`printf switchboard-test | gnome-keyring-daemon --unlock --daemonize --components=secrets >/dev/null 2>&1 && exec "$0" -test.run='^TestSecretServiceIntegration$' -test.v`,
		os.Args[0])
	cmd.Env = append(os.Environ(), realKeyring+"=1", proctest.EnvFaultServer+"="+proctest.FaultServer(t), "HOME="+home, "XDG_DATA_HOME="+filepath.Join(home, "share"),
		"XDG_RUNTIME_DIR="+run, "XDG_CONFIG_HOME="+filepath.Join(home, "config"))
	out, err := cmd.CombinedOutput()
	t.Logf("child run:\n%s", out)
	if err != nil || !strings.Contains(string(out), "--- PASS: TestSecretServiceIntegration") {
		t.Fatalf("scenario under a real Secret Service failed: %v\n%s", err, out)
	}
}

func secretServiceScenario(t *testing.T) {
	const token, auth = "ghp_IntegrationToken0123456789", "Bearer sk-integration-header-987654"
	st := secrets.NewStore()
	if err := st.Available(); err != nil {
		t.Fatalf("the private gnome-keyring is not reachable: %v", err)
	}
	data := t.TempDir()
	file := writeFile(t, "claude_desktop_config.json", fmt.Sprintf(`{"mcpServers": {
  "github": {"command": %q, "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": %q, "FAULT_LEAK": "GITHUB_PERSONAL_ACCESS_TOKEN"}},
  "remote": {"url": "https://127.0.0.1:9/mcp", "headers": {"Authorization": %q}}
}}`, proctest.FaultServer(t), token, auth))

	code, out, errOut := runIn(t, data, "servers", "import", file, "--dry-run")
	if code != 0 || !strings.Contains(out, "env.GITHUB_PERSONAL_ACCESS_TOKEN ••••6789 moves to the keyring") || strings.Contains(out, token) {
		t.Fatalf("dry run: %d\n%s\n%s", code, out, errOut)
	}
	if code, out, errOut := runIn(t, data, "servers", "import", file); code != 0 {
		t.Fatalf("import: %d\n%s\n%s", code, out, errOut)
	}
	disk, err := os.ReadFile(filepath.Join(data, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{token, "sk-integration-header-987654"} {
		if strings.Contains(string(disk), v) {
			t.Fatalf("config.json holds a secret in plaintext:\n%s", disk)
		}
	}
	ghName, authName := ownName(t, data, "github", "env.GITHUB_PERSONAL_ACCESS_TOKEN"), ownName(t, data, "remote", "headers.Authorization")
	if !strings.Contains(string(disk), "${secret:"+ghName+"}") || !strings.Contains(string(disk), "${secret:"+authName+"}") {
		t.Fatalf("config.json lacks the references:\n%s", disk)
	}
	cfg, err := config.Load(filepath.Join(data, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	scope := secrets.ScopeOf(cfg.Settings) // the entries are this data dir's own
	for name, want := range map[string]string{ghName: token, authName: auth} {
		if got, err := keyring.Get(secrets.Service, scope+"/"+name); err != nil || got != want {
			t.Fatalf("keyring %s = %q, %v", name, got, err)
		}
	}
	// The server process receives the real value in its environment; the
	// result that echoes it is masked at the source like anything else a
	// server says (only the real value is masked as ••••6789).
	code, out, errOut = runIn(t, data, "tools", "call", "github__getenv", "--args", `{"name":"GITHUB_PERSONAL_ACCESS_TOKEN"}`)
	if code != 0 || strings.TrimSpace(out) != secrets.Mask(token) {
		t.Fatalf("server env: %d %q %s", code, out, errOut)
	}
	// The server printed the token to stderr; the log on disk must hold it masked.
	filepath.WalkDir(data, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		for _, v := range []string{token, "sk-integration-header-987654"} {
			if strings.Contains(string(b), v) {
				t.Errorf("%s contains a secret", p)
			}
		}
		return nil
	})
	if log, _ := os.ReadFile(filepath.Join(data, "logs", "github.log")); !strings.Contains(string(log), "GITHUB_PERSONAL_ACCESS_TOKEN=••••6789") {
		t.Errorf("log should show the leaked value masked:\n%s", log)
	}
	if code, out, _ := runIn(t, data, "secrets", "list"); code != 0 || !strings.Contains(out, ghName+"  ••••6789  github") {
		t.Errorf("secrets list:\n%s", out)
	}
}
