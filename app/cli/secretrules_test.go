package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// runStdin is runIn with standard input.
func runStdin(t *testing.T, dataDir, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(t.Context(), append([]string{"--data-dir", dataDir}, args...), Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader(stdin)})
	return code, out.String(), errb.String()
}

// configOnDisk is config.json and its backup as one text.
func configOnDisk(t *testing.T, data string) string {
	t.Helper()
	cur, err := os.ReadFile(filepath.Join(data, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	bak, _ := os.ReadFile(filepath.Join(data, "config.json.bak"))
	return string(cur) + "\n" + string(bak)
}

func mustRun(t *testing.T, data, stdin string, args ...string) string {
	t.Helper()
	code, out, errOut := runStdin(t, data, stdin, args...)
	if code != 0 {
		t.Fatalf("switchboard %s: exit %d\n%s\n%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// A VS Code password input given to 'servers import' (here on standard
// input) goes to the keyring: config.json and its backup hold only the
// reference, inside the header that used it.
func TestImportPasswordInputFromTheTerminal(t *testing.T) {
	const token = "docs-terminal-token-0123456789"
	data := t.TempDir()
	mustRun(t, data, "", "servers", "add", "before", "--", "/nonexistent/before") // so the import leaves a .bak
	file := writeFile(t, "mcp.json", `{
  "inputs": [{"type": "promptString", "id": "docs-token", "password": true}],
  "servers": {"docs": {"type": "http", "url": "https://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer ${input:docs-token}"}}}
}`)
	preview := mustRun(t, data, "", "servers", "import", file, "--dry-run")
	if !strings.Contains(preview, "docs: headers.Authorization") || !strings.Contains(preview, "keyring") {
		t.Fatalf("the preview does not say where the password input goes:\n%s", preview)
	}
	mustRun(t, data, token+"\n", "servers", "import", file, "--set", "docs-token=-")
	if disk := configOnDisk(t, data); strings.Contains(disk, token) || !strings.Contains(disk, `"Authorization": "Bearer ${secret:server.`) {
		t.Fatalf("config.json:\n%s", disk)
	}
	if list := mustRun(t, data, "", "secrets", "list"); !strings.Contains(list, "docs") || strings.Contains(list, "no secrets yet") {
		t.Fatalf("secrets list:\n%s", list)
	}
}

// 'servers add --env' keeps a token as an import does, and KEY=- reads a
// value from standard input instead of the command line.
func TestServersAddKeepsTokensInTheKeyring(t *testing.T) {
	const token, typed = "ghp_addedwithenv0123456789abc", "value-from-stdin-0001"
	data := t.TempDir()
	mustRun(t, data, typed+"\n", "servers", "add", "gh", "--env", "GITHUB_TOKEN="+token, "--env", "SESSION=-", "--env", "LOG_LEVEL=debug", "--", "/nonexistent/gh")
	disk := configOnDisk(t, data)
	if strings.Contains(disk, token) || strings.Contains(disk, typed) || !strings.Contains(disk, `"LOG_LEVEL": "debug"`) {
		t.Fatalf("config.json:\n%s", disk)
	}
	list := mustRun(t, data, "", "secrets", "list")
	if !strings.Contains(list, "env.GITHUB_TOKEN") || !strings.Contains(list, "env.SESSION") {
		t.Fatalf("secrets list:\n%s", list)
	}
	mustRun(t, data, "", "servers", "add", "plain", "--env", "GITHUB_TOKEN="+token, "--plaintext", "GITHUB_TOKEN", "--", "/nonexistent/gh")
	if !strings.Contains(configOnDisk(t, data), token) {
		t.Fatal("--plaintext should keep the value in config.json")
	}
}

// A secret an imported entry names is granted with 'secrets grant', and
// 'servers remove' deletes the server's own secrets (--keep-secrets not).
func TestSecretsGrantAndRemove(t *testing.T) {
	data := t.TempDir()
	mustRun(t, data, "ghp_victim0123456789abcdef\n", "secrets", "set", "victim_GITHUB_TOKEN")
	file := writeFile(t, "evil.json", `{"mcpServers": {"evil": {"command": "/nonexistent/evil", "env": {"T": "${secret:victim_GITHUB_TOKEN}"}}}}`)
	mustRun(t, data, "", "servers", "import", file)
	if code, _, errOut := runStdin(t, data, "", "secrets", "grant", "victim_GITHUB_TOKEN"); code != 2 || !strings.Contains(errOut, "--server") {
		t.Fatalf("grant without --server: %d %s", code, errOut)
	}
	mustRun(t, data, "", "secrets", "grant", "victim_GITHUB_TOKEN", "--server", "evil")
	if disk := configOnDisk(t, data); !strings.Contains(disk, `"secretGrants"`) || !strings.Contains(disk, `"victim_GITHUB_TOKEN"`) {
		t.Fatalf("config.json:\n%s", disk)
	}

	mustRun(t, data, "", "servers", "add", "gh", "--env", "GITHUB_TOKEN=ghp_removeme0123456789abcdef", "--", "/nonexistent/gh")
	out := mustRun(t, data, "", "servers", "remove", "gh")
	if !strings.Contains(out, "deleted from the keyring: server.") {
		t.Fatalf("remove: %s", out)
	}
	mustRun(t, data, "", "servers", "add", "gh", "--", "/nonexistent/gh")
	if list := mustRun(t, data, "", "secrets", "list"); strings.Contains(list, "env.GITHUB_TOKEN") {
		t.Fatalf("the removed server's secret is still listed:\n%s", list)
	}
}

// keyringOf reads name from the keyring as data's host does: in the data
// dir's scope (config.json's settings.keyring.scope).
func keyringOf(t *testing.T, data, name string) (string, error) {
	t.Helper()
	cfg, err := config.Load(filepath.Join(data, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	st := secrets.NewStore()
	st.SetScope(secrets.ScopeOf(cfg.Settings))
	return st.Get(name)
}

// ownName is the keyring name of a configured server's own value.
func ownName(t *testing.T, data, server, field string) string {
	t.Helper()
	cfg, err := config.Load(filepath.Join(data, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, ok := cfg.Lookup(server)
	if !ok {
		t.Fatalf("no server %q", server)
	}
	return secrets.ServerName(s.ID, field)
}

// waitFor returns once text is in s, failing the test after 30 s.
func (s *syncBuffer) waitFor(t *testing.T, text string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(s.String(), text) {
		if time.Now().After(deadline) {
			t.Fatalf("waited for %q; have:\n%s", text, s.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// VS Code's ${input:ID}s without a value are asked for on a terminal, as
// VS Code asks, a password input's value not shown as it is typed; with
// no terminal the import fails as a validation error naming --set.
func TestImportAsksForInputsOnATerminal(t *testing.T) {
	const token, region = "docs-typed-token-0123456789", "eu-west"
	file := writeFile(t, "mcp.json", `{
  "inputs": [
    {"type": "promptString", "id": "region", "description": "Region"},
    {"type": "promptString", "id": "docs-token", "description": "Docs API token", "password": true}
  ],
  "servers": {
    "docs": {"type": "http", "url": "https://127.0.0.1:9/mcp?region=${input:region}", "headers": {"Authorization": "Bearer ${input:docs-token}"}},
    "plain": {"command": "/nonexistent/plain"}
  }
}`)
	data := t.TempDir()
	code, out, errb := runStdin(t, data, "", "servers", "import", file)
	if code != 2 || !strings.Contains(errb, "--set docs-token=VALUE --set region=VALUE") {
		t.Fatalf("without a terminal: exit %d\n%s\n%s", code, out, errb)
	}
	if out := mustRun(t, data, "", "servers", "import", file, "--dry-run"); !strings.Contains(out, "docs: needs a value for ${input:docs-token}") {
		t.Fatalf("the dry run does not say what the import needs:\n%s", out)
	}

	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	defer tty.Close()
	var echoed syncBuffer
	go io.Copy(&echoed, ptmx) //nolint:errcheck // ends when ptmx closes
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Run(t.Context(), []string{"--data-dir", data, "servers", "import", file}, Env{Stdout: &stdout, Stderr: &stderr, Stdin: tty})
	}()
	stderr.waitFor(t, "value for ${input:docs-token} (Docs API token) (not shown")
	if _, err := ptmx.Write([]byte(token + "\n")); err != nil {
		t.Fatal(err)
	}
	stderr.waitFor(t, "value for ${input:region} (Region): ")
	if _, err := ptmx.Write([]byte(region + "\n")); err != nil {
		t.Fatal(err)
	}
	if code := <-done; code != 0 {
		t.Fatalf("on a terminal: exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	if strings.Contains(echoed.String(), token) {
		t.Errorf("the password input was shown as typed: %q", echoed.String())
	}
	disk := configOnDisk(t, data)
	if strings.Contains(disk, token) || !strings.Contains(disk, "region="+region) || !strings.Contains(disk, `"Authorization": "Bearer ${secret:server.`) {
		t.Fatalf("config.json:\n%s", disk)
	}
}
