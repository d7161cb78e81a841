package host

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// memoryServer is the pinned @modelcontextprotocol/server-memory.
func memoryServer(t *testing.T) string {
	t.Helper()
	return proctest.NPM(t, "mcp-server-memory")
}

func saveCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// TestSaveServerAddsEditsAndRestarts adds the real memory server through
// the form's core with a secret variable, then edits it: config.json has
// each change, the secret is in the keyring and never in the file, and the
// server runs again (a new process) with its tools.
func TestSaveServerAddsEditsAndRestarts(t *testing.T) {
	h := open(t)
	if err := h.Servers.Load(); err != nil {
		t.Fatal(err)
	}
	bin := memoryServer(t)
	const secret = "tok-very-secret-0042"
	added, err := h.Servers.Save(saveCtx(t), ServerEdit{
		Server:  config.Server{Name: "mem", Transport: config.Stdio, Command: bin, Env: map[string]string{"PLAIN": "1"}},
		Secrets: map[string]string{"env.API_TOKEN": secret},
	})
	if err != nil {
		t.Fatal(err)
	}
	if added.Status.State != supervisor.Ready || added.Tools == 0 || !added.Changed {
		t.Fatalf("after adding: %+v", added)
	}
	data, err := os.ReadFile(h.Dir().Config())
	if err != nil {
		t.Fatal(err)
	}
	cur, _ := h.Servers.Get("mem")
	own := secrets.ServerName(cur.ID, "env.API_TOKEN") // the server's own entry
	if strings.Contains(string(data), secret) || !strings.Contains(string(data), `"API_TOKEN": "${secret:`+own+`}"`) {
		t.Fatalf("config.json holds the secret or not its reference:\n%s", data)
	}
	if v, err := h.Secrets.Get(own); err != nil || v != secret {
		t.Fatalf("keyring %s = %q, %v", own, v, err)
	}

	base, err := EntryJSON(cur)
	if err != nil {
		t.Fatal(err)
	}
	next := cur.Clone()
	next.Args = []string{"--unused-flag"}
	next.Env["MEMORY_FILE_PATH"] = filepath.Join(t.TempDir(), "memory.jsonl")
	next.StartupTimeout = 20 * time.Second
	edited, err := h.Servers.Save(saveCtx(t), ServerEdit{Old: "mem", Base: base, Server: next})
	if err != nil {
		t.Fatal(err)
	}
	if edited.Status.State != supervisor.Ready || edited.Tools != added.Tools || edited.Status.PID == added.Status.PID {
		t.Fatalf("after editing: %+v (before: pid %d)", edited, added.Status.PID)
	}
	cfg, err := config.Load(h.Dir().Config())
	if err != nil {
		t.Fatal(err)
	}
	got, _ := cfg.Lookup("mem")
	if got.Env["MEMORY_FILE_PATH"] != next.Env["MEMORY_FILE_PATH"] || got.StartupTimeout != 20*time.Second ||
		len(got.Args) != 1 || got.Env["API_TOKEN"] != "${secret:"+own+"}" || got.ID != cur.ID {
		t.Fatalf("saved entry = %+v", got)
	}
	if _, err := os.Stat(h.Dir().Config() + config.BackupSuffix); err != nil {
		t.Fatalf("no backup of the previous config.json: %v", err)
	}

	// Saving the entry unchanged restarts it: how a server in error is retried.
	base, _ = EntryJSON(got)
	again, err := h.Servers.Save(saveCtx(t), ServerEdit{Old: "mem", Base: base, Server: got})
	if err != nil {
		t.Fatal(err)
	}
	if again.Changed || again.Status.State != supervisor.Ready || again.Status.PID == edited.Status.PID {
		t.Fatalf("saved unchanged: %+v (before: pid %d)", again, edited.Status.PID)
	}
}

// TestSaveServerAfterAConcurrentEdit: between the form's load and its save
// the CLI (config.Edit, as 'switchboard servers add' does) changes
// config.json. A server it added survives the save; a change to the very
// entry being edited makes the save fail with ErrChangedOnDisk and keeps
// the other change.
func TestSaveServerAfterAConcurrentEdit(t *testing.T) {
	h := open(t)
	if err := h.Servers.Add(config.Server{Name: "web", Transport: config.HTTP, URL: "https://example.com/mcp", Disabled: true}); err != nil {
		t.Fatal(err)
	}
	if err := h.Servers.Load(); err != nil {
		t.Fatal(err)
	}
	cur, _ := h.Servers.Get("web")
	base, _ := EntryJSON(cur) // the form loads

	cliEdit(t, h, func(cfg *config.Config) {
		cfg.Servers = append(cfg.Servers, config.Server{Name: "from-cli", Transport: config.Stdio, Command: "true", Disabled: true})
	})
	next := cur.Clone()
	next.URL = "https://example.com/v2/mcp"
	res, err := h.Servers.Save(saveCtx(t), ServerEdit{Old: "web", Base: base, Server: next})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status.State != supervisor.Disabled {
		t.Fatalf("a disabled server stays disabled: %+v", res)
	}
	cfg, _ := config.Load(h.Dir().Config())
	if s, ok := cfg.Lookup("web"); !ok || s.URL != next.URL {
		t.Fatalf("web = %+v", s)
	}
	if _, ok := cfg.Lookup("from-cli"); !ok {
		t.Fatal("the server the CLI added meanwhile is lost")
	}

	cur, _ = h.Servers.Get("web")
	base, _ = EntryJSON(cur)
	cliEdit(t, h, func(cfg *config.Config) {
		for i := range cfg.Servers {
			if cfg.Servers[i].Name == "web" {
				cfg.Servers[i].Headers = map[string]string{"X-From": "cli"}
			}
		}
	})
	next = cur.Clone()
	next.URL = "https://example.com/v3/mcp"
	_, err = h.Servers.Save(saveCtx(t), ServerEdit{Old: "web", Base: base, Server: next})
	if !errors.Is(err, ErrChangedOnDisk) || !strings.Contains(err.Error(), "nothing was saved") {
		t.Fatalf("err = %v, want ErrChangedOnDisk", err)
	}
	cfg, _ = config.Load(h.Dir().Config())
	if s, _ := cfg.Lookup("web"); s.URL != "https://example.com/v2/mcp" || s.Headers["X-From"] != "cli" {
		t.Fatalf("the CLI's change was overwritten: %+v", s)
	}
}

