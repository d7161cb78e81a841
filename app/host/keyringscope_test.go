package host

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
)

// openAt opens a host on dir, closed at the test's end.
func openAt(t *testing.T, dir string) *Host {
	t.Helper()
	h := Open(Options{Dir: datadir.Dir(dir)})
	t.Cleanup(func() { h.Close(context.Background()) })
	return h
}

// scopeOf is the keyring scope config.json in dir names.
func scopeOf(t *testing.T, dir string) secrets.Keyring {
	t.Helper()
	cfg, err := config.Load(datadir.Dir(dir).Config())
	if err != nil {
		t.Fatal(err)
	}
	return secrets.KeyringOf(cfg.Settings)
}

// A data directory copied elsewhere (a backup, a second profile) shared
// the original's keyring entries: removing a server in the copy deleted
// the original's secret. The copy now gets a scope of its own with the
// entries it uses; a directory moved, or reached through a symbolic link,
// keeps its scope.
func TestCopiedDataDirKeepsItsOwnSecrets(t *testing.T) {
	const token, login = "ghp_copiedDataDir0123456789", `{"access_token":"copied-login"}`
	cases := []struct {
		name string
		// elsewhere makes the data dir at another path from orig (which
		// it may move) and says whether orig still exists as it was.
		elsewhere func(t *testing.T, orig string) (dir string, origStays bool)
		ownScope  bool
	}{
		{"copied", func(t *testing.T, orig string) (string, bool) {
			dir := t.TempDir()
			copyFile(t, datadir.Dir(orig).Config(), datadir.Dir(dir).Config())
			return dir, true
		}, true},
		{"moved", func(t *testing.T, orig string) (string, bool) {
			dir := filepath.Join(t.TempDir(), "moved")
			if err := os.Rename(orig, dir); err != nil {
				t.Fatal(err)
			}
			return dir, false
		}, false},
		{"reached through a symbolic link", func(t *testing.T, orig string) (string, bool) {
			dir := filepath.Join(t.TempDir(), "link")
			if err := os.Symlink(orig, dir); err != nil {
				t.Fatal(err)
			}
			return dir, true
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			orig := filepath.Join(t.TempDir(), "data")
			if err := os.Mkdir(orig, 0o700); err != nil {
				t.Fatal(err)
			}
			h := openAt(t, orig)
			importText(t, h, "a.json", `{"mcpServers": {
  "gh": {"command": "/nonexistent/gh", "env": {"GITHUB_TOKEN": "`+token+`"}},
  "remote": {"url": "https://127.0.0.1:9/mcp"}}}`, nil)
			if err := h.store.Set(oauth.KeyFor("remote"), login); err != nil {
				t.Fatal(err)
			}
			before := scopeOf(t, orig)
			if before.Scope == "" || before.Dir == "" {
				t.Fatalf("config.json does not record its scope and directory: %+v", before)
			}
			h.Close(context.Background())

			dir, origStays := c.elsewhere(t, orig)
			other := openAt(t, dir)
			if env, _, _, serr := resolved(t, other, "gh"); env["GITHUB_TOKEN"] != token || serr != "" {
				t.Fatalf("at the new path gh starts with %v (%s)", env, serr)
			}
			if v, err := other.store.Get(oauth.KeyFor("remote")); err != nil || v != login {
				t.Fatalf("the login at the new path: %q, %v", v, err)
			}
			after := scopeOf(t, dir)
			if own := after.Scope != before.Scope; own != c.ownScope {
				t.Fatalf("scope %s → %s: a scope of its own is %v, want %v", before.Scope, after.Scope, own, c.ownScope)
			}
			if err := other.Servers.RemoveWith("gh", true); err != nil {
				t.Fatal(err)
			}
			if err := other.Servers.RemoveWith("remote", true); err != nil {
				t.Fatal(err)
			}
			if !origStays || !c.ownScope {
				return
			}
			back := openAt(t, orig)
			if env, _, _, serr := resolved(t, back, "gh"); env["GITHUB_TOKEN"] != token || serr != "" {
				t.Fatalf("removing gh in the copy took the original's secret: %v (%s)", env, serr)
			}
			if v, err := back.store.Get(oauth.KeyFor("remote")); err != nil || v != login {
				t.Fatalf("removing remote in the copy took the original's login: %q, %v", v, err)
			}
			if got := scopeOf(t, orig); got != before {
				t.Fatalf("the original's keyring settings changed: %+v → %+v", before, got)
			}
		})
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// A locked keyring cannot delete a server's secrets: the server stays
// (with the names that list them) and the error says to unlock it, not to
// install a keyring or set the secret again.
func TestRemoveWithALockedKeyringKeepsTheServer(t *testing.T) {
	h := open(t)
	importText(t, h, "a.json", `{"mcpServers": {"gh": {"command": "/nonexistent/gh", "env": {"GITHUB_TOKEN": "ghp_lockedKeyring0123456789"}}}}`, nil)
	names, err := h.Servers.SecretsOf("gh")
	if err != nil || len(names) != 1 {
		t.Fatalf("SecretsOf = %v, %v", names, err)
	}
	keyring.MockInitWithError(errors.New("failed to unlock correct collection '/org/freedesktop/secrets/aliases/login'"))
	t.Cleanup(keyring.MockInit)

	err = h.Servers.RemoveWith("gh", true)
	if !errors.Is(err, secrets.ErrLocked) || !strings.Contains(err.Error(), "unlock your keyring") || strings.Contains(err.Error(), "install") {
		t.Fatalf("remove with a locked keyring: %v", err)
	}
	cfg, err := h.readConfig()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cfg.Lookup("gh"); !ok || !slices.Contains(secrets.Names(cfg.Settings), names[0]) {
		t.Fatalf("the server or its secret's name is gone: %+v %v", cfg.Servers, secrets.Names(cfg.Settings))
	}
	// Kept by choice, the secrets need no keyring.
	if err := h.Servers.RemoveWith("gh", false); err != nil {
		t.Fatalf("remove --keep-secrets with a locked keyring: %v", err)
	}
}

// A dry run names a new server's keyring entries by a stand-in for the id
// the import gives it (each import makes its own); a server it replaces
// keeps its id, named as the import names it.
func TestDryRunNamesNoIDItWillNotUse(t *testing.T) {
	const file = `{"mcpServers": {"gh": {"command": "/nonexistent/gh", "env": {"GITHUB_TOKEN": "ghp_dryRunNames0123456789"}}}}`
	h := open(t)
	dry, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: "a.json", Data: []byte(file), DryRun: true})
	if err != nil || len(dry.Moves) != 1 || dry.Moves[0].Name != "server."+NewIDLabel+".env.GITHUB_TOKEN" {
		t.Fatalf("dry run moves %+v, %v", dry.Moves, err)
	}
	real := importText(t, h, "a.json", file, nil)
	if len(real.Moves) != 1 || !strings.HasPrefix(real.Moves[0].Name, "server.") || strings.Contains(real.Moves[0].Name, NewIDLabel) {
		t.Fatalf("import moves %+v", real.Moves)
	}
	res := map[string]Resolution{"gh": Replace}
	const changed = `{"mcpServers": {"gh": {"command": "/nonexistent/gh2", "env": {"GITHUB_TOKEN": "ghp_dryRunNames0123456789"}}}}`
	dry, err = h.ServerFiles.Import(t.Context(), ImportRequest{Name: "a.json", Data: []byte(changed), DryRun: true, Resolutions: res})
	if err != nil || len(dry.Moves) != 1 || dry.Moves[0].Name != real.Moves[0].Name {
		t.Fatalf("a replace's dry run names %+v, the import named %q (%v)", dry.Moves, real.Moves[0].Name, err)
	}
}

// docker's -e NAME=secret is imported as -e NAME and an env value in the
// keyring: docker reads it from its environment, so it is not on the
// command line where every user of the computer can read it.
func TestImportTakesDockerSecretsOffTheCommandLine(t *testing.T) {
	const token = "ghp_dockerEnvToken0123456789"
	h := open(t)
	res := importText(t, h, "a.json", `{"mcpServers": {"github": {"command": "docker",
  "args": ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN=`+token+`", "-e", "LOG=debug", "ghcr.io/github/github-mcp-server"]}}}`, nil)
	if len(res.Moves) != 1 || res.Moves[0].Field != "env.GITHUB_PERSONAL_ACCESS_TOKEN" {
		t.Fatalf("moves %+v", res.Moves)
	}
	env, _, args, serr := resolved(t, h, "github")
	want := []string{"run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "-e", "LOG=debug", "ghcr.io/github/github-mcp-server"}
	if !slices.Equal(args, want) || env["GITHUB_PERSONAL_ACCESS_TOKEN"] != token || serr != "" {
		t.Fatalf("github starts as %q with %v (%s)", args, env, serr)
	}
	if disk := onDisk(t, h); strings.Contains(disk, token) {
		t.Fatalf("config.json holds the token:\n%s", disk)
	}
}
