package cli

import (
	"strings"
	"testing"
)

// 'servers add --env' says where each value went, and a password goes to
// the keyring whatever its length; a working directory or a switch stays.
func TestServersAddSaysWhereEachValueWent(t *testing.T) {
	data := t.TempDir()
	out := mustRun(t, data, "", "servers", "add", "shortpw",
		"--env", "DB_PASSWORD=hunter2", "--env", "DB_PASS=correcthorse", "--env", "MYSQL_PWD=Zx9!kLmQ2",
		"--env", "HOST_PWD=/home/x", "--env", "SMTP_PASS=abc", "--env", "LOG_LEVEL=debug", "--env", "TOKEN=kept-plain-by-choice",
		"--plaintext", "TOKEN", "--", "/nonexistent/envsrv")
	cases := []struct{ field, says string }{
		{"env.DB_PASSWORD", "kept in the keyring as ${secret:server."},
		{"env.DB_PASS", "kept in the keyring as ${secret:server."},
		{"env.MYSQL_PWD", "kept in the keyring as ${secret:server."},
		{"env.SMTP_PASS", "kept in the keyring as ${secret:server."},
		{"env.HOST_PWD", "kept in config.json in plain text (it does not look secret"},
		{"env.LOG_LEVEL", "kept in config.json in plain text (it does not look secret"},
		{"env.TOKEN", "kept in config.json in plain text (--plaintext)"},
	}
	for _, c := range cases {
		if !strings.Contains(out, c.field+": "+c.says) {
			t.Errorf("servers add does not say %q for %s:\n%s", c.says, c.field, out)
		}
	}
	disk := configOnDisk(t, data)
	for _, v := range []string{"hunter2", "correcthorse", "Zx9!kLmQ2", `"abc"`} {
		if strings.Contains(disk, v) {
			t.Errorf("config.json holds %s in plain text", v)
		}
	}
}

// 'servers export' warns, by JSON path, of each value config.json keeps in
// plain text although it looks secret; the file holds a placeholder.
func TestServersExportWarnsOfPlainSecrets(t *testing.T) {
	data := t.TempDir()
	mustRun(t, data, "", "servers", "add", "db", "--env", "DB_PASSWORD=hunter2", "--env", "LOG_LEVEL=debug",
		"--plaintext", "DB_PASSWORD", "--", "/nonexistent/db", "--conn", "Server=x;User Id=sa;Password=s3cretpw;")
	code, out, errb := runIn(t, data, "servers", "export")
	if code != 0 {
		t.Fatalf("export: %d\n%s", code, errb)
	}
	for _, path := range []string{"mcpServers.db.env.DB_PASSWORD", "mcpServers.db.args[1]"} {
		if !strings.Contains(errb, "note: "+path+": config.json keeps this secret-looking value in plain text") {
			t.Errorf("no note for %s:\n%s", path, errb)
		}
	}
	if strings.Contains(errb, "LOG_LEVEL") || strings.Contains(out, "hunter2") || strings.Contains(out, "s3cretpw") {
		t.Fatalf("export:\n%s\nstderr:\n%s", out, errb)
	}
}

// The import's report names a new server's keyring entry as the import
// will ("<new id>", never an id the import does not use), says which
// moved values go back on the command line, and 'servers list' says it
// of the servers that have one.
func TestImportSaysWhatGoesOnTheCommandLine(t *testing.T) {
	data := t.TempDir()
	file := writeFile(t, "claude.json", `{"mcpServers": {
  "cli": {"command": "/nonexistent/cli", "args": ["--api-key", "sk-abcdefghijklmnop0123"], "env": {"API_TOKEN": "tok-0123456789abcdef"}},
  "gh": {"command": "docker", "args": ["run", "-i", "--rm", "-e", "GITHUB_TOKEN=ghp_abcdefghijklmnop0123", "ghcr.io/github/github-mcp-server"]}
}}`)
	dry := mustRun(t, data, "", "servers", "import", file, "--dry-run")
	for _, want := range []string{
		"cli: args.api-key ••••0123 moves to the keyring as ${secret:server.<new id>.args.api-key}",
		"cli: args.api-key: passed on the command line, which other users of this computer can see",
		"gh: env.GITHUB_TOKEN ••••0123 moves to the keyring as ${secret:server.<new id>.env.GITHUB_TOKEN}",
	} {
		if !strings.Contains(dry, want) {
			t.Errorf("the dry run lacks %q:\n%s", want, dry)
		}
	}
	if strings.Contains(dry, "env.API_TOKEN: passed on the command line") || strings.Contains(dry, "GITHUB_TOKEN: passed on the command line") {
		t.Errorf("an env value is said to be on the command line:\n%s", dry)
	}
	mustRun(t, data, "", "servers", "import", file)
	list := mustRun(t, data, "", "servers", "list")
	if !strings.Contains(list, "note: cli: args[1]: keyring secrets passed on the command line") || strings.Contains(list, "note: gh:") {
		t.Fatalf("servers list:\n%s", list)
	}
}