// cliEdit changes config.json the way another process does: through
// config.Edit, its lock and atomic write, not through h.
func cliEdit(t *testing.T, h *Host, fn func(cfg *config.Config)) {
	t.Helper()
	if _, err := config.Edit(t.Context(), h.Dir().Config(), func(cfg *config.Config) error { fn(cfg); return nil }); err != nil {
		t.Fatal(err)
	}
}

// TestSaveServerRenames keeps the entry's place and refuses a taken name.
func TestSaveServerRenames(t *testing.T) {
	h := open(t)
	for _, n := range []string{"a", "b", "c"} {
		if err := h.Servers.Add(config.Server{Name: n, Transport: config.Stdio, Command: "true", Disabled: true}); err != nil {
			t.Fatal(err)
		}
	}
	cur, _ := h.Servers.Get("b")
	next := cur.Clone()
	next.Name = "c"
	if _, err := h.Servers.Save(saveCtx(t), ServerEdit{Old: "b", Server: next}); fieldOf(err) != "name" {
		t.Fatalf("renaming onto a taken name: %v", err)
	}
	next.Name = "b2"
	if _, err := h.Servers.Save(saveCtx(t), ServerEdit{Old: "b", Server: next}); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range h.Servers.List() {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, ","); got != "a,b2,c" {
		t.Fatalf("servers after the rename = %s", got)
	}
}

// fieldOf is the field of the only problem of a save's error, "" when err
// is not one problem.
func fieldOf(err error) string {
	var ve *config.ValidationError
	if !errors.As(err, &ve) || len(ve.Problems) != 1 {
		return ""
	}
	return ve.Problems[0].Path
}

// TestCheckServerNamesTheField: invalid input is one clear error on the
// field the form shows it under, with config.json's own rules.
func TestCheckServerNamesTheField(t *testing.T) {
	h := open(t)
	stdio := config.Server{Name: "s", Transport: config.Stdio, Command: "npx"}
	with := func(fn func(s *config.Server)) config.Server {
		s := stdio.Clone()
		fn(&s)
		return s
	}
	tests := []struct {
		name    string
		edit    ServerEdit
		field   string
		message string
	}{
		{"valid", ServerEdit{Server: stdio}, "", ""},
		{"no name", ServerEdit{Server: with(func(s *config.Server) { s.Name = " " })}, "name", "must not be empty"},
		{"built-in's name", ServerEdit{Server: with(func(s *config.Server) { s.Name = "workspace" })}, "name", "built into Switchboard"},
		{"empty command", ServerEdit{Server: with(func(s *config.Server) { s.Command = "" })}, "command", `needs "command"`},
		{"url not http", ServerEdit{Server: config.Server{Name: "r", Transport: config.HTTP, URL: "ftp://example.com/mcp"}}, "url", "ftp"},
		{"no url", ServerEdit{Server: config.Server{Name: "r", Transport: config.SSE}}, "url", `needs "url"`},
		{"env name", ServerEdit{Server: with(func(s *config.Server) { s.Env = map[string]string{"A=B": "1"} })}, `env["A=B"]`, "not a valid variable name"},
		{"negative timeout", ServerEdit{Server: with(func(s *config.Server) { s.ToolTimeout = -time.Second })}, "defaultToolTimeout", "0 or more"},
		{"secret without value", ServerEdit{Server: stdio, Secrets: map[string]string{"env.TOKEN": ""}}, "env.TOKEN", "no value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := h.Servers.Check(tt.edit)
			if tt.field == "" {
				if err != nil {
					t.Fatalf("unexpected %v", err)
				}
				return
			}
			if fieldOf(err) != tt.field || !strings.Contains(err.Error(), tt.message) {
				t.Fatalf("err = %v, want one problem on %s saying %q", err, tt.field, tt.message)
			}
		})
	}
}

// TestParseEntryReportsLineAndColumn: "Edit as JSON" shows where the text
// is wrong, for a syntax error and for a wrong field.
func TestParseEntryReportsLineAndColumn(t *testing.T) {
	tests := []struct {
		text string
		want string
	}{
		{"{\n  \"command\": \"npx\",\n  \"args\": [\"-y\" \"x\"]\n}", "3:"},
		{"{\n  \"command\": \"npx\",\n  \"env\": {\"PORT\": [1]}\n}", "3:19: env.PORT: must be a string, got an array"},
		{"  ", "the entry is empty"},
	}
	for _, tt := range tests {
		_, err := ParseEntry("s", tt.text)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("ParseEntry(%q) = %v, want %s…", tt.text, err, tt.want)
		}
	}
	s, err := ParseEntry("s", `{"command": "npx", /* JSONC as in config.json */ "args": ["a",],}`)
	if err != nil || s.Name != "s" || len(s.Args) != 1 {
		t.Fatalf("JSONC entry = %+v, %v", s, err)
	}
}
