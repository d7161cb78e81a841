package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

const desktopConfig = `{
	"globalShortcut": "",
	// hand-written
	"mcpServers": {
		"github": {
			"command": "npx",
			"args": ["-y", "@modelcontextprotocol/server-github"],
			"env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_0123456789abcdefghijABCDEFGHIJ012345"}
		},
		"memory": { "command": "npx", "args": [ "-y", "@modelcontextprotocol/server-memory" ] }
	}
}
`

// Connect with --move takes the app's servers into Switchboard (the
// token into the keyring, not the backups) and leaves only Switchboard's
// entry; disconnect gives them back where they were, with the token.
func TestClientsConnectMoveDisconnect(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	data := t.TempDir()
	file := filepath.Join(home, ".config", "Claude", "claude_desktop_config.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(desktopConfig), 0o600); err != nil {
		t.Fatal(err)
	}

	code, out, errb := runIn(t, data, "clients", "--json")
	if code != 0 {
		t.Fatalf("clients: %d %s", code, errb)
	}
	var apps []struct {
		Name       string `json:"name"`
		Connected  bool   `json:"connected"`
		OwnServers int    `json:"ownServers"`
	}
	if err := json.Unmarshal([]byte(out), &apps); err != nil || len(apps) != 1 || apps[0].Name != "claude-desktop" || apps[0].OwnServers != 2 || apps[0].Connected {
		t.Fatalf("clients --json = %s (%v)", out, err)
	}

	code, out, errb = runIn(t, data, "clients", "connect", "claude-desktop", "--move", "--dry-run")
	if code != 0 || !strings.Contains(out, `+ 		"switchboard": {`) || !strings.Contains(out, `- 		"github": {`) {
		t.Fatalf("dry run: %d\n%s\n%s", code, out, errb)
	}
	if b, _ := os.ReadFile(file); string(b) != desktopConfig {
		t.Fatal("a dry run changed the file")
	}

	code, out, errb = runIn(t, data, "clients", "connect", "claude-desktop", "--move")
	if code != 0 {
		t.Fatalf("connect: %d %s %s", code, out, errb)
	}
	b, _ := os.ReadFile(file)
	got := string(b)
	if strings.Contains(got, "github") || strings.Contains(got, "memory") || !strings.Contains(got, `"switchboard": {`) ||
		!strings.Contains(got, "// hand-written") || !strings.Contains(got, `"--client", "claude-desktop"`) || !strings.Contains(got, `"--data-dir", `) {
		t.Fatalf("connected file:\n%s", got)
	}
	backup, _ := os.ReadFile(file + ".switchboard.bak")
	if strings.Contains(string(backup), "ghp_0123") || !strings.Contains(string(backup), "${secret:") {
		t.Fatalf("the backup keeps the moved token:\n%s", backup)
	}
	cfg, err := config.Load(filepath.Join(data, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	gh, ok := cfg.Lookup("github")
	if _, mem := cfg.Lookup("memory"); !ok || !mem || !strings.HasPrefix(gh.Env["GITHUB_PERSONAL_ACCESS_TOKEN"], "${secret:") {
		t.Fatalf("Switchboard's servers after the move: %+v", cfg.Servers)
	}
	if raw, _ := os.ReadFile(filepath.Join(data, "config.json")); strings.Contains(string(raw), "ghp_0123") {
		t.Fatal("config.json holds the token")
	}

	// Connecting again changes nothing.
	if code, out, _ = runIn(t, data, "clients", "connect", "claude-desktop"); code != 0 || !strings.Contains(out, "nothing changed") {
		t.Fatalf("second connect: %d %s", code, out)
	}

	// The first backup is the file before Switchboard changed it, the
	// moved token taken out: it stays through every later change.
	orig, err := os.ReadFile(file + ".switchboard.orig")
	if err != nil || strings.Contains(string(orig), "ghp_0123") || !strings.Contains(string(orig), `"memory": { "command": "npx"`) || !strings.Contains(string(orig), "${secret:") {
		t.Fatalf("the original's copy (%v):\n%s", err, orig)
	}

	// Disconnect returns the servers where they were, the token back from
	// the keyring: the very file the user had.
	code, out, errb = runIn(t, data, "clients", "disconnect", "claude-desktop")
	if code != 0 || errb != "" || !strings.Contains(out, "returned: github\nreturned: memory\n") {
		t.Fatalf("disconnect: %d\n%s\n%s", code, out, errb)
	}
	if b, _ = os.ReadFile(file); string(b) != desktopConfig {
		t.Fatalf("disconnected file:\n%s\nwant\n%s", b, desktopConfig)
	}
	if again, _ := os.ReadFile(file + ".switchboard.orig"); string(again) != string(orig) {
		t.Fatalf("the original's copy changed:\n%s", again)
	}
}

// Disconnect --without-secrets leaves the moved token empty, and says so;
// the rest of the file is as it was.
func TestClientsDisconnectWithoutSecrets(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	data := t.TempDir()
	file := filepath.Join(home, ".cursor", "mcp.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(desktopConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, errb := runIn(t, data, "clients", "connect", "cursor", "--move"); code != 0 {
		t.Fatalf("connect: %d %s %s", code, out, errb)
	}
	code, out, errb := runIn(t, data, "clients", "disconnect", "cursor", "--without-secrets")
	if code != 0 || !strings.Contains(errb, "github returned without its secret") {
		t.Fatalf("disconnect: %d %s %s", code, out, errb)
	}
	b, _ := os.ReadFile(file)
	if want := strings.Replace(desktopConfig, "ghp_0123456789abcdefghijABCDEFGHIJ012345", "", 1); string(b) != want {
		t.Fatalf("after disconnect --without-secrets:\n%s\nwant\n%s", b, want)
	}
}

// A file that is not valid is refused with line and column, untouched.
func TestClientsConnectInvalidFile(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	file := filepath.Join(home, ".cursor", "mcp.json")
	_ = os.MkdirAll(filepath.Dir(file), 0o700)
	bad := "{\n  \"mcpServers\": {\n    \"a\": {}\n    \"b\": {}\n  }\n}\n"
	_ = os.WriteFile(file, []byte(bad), 0o600)
	code, _, errb := runIn(t, t.TempDir(), "clients", "connect", "cursor")
	if code != ExitUsage || !strings.Contains(errb, "mcp.json:4:5") {
		t.Fatalf("connect of an invalid file: %d %s", code, errb)
	}
	if b, _ := os.ReadFile(file); string(b) != bad {
		t.Fatal("the invalid file was changed")
	}
	if _, err := os.Stat(file + ".switchboard.bak"); err == nil {
		t.Fatal("a backup was written for a refused change")
	}
}

// An entry whose binary is gone shows as broken; connecting again
// repairs it (points it at this installation).
func TestClientsBrokenRepair(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	data := t.TempDir()
	t.Setenv("SWITCHBOARD_COMMAND", filepath.Join(home, "moved-away", "switchboard"))
	if code, out, errb := runIn(t, data, "clients", "connect", "windsurf"); code != 0 {
		t.Fatalf("connect: %d %s %s", code, out, errb)
	}
	_, out, _ := runIn(t, data, "clients", "--json")
	if !strings.Contains(out, `"broken": "it runs `+filepath.Join(home, "moved-away", "switchboard")) {
		t.Fatalf("clients --json does not show the entry broken:\n%s", out)
	}
	t.Setenv("SWITCHBOARD_COMMAND", "")
	if code, out, errb := runIn(t, data, "clients", "connect", "windsurf"); code != 0 || strings.Contains(out, "nothing changed") {
		t.Fatalf("repair: %d %s %s", code, out, errb)
	}
	if _, out, _ = runIn(t, data, "clients", "--json"); strings.Contains(out, `"broken"`) || !strings.Contains(out, `"connected": true`) {
		t.Fatalf("after repair:\n%s", out)
	}
}

// --move reads the app's file as an import does (every field of its
// format), and what Switchboard cannot run stays in the app's file
// instead of leaving both.
func TestClientsMoveKeepsFieldsAndWhatCannotMove(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	data := t.TempDir()
	write := func(rel, text string) string {
		t.Helper()
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gemini := write(".gemini/settings.json", `{
  "mcpServers": {
    "remote": {"httpUrl": "http://127.0.0.1:9/mcp"},
    "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "cwd": "/srv/memory", "excludeTools": ["delete_entities"]}
  }
}
`)
	goose := write(".config/goose/config.yaml", `extensions:
  developer:
    bundled: true
    enabled: true
    name: developer
    timeout: 300
    type: builtin
  fetch:
    cmd: uvx
    args: [mcp-server-fetch]
    enabled: true
    name: fetch
    type: stdio
`)
	if code, out, errb := runIn(t, data, "clients", "connect", "gemini", "--move"); code != 0 {
		t.Fatalf("connect gemini: %d %s %s", code, out, errb)
	}
	code, out, errb := runIn(t, data, "clients", "connect", "goose", "--move")
	if code != 0 || !strings.Contains(out, "developer: stays in the app's file") {
		t.Fatalf("connect goose: %d\n%s\n%s", code, out, errb)
	}
	cfg, err := config.Load(filepath.Join(data, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	remote, ok := cfg.Lookup("remote")
	if !ok || remote.URL != "http://127.0.0.1:9/mcp" {
		t.Errorf("Gemini's httpUrl server: %+v (found %v)", remote, ok)
	}
	memory, _ := cfg.Lookup("memory")
	if memory.Cwd != "/srv/memory" || len(memory.ExcludeTools) != 1 || memory.ExcludeTools[0] != "delete_entities" {
		t.Errorf("Gemini's memory server lost its fields: cwd %q, excludeTools %v", memory.Cwd, memory.ExcludeTools)
	}
	if _, ok := cfg.Lookup("fetch"); !ok {
		t.Error("Goose's stdio extension was not moved")
	}
	// Choosing an app's servers says the built-ins come with them.
	if code, out, errb := runIn(t, data, "clients", "servers", "gemini", "memory"); code != 0 || out != "gemini sees memory, and the built-in content-store and workspace\n" {
		t.Errorf("clients servers: %d %q %s", code, out, errb)
	}
	if _, ok := cfg.Lookup("developer"); ok {
		t.Error("Goose's built-in extension became a server")
	}
	b, _ := os.ReadFile(goose)
	if !strings.Contains(string(b), "developer:") || strings.Contains(string(b), "fetch:") {
		t.Errorf("Goose's file after the move:\n%s", b)
	}
	if b, _ := os.ReadFile(gemini); strings.Contains(string(b), "remote") {
		t.Errorf("Gemini's file still has the moved server:\n%s", b)
	}

	// VS Code's user file: ${workspaceFolder} has a value only in VS Code.
	vscode := write(".config/Code/User/mcp.json", `{"servers": {
  "wsfs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "${workspaceFolder}"]},
  "time": {"command": "/nonexistent/time-server"}
}}
`)
	code, out, errb = runIn(t, data, "clients", "connect", "vscode", "--move")
	if code != 0 || !strings.Contains(out, "wsfs: stays in the app's file: it uses ${workspaceFolder}, which only the app gives a value") {
		t.Fatalf("connect vscode: %d\n%s\n%s", code, out, errb)
	}
	if b, _ := os.ReadFile(vscode); !strings.Contains(string(b), "wsfs") || strings.Contains(string(b), `"time"`) {
		t.Errorf("VS Code's file after the move:\n%s", b)
	}
}

// The user file and a project file of one app are connected and
// disconnected each on its own: the servers moved from each go back to
// it, and to no other.
func TestClientsUserAndProjectFilesKeptApart(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	data := t.TempDir()
	proj := t.TempDir()
	t.Chdir(proj)
	user := filepath.Join(home, ".claude.json")
	project := filepath.Join(proj, ".mcp.json")
	const userText = `{"numStartups": 3, "mcpServers": {"user-memory": {"type": "stdio", "command": "/nonexistent/user-memory", "args": []}}}` + "\n"
	const projectText = `{"mcpServers": {"proj-memory": {"command": "/nonexistent/proj-memory", "args": []}}}` + "\n"
	if err := os.WriteFile(user, []byte(userText), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(project, []byte(projectText), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"clients", "connect", "claude-code", "--move"},
		{"clients", "connect", "claude-code", "--project", proj, "--move"},
		{"clients", "disconnect", "claude-code", "--project", proj},
	} {
		if code, out, errb := runIn(t, data, args...); code != 0 {
			t.Fatalf("%v: %d\n%s\n%s", args, code, out, errb)
		}
	}
	p, _ := os.ReadFile(project)
	if strings.Contains(string(p), "user-memory") || !strings.Contains(string(p), "proj-memory") || strings.Contains(string(p), `"switchboard"`) {
		t.Fatalf("the project file after its disconnect:\n%s", p)
	}
	u, _ := os.ReadFile(user)
	if !strings.Contains(string(u), `"switchboard"`) || strings.Contains(string(u), "user-memory") {
		t.Fatalf("the user file is no longer connected:\n%s", u)
	}
	if code, out, errb := runIn(t, data, "clients", "disconnect", "claude-code"); code != 0 {
		t.Fatalf("disconnect: %d\n%s\n%s", code, out, errb)
	}
	u, _ = os.ReadFile(user)
	if !strings.Contains(string(u), "user-memory") || strings.Contains(string(u), `"switchboard"`) {
		t.Fatalf("the user file after its disconnect:\n%s", u)
	}
}

// Moving VS Code servers that use ${input:ID}: without a terminal the
// error says how this command takes the value (--set), once; with --set
// (ID=- from standard input) they move, the value to the keyring, and
// disconnect gives the file back as it was.
func TestClientsConnectMoveSetsInputs(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	data := t.TempDir()
	text, err := os.ReadFile("../../mcpmanager/clients/testdata/real/vscode.json") // a real .vscode/mcp.json (sources in its README)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(home, ".config", "Code", "User", "mcp.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, text, 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errb := runIn(t, data, "clients", "connect", "vscode", "--move")
	if code != ExitUsage || !strings.Contains(errb, `server "stdio-mcp" needs a value for ${input:youtube_api_key}: give each with --set youtube_api_key=VALUE`) ||
		strings.Contains(errb, "when asked") || strings.Count(errb, "replace the placeholder") != 1 {
		t.Fatalf("connect --move without the value: %d\n%s", code, errb)
	}
	if code, _, errb := runIn(t, data, "servers", "import", file); code != ExitUsage || !strings.Contains(errb, "give each with --set youtube_api_key=VALUE") || strings.Contains(errb, "when asked") || strings.Count(errb, "replace the placeholder") != 1 {
		t.Fatalf("servers import without the value: %d\n%s", code, errb)
	}
	if code, _, errb := runIn(t, data, "clients", "connect", "vscode", "--set", "youtube_api_key=x"); code != ExitUsage || !strings.Contains(errb, "add --move") {
		t.Fatalf("--set without --move: %d %s", code, errb)
	}
	code, out, errb := runStdin(t, data, "AIzaFAKE-youtube-key-0000\n", "clients", "connect", "vscode", "--move", "--set", "youtube_api_key=-")
	if code != 0 || !strings.Contains(out, "moved: stdio-mcp") {
		t.Fatalf("connect --move --set: %d\n%s\n%s", code, out, errb)
	}
	cfg, err := config.Load(filepath.Join(data, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := cfg.Lookup("stdio-mcp"); !ok || !strings.HasPrefix(s.Env["YOUTUBE_API_KEY"], "${secret:") {
		t.Fatalf("the moved server: %+v", s)
	}
	if code, out, errb := runIn(t, data, "clients", "disconnect", "vscode"); code != 0 || !strings.Contains(out, "returned: remote-mcp\nreturned: stdio-mcp\n") {
		t.Fatalf("disconnect: %d\n%s\n%s", code, out, errb)
	}
	if b, _ := os.ReadFile(file); string(b) != string(text) {
		t.Fatalf("after disconnect:\n%s", b)
	}
}
