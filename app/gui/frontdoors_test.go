package gui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/cli"
	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/app/host"
	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// The window and the CLI are two front doors on one core: the same action
// through either gives the same result.

// window opens the window's front door on a fresh data dir, started the way
// Wails starts it.
//
// hook, when given, is the window's emitHook, set before Startup starts
// the goroutines that emit (setting it afterwards races with them).
func window(t *testing.T, hook ...func(name string, data any)) (*Window, datadir.Dir) {
	t.Helper()
	dir := datadir.Dir(t.TempDir())
	if err := dir.Ensure(); err != nil {
		t.Fatal(err)
	}
	a := New(context.Background(), dir)
	a.emit = func(ServerView) {}
	a.emitHook = func(string, any) {}
	if len(hook) > 0 {
		a.emitHook = hook[0]
	}
	_ = a.Ready() // no window: start the servers at once
	a.Startup(context.Background())
	t.Cleanup(func() { a.close(context.Background()) })
	return a, dir
}

// terminal runs one CLI command on dir and returns stdout, failing on a
// non-zero exit.
func terminal(t *testing.T, dir datadir.Dir, stdin string, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Run(t.Context(), append([]string{"--data-dir", dir.String()}, args...),
		cli.Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader(stdin)})
	if code != 0 {
		t.Fatalf("switchboard %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	return out.String()
}

func TestFrontDoorsAgree(t *testing.T) {
	tests := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"import gives byte-identical config.json", func(t *testing.T) {
			const claude = `{
  // Claude Desktop's file, with a token that moves to the keyring
  "mcpServers": {
    "github": {"command": "/nonexistent/github-mcp", "args": ["stdio"], "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_0123456789abcdef0123456789abcdef0123"}},
    "notes": {"url": "http://127.0.0.1:9/mcp", "headers": {"X-Api-Key": "k-1234567890"}},
    "files": {"command": "/nonexistent/files-mcp", "args": ["/tmp"], "disabled": true}
  }
}`
			file := filepath.Join(t.TempDir(), "claude_desktop_config.json")
			if err := os.WriteFile(file, []byte(claude), 0o600); err != nil {
				t.Fatal(err)
			}
			a, wdir := window(t)
			if n, err := a.ServersPage.ApplyImport(filepath.Base(file), claude, nil, nil, nil, false); err != nil || n != 3 {
				t.Fatalf("window import: %d, %v", n, err)
			}
			cdir := datadir.Dir(t.TempDir())
			terminal(t, cdir, "", "servers", "import", file)
			w, _ := os.ReadFile(wdir.Config())
			c, _ := os.ReadFile(cdir.Config())
			if !bytes.Equal(sameIDs(w), sameIDs(c)) {
				t.Fatalf("config.json differs:\nwindow:\n%s\ncli:\n%s", w, c)
			}
			if bytes.Contains(w, []byte("ghp_0123")) || !bytes.Contains(w, []byte("${secret:")) {
				t.Fatalf("the token did not move to the keyring:\n%s", w)
			}
		}},
		{"a VS Code password input goes to the keyring through either door", func(t *testing.T) {
			const token = "docs-password-0123456789"
			const vscode = `{
  "inputs": [{"type": "promptString", "id": "docs-token", "description": "Docs token", "password": true}],
  "servers": {"docs": {"type": "http", "url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer ${input:docs-token}"}}}
}`
			file := filepath.Join(t.TempDir(), "mcp.json")
			if err := os.WriteFile(file, []byte(vscode), 0o600); err != nil {
				t.Fatal(err)
			}
			a, wdir := window(t)
			cdir := datadir.Dir(t.TempDir())
			// Something before, so each save keeps a previous version as .bak.
			if err := a.ServersPage.AddServerFromTemplate("filesystem", "files", map[string]string{"path": t.TempDir()}); err != nil {
				t.Fatal(err)
			}
			terminal(t, cdir, "", "servers", "add", "files", "--template", "filesystem", "--param", "path="+t.TempDir())
			preview, err := a.ServersPage.PreviewImport("mcp.json", vscode, nil)
			if err != nil || len(preview.Items) != 1 || len(preview.Items[0].Secrets) != 1 || preview.Items[0].Secrets[0].Field != "headers.Authorization" || preview.Items[0].Secrets[0].Input != "docs-token" {
				t.Fatalf("the preview does not say where the password goes: %+v, %v", preview, err)
			}
			if n, err := a.ServersPage.ApplyImport("mcp.json", vscode, nil, map[string]string{"docs-token": token}, nil, false); err != nil || n != 1 {
				t.Fatalf("window import: %d, %v", n, err)
			}
			terminal(t, cdir, token+"\n", "servers", "import", file, "--set", "docs-token=-")
			for door, dir := range map[string]datadir.Dir{"window": wdir, "cli": cdir} {
				cur, _ := os.ReadFile(dir.Config())
				bak, _ := os.ReadFile(dir.Config() + ".bak")
				if bytes.Contains(cur, []byte(token)) || bytes.Contains(bak, []byte(token)) || !bytes.Contains(cur, []byte(`"Bearer ${secret:server.`)) {
					t.Fatalf("%s: config.json:\n%s\nconfig.json.bak:\n%s", door, cur, bak)
				}
			}
			if list := terminal(t, wdir, "", "secrets", "list"); !strings.Contains(list, "docs") {
				t.Fatalf("secrets list does not show the password input:\n%s", list)
			}
		}},
		{"tools call uses the workspace folder chosen in settings", func(t *testing.T) {
			a, dir := window(t)
			chosen := filepath.Join(t.TempDir(), "project")
			if _, err := a.WorkspacePage.SetWorkspaceRoot(chosen); err != nil {
				t.Fatal(err)
			}
			terminal(t, dir, "", "tools", "call", "workspace__write_file", "--args", `{"path":"from-cli.txt","content":"hello"}`)
			if b, err := os.ReadFile(filepath.Join(chosen, "from-cli.txt")); err != nil || string(b) != "hello" {
				t.Fatalf("the CLI did not write into the chosen folder %s: %q, %v", chosen, b, err)
			}
			if _, err := os.Stat(filepath.Join(dir.Workspace(), "from-cli.txt")); err == nil {
				t.Fatal("the CLI wrote into the default workspace instead of the chosen one")
			}
			res, err := a.ToolsPage.CallTool("workspace__read_file", `{"path":"from-cli.txt"}`)
			if err != nil || res.IsError || !strings.Contains(res.Content[0].Text, "hello") {
				t.Fatalf("the window does not see the file the CLI wrote: %+v, %v", res, err)
			}
		}},
		{"a workspace write has the same default approval", func(t *testing.T) {
			a, dir := window(t)
			tl, err := a.ToolsPage.Tools()
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(tl.Tools, func(v ToolView) bool { return v.Name == "workspace__write_file" })
			if i < 0 {
				t.Fatalf("no workspace__write_file in %+v", tl)
			}
			windowPolicy := tl.Tools[i].DefaultPolicy
			if windowPolicy != "allow" {
				t.Fatalf("the window asks before writing in a fresh workspace: %q", windowPolicy)
			}
			// The CLI without --yes and without a terminal denies what asks:
			// the write must run, as the window would let it.
			llm := providertest.NewServer(t)
			llm.Enqueue(
				providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "c1", Name: "workspace__write_file", Arguments: `{"path":"note.md","content":"hi"}`}}},
				providertest.Reply{Text: "Written."},
			)
			terminal(t, dir, "", "chat", "--provider", "openai", "--base-url", llm.URL(provider.KindOpenAI), "--model", "m1", "write a note")
			if b, err := os.ReadFile(filepath.Join(dir.Workspace(), "note.md")); err != nil || string(b) != "hi" {
				t.Fatalf("the CLI did not run the write the window allows: %q, %v", b, err)
			}
			h, err := history.Open(t.Context(), dir.History())
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			chats, _ := h.ListChats(t.Context(), history.ListOptions{})
			msgs, _ := h.Messages(t.Context(), chats[0].ID)
			if len(msgs) < 2 || len(msgs[1].ToolCalls) != 1 || msgs[1].ToolCalls[0].Status != "done" {
				t.Fatalf("the tool call was not run: %+v", msgs)
			}
		}},
		{"a skill switched off in the window is off in 'servers skills', and back", func(t *testing.T) {
			a, dir := window(t)
			terminal(t, dir, "", "servers", "add", "handbook", "--", proctest.ModernServer(t))
			if err := a.h.Servers.Load(); err != nil { // the window reloads what another process saved
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			a.h.Servers.Settle(ctx)
			listed := func() (window, cli map[string]bool) {
				t.Helper()
				w, err := a.ServersPage.ServerSkills("handbook")
				if err != nil {
					t.Fatal(err)
				}
				var c host.ServerSkills
				if err := json.Unmarshal([]byte(terminal(t, dir, "", "--json", "servers", "skills", "handbook")), &c); err != nil {
					t.Fatal(err)
				}
				window, cli = map[string]bool{}, map[string]bool{}
				for _, s := range w.Skills {
					window[s.Name] = s.On
				}
				for _, s := range c.Skills {
					cli[s.Name] = s.On
				}
				return window, cli
			}
			if err := a.ServersPage.SetSkillOn("handbook", "haiku", false); err != nil {
				t.Fatal(err)
			}
			w, c := listed()
			want := map[string]bool{"release-notes": true, "haiku": false}
			if !maps.Equal(w, want) || !maps.Equal(c, want) {
				t.Fatalf("after the window switched haiku off: window %v, cli %v", w, c)
			}
			terminal(t, dir, "", "servers", "skills", "handbook", "--on", "haiku")
			if err := a.h.Servers.Load(); err != nil {
				t.Fatal(err)
			}
			w, c = listed()
			want["haiku"] = true
			if !maps.Equal(w, want) || !maps.Equal(c, want) {
				t.Fatalf("after the CLI switched haiku on: window %v, cli %v", w, c)
			}
		}},
		{"secrets list and Settings show the same used by", func(t *testing.T) {
			a, dir := window(t)
			if err := a.SettingsPage.SaveProvider(ProviderInput{Name: "work", Kind: "openai", BaseURL: "http://127.0.0.1:1/v1", DefaultModel: "m", APIKey: "sk-work-0123456789"}); err != nil {
				t.Fatal(err)
			}
			terminal(t, dir, "ghp_server0123456789", "secrets", "set", "GH")
			terminal(t, dir, "", "servers", "add", "gh", "--env", "GITHUB_TOKEN=${secret:GH}", "--", "/nonexistent/gh")
			if err := a.h.Servers.Load(); err != nil { // the window reloads what another process saved
				t.Fatal(err)
			}
			settings, err := a.SettingsPage.Secrets()
			if err != nil {
				t.Fatal(err)
			}
			var listed []host.SecretRow
			if err := json.Unmarshal([]byte(terminal(t, dir, "", "secrets", "list", "--json")), &listed); err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(settings, listed, func(x, y host.SecretRow) bool {
				return x.Name == y.Name && x.Masked == y.Masked && slices.Equal(x.UsedBy, y.UsedBy)
			}) {
				t.Fatalf("Settings %+v\nsecrets list %+v", settings, listed)
			}
			var usedBy []string
			for _, s := range listed {
				usedBy = append(usedBy, s.UsedBy...)
			}
			if !slices.Contains(usedBy, "provider work") || !slices.Contains(usedBy, "gh") {
				t.Fatalf("used by misses the provider or the server: %+v", listed)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}

// TestWindowFollowsTheCLI: a server the CLI adds while the window is open
// shows in the window, and the window's next edit keeps it.
func TestWindowFollowsTheCLI(t *testing.T) {
	defer func(d time.Duration) { config.WatchInterval = d }(config.WatchInterval)
	config.WatchInterval = 20 * time.Millisecond
	a, dir := window(t)
	terminal(t, dir, "", "servers", "add", "from-cli", "--", "/nonexistent/server")
	has := func(name string) bool {
		vs, _ := a.ServersPage.Servers()
		return slices.ContainsFunc(vs, func(v ServerView) bool { return v.Name == name })
	}
	mcptest.Until(t, "the CLI's server in the window", func() bool { return has("from-cli") })
	if _, ok := a.h.Servers.Get("from-cli"); !ok {
		t.Fatal("the window's copy of config.json was not reloaded")
	}
	if err := a.ServersPage.SetServerEnabled("from-cli", false); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(dir.Config())
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := cfg.Lookup("from-cli"); !ok || !s.Disabled {
		t.Fatalf("the window's edit lost or ignored the CLI's server: %+v", cfg.Servers)
	}
}

// sameIDs is config.json with its random ids (server ids, the keyring
// scope) named by their first appearance, and its lines sorted (the index
// of secrets is sorted by name, so by id; commas go, as the last of a list
// has none): each data dir makes its own ids,
// by design, and the rest must be the same.
func sameIDs(b []byte) []byte {
	b = keyringDir.ReplaceAll(b, []byte(`${1}"DATA-DIR"`)) // each door has its own data dir
	seen := map[string]string{}
	b = randomID.ReplaceAllFunc(b, func(id []byte) []byte {
		if _, ok := seen[string(id)]; !ok {
			seen[string(id)] = fmt.Sprintf("ID%d", len(seen))
		}
		return []byte(seen[string(id)])
	})
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, ",") // the last of a list has none
	}
	slices.Sort(lines)
	return []byte(strings.Join(lines, "\n"))
}

var randomID = regexp.MustCompile(`\b[0-9a-f]{12}\b`)

// keyringDir is settings.keyring.dir, the data directory the scope is
// for.
var keyringDir = regexp.MustCompile(`("keyring":\s*\{\s*"scope":\s*"[0-9a-f]*",\s*"dir":\s*)"[^"]*"`)

// keyringIn reads name from the keyring as dir's host does, in its scope.
func keyringIn(t *testing.T, dir datadir.Dir, name string) string {
	t.Helper()
	cfg, err := config.Load(dir.Config())
	if err != nil {
		t.Fatal(err)
	}
	st := secrets.NewStore()
	st.SetScope(secrets.ScopeOf(cfg.Settings))
	v, _ := st.Get(name)
	return v
}
